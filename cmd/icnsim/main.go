// Command icnsim is the cycle-accurate interconnection-network simulator's
// command line: run a configuration (or the built-in default scenario),
// validate a file, print the default configuration, benchmark the simulator.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	app := newApp(os.Stdout)
	if err := app.RunContext(ctx, flagsFirst(app, os.Args)); err != nil {
		fmt.Fprintln(os.Stderr, "icnsim:", err)
		os.Exit(1)
	}
}

func newApp(out io.Writer) *cli.App {
	execFlag := &cli.StringFlag{Name: "exec", Value: "shards", Usage: "executor: serial, actors (one goroutine per router and NI) or shards"}
	workersFlag := &cli.IntFlag{Name: "workers", Value: 0, Usage: "shard workers (0 = GOMAXPROCS)"}
	return &cli.App{
		Name:            "icnsim",
		Usage:           "cycle-accurate interconnection-network simulator",
		Writer:          out,
		ErrWriter:       os.Stderr,
		HideHelpCommand: true,
		Commands: []*cli.Command{
			{
				Name:      "run",
				Usage:     "run FILE.toml, or the built-in default scenario when no file is given",
				ArgsUsage: "[FILE.toml]",
				Flags: []cli.Flag{execFlag, workersFlag,
					&cli.Uint64Flag{Name: "seed", Usage: "override the configuration's seed"},
					&cli.StringFlag{Name: "out", Usage: "write results.json, results.csv and series CSVs to `DIR`"},
					&cli.BoolFlag{Name: "checks", Usage: "verify network invariants after every cycle (slow)"},
				},
				Action: func(c *cli.Context) error { return runCmd(c, out) },
			},
			{
				Name:      "validate",
				Usage:     "check a configuration file without running it",
				ArgsUsage: "FILE.toml",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return errors.New("validate needs exactly one FILE.toml")
					}
					cfg, err := study.Load(c.Args().First())
					if err != nil {
						return err
					}
					if _, err := study.Build(cfg); err != nil {
						return inFile(c.Args().First(), err)
					}
					fmt.Fprintf(out, "%s: ok (%s)\n", c.Args().First(), cfg.Name)
					return nil
				},
			},
			{
				Name:  "config",
				Usage: "print the configuration format",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "default", Usage: "print the full default configuration as commented TOML"}},
				Action: func(c *cli.Context) error {
					if !c.Bool("default") {
						return errors.New("config: use --default to print the default configuration")
					}
					fmt.Fprint(out, study.DefaultTOML())
					return nil
				},
			},
			{
				Name:  "bench",
				Usage: "measure the simulator's speed (router-cycles per second)",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "scenario", Value: "torus32-uniform", Usage: "bench scenario: " + strings.Join(study.BenchScenarioNames(), ", ")},
					&cli.StringFlag{Name: "config", Usage: "bench a configuration `FILE` instead of a named scenario"},
					&cli.StringFlag{Name: "exec", Value: "serial,shards", Usage: "comma-separated executors"},
					&cli.StringFlag{Name: "workers", Value: "1,2", Usage: "comma-separated shard worker counts"},
					&cli.Int64Flag{Name: "cycles", Value: 5000, Usage: "timed cycles per measurement"},
					&cli.Int64Flag{Name: "warmup", Value: 2000, Usage: "untimed warm-up cycles"},
					&cli.IntFlag{Name: "repeat", Value: 1, Usage: "measurements per setting (all are printed)"},
					&cli.BoolFlag{Name: "json", Usage: "print a JSON array instead of a table"},
				},
				Action: func(c *cli.Context) error { return benchCmd(c, out) },
			},
		},
	}
}

// flagsFirst moves a command's flags ahead of its positional arguments, so
// that `icnsim run FILE.toml --out DIR` works: urfave/cli v2 stops parsing
// flags at the first positional argument. Everything after "--" stays put.
func flagsFirst(app *cli.App, args []string) []string {
	if len(args) < 3 {
		return args
	}
	var cmd *cli.Command
	for _, c := range app.Commands {
		if c.Name == args[1] {
			cmd = c
		}
	}
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, pos []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(rest) {
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, pos...)
}

// inFile names the file in an error about it (FieldErrors get file and line).
func inFile(file string, err error) error {
	var fe *study.FieldError
	if errors.As(err, &fe) && fe.File == "" {
		fe.File = file
		if src, rerr := os.ReadFile(file); rerr == nil {
			fe.Line = study.LineOf(src, fe.Key)
		}
		return fe
	}
	return fmt.Errorf("%s: %w", file, err)
}

func parseExec(s string) (actor.Kind, error) {
	k, err := actor.ParseKind(s)
	if err != nil {
		return "", fmt.Errorf("--exec: %w", err)
	}
	return k, nil
}

func runCmd(c *cli.Context, out io.Writer) error {
	exec, err := parseExec(c.String("exec"))
	if err != nil {
		return err
	}
	if c.Int("workers") < 0 {
		return fmt.Errorf("--workers = %d: allowed: 0 (GOMAXPROCS) or more", c.Int("workers"))
	}
	var cfgs []study.Config
	file := ""
	switch c.NArg() {
	case 0:
		for _, pat := range []string{"tornado", "uniform"} {
			d := study.Default()
			d.Traffic.Pattern = pat
			d.Name = "torus32-" + pat + "-collective"
			cfgs = append(cfgs, d)
		}
		fmt.Fprintln(out, "icnsim: built-in scenario: 32x32 torus, dor-dateline, 3 VCs x 16 flits, virtual cut-through,")
		fmt.Fprintln(out, "collective burst of 10 eight-flit packets per node under tornado and uniform traffic")
	case 1:
		file = c.Args().First()
		cfg, err := study.Load(file)
		if err != nil {
			return err
		}
		cfgs = append(cfgs, cfg)
	default:
		return errors.New("run takes at most one FILE.toml")
	}
	opt := study.Options{Exec: exec, Workers: c.Int("workers"), Checks: c.Bool("checks")}
	var rs []*report.Result
	for _, cfg := range cfgs {
		if c.IsSet("seed") {
			cfg.Seed = c.Uint64("seed")
		}
		r, err := study.Run(c.Context, cfg, opt)
		if err != nil {
			if file != "" {
				return inFile(file, err)
			}
			return fmt.Errorf("%s: %w", cfg.Name, err)
		}
		rs = append(rs, r)
	}
	if err := report.WriteText(out, rs); err != nil {
		return err
	}
	if dir := c.String("out"); dir != "" {
		return writeOut(dir, rs)
	}
	return nil
}

// writeOut writes each file atomically (write, then rename).
func writeOut(dir string, rs []*report.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name string, f func(io.Writer) error) error {
		tmp, err := os.CreateTemp(dir, "."+name+".*")
		if err != nil {
			return err
		}
		if err := f(tmp); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
		if err := tmp.Close(); err != nil {
			return err
		}
		return os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err := write("results.json", func(w io.Writer) error { return report.WriteJSON(w, rs) }); err != nil {
		return err
	}
	if err := write("results.csv", func(w io.Writer) error { return report.WriteCSV(w, rs) }); err != nil {
		return err
	}
	for _, r := range rs {
		if len(r.Series) == 0 {
			continue
		}
		if err := write(r.Scenario+".series.csv", func(w io.Writer) error { return report.WriteSeriesCSV(w, r) }); err != nil {
			return err
		}
	}
	return nil
}

func benchCmd(c *cli.Context, out io.Writer) error {
	var cfg study.Config
	if f := c.String("config"); f != "" {
		var err error
		if cfg, err = study.Load(f); err != nil {
			return err
		}
	} else {
		var ok bool
		if cfg, ok = study.BenchScenarios()[c.String("scenario")]; !ok {
			return fmt.Errorf("--scenario = %q: allowed: %s", c.String("scenario"), strings.Join(study.BenchScenarioNames(), ", "))
		}
	}
	var execs []actor.Kind
	for _, s := range strings.Split(c.String("exec"), ",") {
		k, err := parseExec(strings.TrimSpace(s))
		if err != nil {
			return err
		}
		execs = append(execs, k)
	}
	var workers []int
	for _, s := range strings.Split(c.String("workers"), ",") {
		w, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || w < 1 {
			return fmt.Errorf("--workers = %q: allowed: comma-separated counts >= 1", c.String("workers"))
		}
		workers = append(workers, w)
	}
	if c.Int64("cycles") < 1 || c.Int64("warmup") < 0 || c.Int("repeat") < 1 {
		return errors.New("--cycles and --repeat must be >= 1, --warmup >= 0")
	}
	var rs []study.BenchResult
	for _, e := range execs {
		ws := workers
		if e != actor.Shards {
			ws = []int{1}
		}
		for _, w := range ws {
			for range c.Int("repeat") {
				r, err := study.Bench(c.Context, cfg, e, w, c.Int64("warmup"), c.Int64("cycles"))
				if err != nil {
					return err
				}
				rs = append(rs, r)
			}
		}
	}
	if c.Bool("json") {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rs)
	}
	fmt.Fprintf(out, "scenario %s, %d routers, %d cycles timed after %d warm-up, GOMAXPROCS=%d, NumCPU=%d\n",
		cfg.Name, rs[0].Routers, c.Int64("cycles"), c.Int64("warmup"), runtime.GOMAXPROCS(0), runtime.NumCPU())
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "executor\tworkers\trouter-cycles/s\tflit-hops/s\tallocs/cycle\taccepted flits/node/cyc\tpeak RSS\t")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%d\t%.0f\t%.0f\t%.2f\t%.4f\t%s\t\n", r.Executor, r.Workers, r.RouterCyclesPerSec, r.FlitHopsPerSec,
			r.AllocsPerCycle, r.AcceptedFlitsPerNode, study.FormatBytes(r.PeakRSSBytes))
	}
	return tw.Flush()
}
