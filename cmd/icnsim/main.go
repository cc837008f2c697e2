// Command icnsim is the cycle-accurate interconnection-network simulator's
// command line: run a configuration (or the built-in default scenario),
// validate a file, print the default configuration, benchmark the simulator.
//
// It may import any package of the module and holds no simulation logic of
// its own.
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
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/runner"
	"github.com/icnsim/icnsim/study"
)

func main() {
	ctx, sig := interruptible()
	app := newApp(os.Stdout)
	args, err := flagsFirst(app, os.Args)
	if err == nil {
		err = app.RunContext(ctx, args)
	}
	if s := sig(); s != nil {
		// Interrupted: say so once, with what the command kept, and exit
		// as the shell expects of a process a signal ended.
		// Every phase of every command says what it stopped and what it
		// kept (stopped, and the runner's errors); the bare cancellation
		// is a phase that does not yet.
		msg := "interrupted before the command finished"
		switch {
		case err == nil:
			msg = "the command had finished: its output is complete"
		case !errors.Is(err, context.Canceled):
			msg = err.Error()
		}
		fmt.Fprintf(os.Stderr, "icnsim: %s: %s\n", signalName(s), msg)
		code := 130
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "icnsim:", err)
		os.Exit(1)
	}
}

func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// interruptible returns a context that SIGINT or SIGTERM cancels, and a
// function that reports the signal that did (nil for none). Every phase of
// every command watches the context (loading, checking, building, the
// deadlock check, the run, writing), so the process stops within a cycle
// of the simulation. A second signal ends the process at once.
func interruptible() (context.Context, func() os.Signal) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var got atomic.Value
	go func() {
		s := <-sigs
		got.Store(s)
		fmt.Fprintf(os.Stderr, "icnsim: %s: stopping (a second one stops at once)\n", signalName(s))
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		cancel()
	}()
	return ctx, func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
}

func newApp(out io.Writer) *cli.App {
	execFlag := &cli.StringFlag{Name: "exec", Value: "shards", Usage: "executor: serial, actors (one goroutine per router and NI) or shards"}
	blockingFlag := &cli.StringFlag{Name: "blocking", Value: "auto", Usage: "temporal blocking of the serial and shards executors (same results, faster on networks larger than the cache): auto (a torus or mesh of VC routers whose state exceeds 16 MiB), off, or on (any torus, mesh or fat-tree)"}
	// Flags whose default is not a value of their type (a zero meaning
	// "choose for me") say what it is in DefaultText, never "(default: 0)".
	memFlag := &cli.StringFlag{Name: "max-memory", Usage: "refuse to run when the estimated memory exceeds `LIMIT`: a size of at least 4KiB (8GiB, 512MiB, 16GB), a share of this machine's memory (50%), or off for no limit",
		DefaultText: fmt.Sprintf("%.0f%% of this machine's memory", 100*study.DefaultMemoryShare)}
	workersFlag := &cli.IntFlag{Name: "workers", Usage: "shard workers per run (with --exec shards)",
		DefaultText: fmt.Sprintf("GOMAXPROCS (%d here) for a single run, 1 per run in a study", runtime.GOMAXPROCS(0))}
	app := &cli.App{
		Name:            "icnsim",
		Usage:           "cycle-accurate interconnection-network simulator",
		Writer:          out,
		ErrWriter:       os.Stderr,
		HideHelpCommand: true,
		// A mistyped flag or command is one line on stderr and exit 1,
		// like every other bad input, not a page of help.
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fmt.Errorf("unknown command %q (allowed: %s; icnsim --help lists them)", c.Args().First(), strings.Join(commandNames(c.App), ", "))
			}
			return cli.ShowAppHelp(c)
		},

		Commands: []*cli.Command{
			{
				Name:      "run",
				Usage:     "run a study or configuration FILE.toml, or the built-in default scenario when no file is given",
				ArgsUsage: "[FILE.toml]",
				Flags: []cli.Flag{execFlag, blockingFlag, workersFlag, memFlag,
					&cli.IntFlag{Name: "jobs", Usage: "runs of a study at once", DefaultText: fmt.Sprintf("GOMAXPROCS, %d here", runtime.GOMAXPROCS(0))},
					&cli.Uint64Flag{Name: "seed", Usage: "override the file's seed (not with --out: a study directory is a function of its file)", DefaultText: "the file's seed"},
					&cli.StringFlag{Name: "out", Usage: "study directory `DIR` for results, tables, plots and the report index.html", DefaultText: "out/NAME for a study with axes or replicates; none for a single run"},
					&cli.BoolFlag{Name: "resume", Usage: "continue the study in --out: skip finished runs, redo missing or corrupt ones"},
					&cli.StringFlag{Name: "shard", Usage: "run only shard `i/n` of the runs; \"slurm\": the shard of this Slurm array task (SLURM_ARRAY_TASK_ID, _COUNT, _MIN)", DefaultText: "every run"},
					&cli.BoolFlag{Name: "quiet", Usage: "no progress bar"},
					&cli.BoolFlag{Name: "checks", Usage: "verify network invariants after every cycle (slow)"},
					&cli.BoolFlag{Name: "no-reuse", Usage: "simulate every run of a threshold sweep, even those whose result an equivalent run (the same throttling decisions in every cycle) already gives; the results are the same"},
				},
				Action: func(c *cli.Context) error { return runCmd(c, out) },
			},
			{
				Name:      "validate",
				Usage:     "check a configuration or study file without running it, and estimate the memory and build time of its networks",
				ArgsUsage: "FILE.toml",
				Flags: []cli.Flag{&cli.StringFlag{Name: "max-memory", Usage: "judge the estimates against `LIMIT`, as run and bench would: a size of at least 4KiB (8GiB, 512MiB, 16GB), a share of this machine's memory (50%), or off",
					DefaultText: memFlag.DefaultText}},
				Action: func(c *cli.Context) error { return validateCmd(c, out) },
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
				Name:      "merge",
				Usage:     "join the study directories of a study's shards into one, and write its tables and plots",
				ArgsUsage: "DIR...",
				Flags:     []cli.Flag{&cli.StringFlag{Name: "out", Usage: "merged study `DIR` (required; may be one of the inputs)"}},
				Action: func(c *cli.Context) error {
					if c.String("out") == "" {
						return errors.New("merge needs --out DIR, the merged study directory (it may be one of the inputs)")
					}
					if c.NArg() < 1 {
						return errors.New("merge needs at least one study DIR")
					}
					o, err := runner.Merge(c.Context, c.Args().Slice(), c.String("out"))
					if err != nil {
						return err
					}
					fmt.Fprintf(out, "merged %d runs into %s; the report: %s\n", o.Total, o.Dir, filepath.Join(o.Dir, runner.ReportFile))
					return nil
				},
			},
			{
				Name:      "plot",
				Usage:     "redraw the plots (and tables) of a finished study directory without rerunning",
				ArgsUsage: "DIR",
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return errors.New("plot needs exactly one study DIR")
					}
					dir := c.Args().First()
					f, recs, err := runner.Reload(c.Context, dir)
					if err != nil {
						return stopped(c.Context, err, "reading the runs of "+dir, "nothing written")
					}
					if err := runner.WriteOutputs(c.Context, dir, f, recs); err != nil {
						return stopped(c.Context, err, "redrawing the tables, figures and report of "+dir,
							fmt.Sprintf("its %d runs are kept in %s, and every file written so far is whole; icnsim plot %s redraws them all", len(recs), filepath.Join(dir, "points"), dir))
					}
					fmt.Fprintf(out, "redrew %s; the report: %s\n", filepath.Join(dir, "plots"), filepath.Join(dir, runner.ReportFile))
					return nil
				},
			},
			{
				Name:      "report",
				Usage:     "rebuild finished study directories' index.html from their records, summary and figures, without running or drawing anything; with several DIRs, also an index page that links them",
				ArgsUsage: "DIR...",
				Action: func(c *cli.Context) error {
					if c.NArg() < 1 {
						return errors.New("report needs at least one study DIR")
					}
					dirs := c.Args().Slice()
					kept := "nothing written"
					if len(dirs) > 1 {
						kept = "its report, those of the directories after it and the index not written"
					}
					for _, dir := range dirs {
						f, recs, err := runner.Reload(c.Context, dir)
						if err != nil {
							return stopped(c.Context, err, "reading the runs of "+dir, kept)
						}
						if err := runner.WriteReport(dir, f, recs); err != nil {
							return err
						}
						fmt.Fprintf(out, "wrote %s\n", filepath.Join(dir, runner.ReportFile))
					}
					if len(dirs) == 1 {
						return nil
					}
					cwd, err := os.Getwd()
					if err != nil {
						return err
					}
					index, err := runner.ReportIndexPath(dirs, cwd)
					if err != nil {
						return err
					}
					if err := runner.WriteReportIndex(c.Context, index, dirs); err != nil {
						return err
					}
					fmt.Fprintf(out, "wrote %s, the index of the %d studies' reports\n", index, len(dirs))
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
					&cli.StringFlag{Name: "blocking", Value: "auto", Usage: "comma-separated temporal-blocking modes: auto, off, on"},
					&cli.IntFlag{Name: "block-steps", Usage: "cycles of a temporal block", DefaultText: fmt.Sprint(study.BlockSteps)},
					&cli.IntFlag{Name: "block-side", Usage: "side of a torus or mesh tile in routers", DefaultText: fmt.Sprint(study.BlockSide)},
					&cli.Int64Flag{Name: "cycles", Value: 5000, Usage: "timed cycles per measurement"},
					&cli.Int64Flag{Name: "warmup", Value: 2000, Usage: "untimed warm-up cycles"},
					&cli.IntFlag{Name: "repeat", Value: 1, Usage: "measurements per setting (all are printed)"},
					&cli.BoolFlag{Name: "json", Usage: "print a JSON array instead of a table"},
					&cli.StringFlag{Name: "sizes", Usage: "comma-separated network sizes to sweep: k of a torus or mesh, levels of a fat-tree", DefaultText: "the scenario's size only"},
					&cli.BoolFlag{Name: "fixed-load", Usage: "with --sizes, keep the offered load per node instead of the load per channel"},
					memFlag,
				},
				Action: func(c *cli.Context) error { return benchCmd(c, out) },
			},
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
}

// validateCmd checks a file as run would, without running it, and prints
// what it holds and, per network, the estimated memory and build time
// with the verdict of the --max-memory guard.
func validateCmd(c *cli.Context, out io.Writer) error {
	if c.NArg() != 1 {
		return errors.New("validate needs exactly one FILE.toml")
	}
	limit, err := study.ParseMemoryLimit(c.String("max-memory"))
	if err != nil {
		return err
	}
	f, err := study.LoadFile(c.Context, c.Args().First())
	if err != nil {
		return stopped(c.Context, err, "reading "+c.Args().First()+" and the topology files it names", "nothing written, nothing run")
	}
	// What run would refuse for its memory, validate refuses, before the
	// deadlock check that grows with the network.
	if err := f.CheckMemory(1, limit); err != nil {
		return err
	}
	if err := f.CheckBuild(c.Context); err != nil {
		return stopped(c.Context, err, "checking the networks of "+f.Path+" (routing and deadlock)", "nothing written, nothing run")
	}
	fmt.Fprint(out, f.Describe())
	es, pts := f.Estimates()
	for i, e := range es {
		where := ""
		if len(es) > 1 && len(pts[i].Params) > 0 {
			where = " (first at " + pts[i].Label() + ")"
		}
		// A limit given as a size names itself; a share or the default
		// also gets its size in bytes.
		what := limit.Why
		if strings.Contains(what, "%") {
			what += " (" + study.FormatBytes(limit.Bytes) + ")"
		}
		verdict := "fits " + what // f.CheckMemory refused what does not
		if limit.Bytes == 0 {
			verdict = "not checked against a limit: " + limit.Why
		}
		fmt.Fprintf(out, "  network%s: %s; %s\n", where, e, verdict)
	}
	return nil
}

// stopped turns err, when it is ctx's cancellation (Ctrl-C, SIGTERM), into
// an error that says what the interruption stopped (doing: "checking the
// networks of FILE") and what is kept; any other error is returned as it is.
func stopped(ctx context.Context, err error, doing, kept string) error {
	if err == nil || ctx.Err() == nil || !errors.Is(err, ctx.Err()) {
		return err
	}
	return fmt.Errorf("interrupted while %s: %s", doing, kept)
}

// flagsFirst moves a command's flags ahead of its positional arguments, so
// that `icnsim run FILE.toml --out DIR` works: urfave/cli v2 stops parsing
// flags at the first positional argument. Everything after "--" stays put.
func flagsFirst(app *cli.App, args []string) ([]string, error) {
	if len(args) < 3 {
		return args, nil
	}
	var cmd *cli.Command
	for _, c := range app.Commands {
		if c.Name == args[1] {
			cmd = c
		}
	}
	if cmd == nil {
		return args, nil
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
		if !strings.Contains(name, "=") && takesValue[name] {
			if i+1 == len(rest) {
				// Moved ahead, it would take the next argument as its
				// value (merge A B --out: B merged into A).
				return nil, fmt.Errorf("%s: flag --%s needs a value (icnsim %s --help lists the flags)", cmd.Name, name, cmd.Name)
			}
			flags = append(flags, rest[i+1])
			i++
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	return append(out, pos...), nil
}

// usageError turns urfave/cli's complaint about a flag (an unknown one, a
// value that does not parse) into one clear error, without the help page.
func usageError(c *cli.Context, err error, _ bool) error {
	msg := strings.NewReplacer("flag -", "flag --", "defined: -", "defined: --", "argument: -", "argument: --").Replace(err.Error())
	if c.Command == nil || c.Command.Name == "" || c.Command.Name == c.App.Name {
		return fmt.Errorf("%s (icnsim --help lists the flags)", msg)
	}
	return fmt.Errorf("%s: %s (icnsim %s --help lists the flags)", c.Command.Name, msg, c.Command.Name)
}

func commandNames(app *cli.App) []string {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
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
	blocking, err := study.ParseBlocking(c.String("blocking"))
	if err != nil {
		return fmt.Errorf("--blocking = %w", err)
	}
	if blocking == study.BlockingOn && exec == actor.Actors {
		return fmt.Errorf("--blocking = \"on\" with --exec actors: %s", study.ActorsCannotBlock)
	}
	if c.IsSet("workers") && c.Int("workers") < 1 {
		return fmt.Errorf("--workers = %d: allowed: 1 or more (leave it out for the default: GOMAXPROCS for a single run, 1 per run in a study)", c.Int("workers"))
	}
	if c.IsSet("jobs") && c.Int("jobs") < 1 {
		return fmt.Errorf("--jobs = %d: allowed: 1 or more (leave it out for the default: GOMAXPROCS)", c.Int("jobs"))
	}
	switch c.NArg() {
	case 0:
		if c.IsSet("out") || c.IsSet("resume") || c.IsSet("shard") {
			return errors.New("--out, --resume and --shard need a study FILE.toml")
		}
		return runDefault(c, out, exec, blocking)
	case 1:
	default:
		return errors.New("run takes at most one FILE.toml")
	}
	file := c.Args().First()
	f, err := study.LoadFile(c.Context, file)
	if err != nil {
		return stopped(c.Context, err, "reading "+file+" and the topology files it names", "nothing written, nothing run")
	}
	if c.IsSet("seed") {
		if c.IsSet("out") {
			return errors.New("--seed with --out: a study directory holds its study file, so set seed in the file instead")
		}
		f.Seed = c.Uint64("seed")
	}
	runs := len(f.Points) * f.Study.Replicates
	limit, err := study.ParseMemoryLimit(c.String("max-memory"))
	if err != nil {
		return err
	}
	opt := runner.Options{Jobs: c.Int("jobs"), Workers: c.Int("workers"), Exec: exec, Blocking: blocking, Out: c.String("out"),
		Resume: c.Bool("resume"), Checks: c.Bool("checks"), NoReuse: c.Bool("no-reuse"), Log: os.Stderr, MaxMemory: limit}
	if runs == 1 && opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0) // one run: all cores to it
	}
	if opt.Out == "" && (len(f.Axes) > 0 || runs > 1) && !c.IsSet("seed") {
		opt.Out = filepath.Join("out", sanitizeName(f.Name))
	}
	if opt.Resume && opt.Out == "" {
		return errors.New("--resume needs --out DIR (the study directory to continue)")
	}
	switch s := c.String("shard"); s {
	case "":
	case "slurm":
		sh, ok, err := runner.ShardFromEnv(os.Getenv)
		if err != nil {
			return err
		}
		if !ok {
			return errors.New("--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set (not inside a Slurm job array)")
		}
		opt.Shard = sh
		fmt.Fprintf(os.Stderr, "icnsim: Slurm array task %s of %s: shard %s\n", os.Getenv("SLURM_ARRAY_TASK_ID"), os.Getenv("SLURM_ARRAY_TASK_COUNT"), sh)
	default:
		if opt.Shard, err = runner.ParseShard(s); err != nil {
			return err
		}
	}
	if opt.Shard.Count > 0 && opt.Out == "" {
		return errors.New("--shard needs --out DIR: each shard writes its runs for icnsim merge")
	}
	if runs == 1 && !c.Bool("quiet") && study.CheckMemory(f.Points[0].Config, 1, limit) == nil {
		announce(f.Points[0].Config)
	}
	if !c.Bool("quiet") && isTerminal(os.Stderr) {
		opt.Progress = os.Stderr
	}
	o, err := runner.Run(c.Context, f, opt)
	if err != nil {
		return err
	}
	if !o.Complete {
		fmt.Fprintf(out, "shard %s: %d of %d runs finished in %s (%d resumed); join the shards with: icnsim merge --out DIR SHARD_DIRS...\n",
			opt.Shard, o.Resumed+o.Ran, o.Share, o.Dir, o.Resumed)
		return nil
	}
	if len(f.Axes) == 0 && runs == 1 {
		if err := report.WriteText(out, o.Results); err != nil {
			return err
		}
	} else if err := runner.WriteSummary(out, f, o.Records); err != nil {
		return err
	}
	if o.Dir != "" {
		fmt.Fprintf(out, "results in %s: the report %s (open it in a browser), results.csv, results.json, summary.txt, plots/\n",
			o.Dir, filepath.Join(o.Dir, runner.ReportFile))
	}
	return nil
}

// sanitizeName makes a study name usable as a directory name.
func sanitizeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
	if s == "" || s == "." || s == ".." {
		return "study"
	}
	return s
}

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// runDefault runs the built-in scenario: the default configuration under
// tornado and uniform traffic, side by side.
func runDefault(c *cli.Context, out io.Writer, exec actor.Kind, blocking study.Blocking) error {
	var rs []*report.Result
	limit, err := study.ParseMemoryLimit(c.String("max-memory"))
	if err != nil {
		return err
	}
	if err := study.CheckMemory(study.Default(), 1, limit); err != nil { // as run does with a file
		return err
	}
	fmt.Fprintln(out, "icnsim: built-in scenario: 32x32 torus, dor-dateline, 3 VCs x 16 flits, virtual cut-through,")
	fmt.Fprintln(out, "collective burst of 10 eight-flit packets per node under tornado and uniform traffic")
	for _, pat := range []string{"tornado", "uniform"} {
		cfg := study.Default()
		cfg.Traffic.Pattern = pat
		cfg.Name = "torus32-" + pat + "-collective"
		if c.IsSet("seed") {
			cfg.Seed = c.Uint64("seed")
		}
		r, err := study.Run(c.Context, cfg, study.Options{Exec: exec, Workers: c.Int("workers"), Checks: c.Bool("checks"), Blocking: blocking})
		if err != nil {
			kept := fmt.Sprintf("%d of 2 cases finished; nothing printed or written", len(rs))
			if ie := (*study.InterruptedError)(nil); errors.As(err, &ie) {
				return fmt.Errorf("interrupted %s (the built-in scenario): %s", ie.Of(cfg.Name), kept)
			}
			return stopped(c.Context, fmt.Errorf("%s: %w", cfg.Name, err), "building or simulating the built-in scenario's "+cfg.Name, kept)
		}
		rs = append(rs, r)
	}
	return report.WriteText(out, rs)
}

// announce tells, on stderr, what a run of a large network is about to
// build, when that takes a second or more.
func announce(cfg study.Config) {
	if e, err := study.EstimateRun(cfg); err == nil && e.BuildSeconds >= 1 {
		fmt.Fprintf(os.Stderr, "icnsim: building %q: %s\n", cfg.Name, e)
	}
}

func benchCmd(c *cli.Context, out io.Writer) error {
	var cfg study.Config
	if path := c.String("config"); path != "" {
		// Loaded as run loads it, so that a file without a name is named
		// alike (study.ImpliedName).
		f, err := study.LoadFile(c.Context, path)
		if err != nil {
			return stopped(c.Context, err, "reading "+path+" and the topology files it names", "nothing measured")
		}
		if len(f.Points) != 1 {
			return fmt.Errorf("--config %s: a study of %d points; bench takes one configuration (a file without [[axis]])", path, len(f.Points))
		}
		cfg = f.Points[0].Config
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
	var blockings []study.Blocking
	for _, s := range strings.Split(c.String("blocking"), ",") {
		b, err := study.ParseBlocking(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("--blocking = %w (comma-separated)", err)
		}
		blockings = append(blockings, b)
	}
	if slices.Contains(blockings, study.BlockingOn) && slices.Contains(execs, actor.Actors) {
		return fmt.Errorf("--blocking = %q with --exec %s: %s", c.String("blocking"), c.String("exec"), study.ActorsCannotBlock)
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
	for _, f := range []string{"block-steps", "block-side"} {
		if c.IsSet(f) && c.Int(f) < 1 {
			return fmt.Errorf("--%s = %d: allowed: 1 or more (leave it out for the default)", f, c.Int(f))
		}
	}
	cfgs := []study.Config{cfg}
	if s := c.String("sizes"); s != "" {
		cfgs = nil
		for _, f := range strings.Split(s, ",") {
			size, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return fmt.Errorf("--sizes = %q: allowed: comma-separated sizes (k of a torus or mesh, levels of a fat-tree)", s)
			}
			sc, err := study.WithSize(cfg, size, !c.Bool("fixed-load"))
			if err != nil {
				return err
			}
			cfgs = append(cfgs, sc)
		}
	}
	limit, err := study.ParseMemoryLimit(c.String("max-memory"))
	if err != nil {
		return err
	}
	for _, sc := range cfgs {
		if err := study.CheckMemory(sc, 1, limit); err != nil {
			return err
		}
	}
	var rs []study.BenchResult
	total := 0
	for range cfgs {
		for _, e := range execs {
			if e == actor.Shards {
				total += len(workers) * len(blockings) * c.Int("repeat")
			} else {
				total += len(blockings) * c.Int("repeat")
			}
		}
	}
	for _, sc := range cfgs {
		for _, e := range execs {
			ws := workers
			if e != actor.Shards {
				ws = []int{1}
			}
			for _, w := range ws {
				// Repeats go round the blocking modes, so that modes
				// compared are measured interleaved.
				for range c.Int("repeat") {
					for _, bl := range blockings {
						opt := study.Options{Exec: e, Workers: w, Blocking: bl, BlockSteps: c.Int("block-steps"), BlockSide: c.Int("block-side")}
						r, err := study.Bench(c.Context, sc, opt, c.Int64("warmup"), c.Int64("cycles"))
						if err != nil {
							return stopped(c.Context, err, benchWhat(sc.Name, e, w),
								fmt.Sprintf("%d of %d measurements were taken; nothing printed or written", len(rs), total))
						}
						rs = append(rs, r)
					}
				}
			}
		}
	}
	if c.Bool("json") {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rs)
	}
	fmt.Fprintf(out, "scenario %s, %d cycles timed after %d warm-up, GOMAXPROCS=%d, NumCPU=%d\n",
		cfg.Name, c.Int64("cycles"), c.Int64("warmup"), runtime.GOMAXPROCS(0), runtime.NumCPU())
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "routers\texecutor\tworkers\tblock\trouter-cycles/s\ttraversals/s\theap/router\tbuild\tallocs/cycle\taccepted flits/node/cyc\tpeak RSS\t")
	for _, r := range rs {
		block := "-"
		if r.BlockSteps > 0 {
			block = strconv.Itoa(r.BlockSteps)
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%.0f\t%.0f\t%.0f B\t%.2f s\t%.2f\t%.4f\t%s\t\n", r.Routers, r.Executor, r.Workers, block, r.RouterCyclesPerSec, r.FlitHopsPerSec,
			r.HeapBytesPerRouter, r.BuildSeconds, r.AllocsPerCycle, r.AcceptedFlitsPerNode, study.FormatBytes(r.PeakRSSBytes))
	}
	return tw.Flush()
}

// benchWhat names one bench measurement: the scenario, the executor and,
// for shards, the workers.
func benchWhat(name string, e actor.Kind, workers int) string {
	if e != actor.Shards {
		return fmt.Sprintf("benchmarking %s (%s)", name, e)
	}
	return fmt.Sprintf("benchmarking %s (%s, %d workers)", name, e, workers)
}
