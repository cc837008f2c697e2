package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/study"
	"github.com/urfave/cli/v2"
)

// benchCommand is icnsim bench: measure the simulator's speed (router-cycles per second).
func benchCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
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
			f.mem, f.set,
		},
		Action: func(c *cli.Context) error { return benchCmd(c, out) },
	}
}

func benchCmd(c *cli.Context, out io.Writer) error {
	var cfg study.Config
	if path := c.String("config"); path != "" {
		// Loaded as run loads it, so that a file without a name is named
		// alike (study.ImpliedName).
		f, err := loadFile(c, path)
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
		sets, err := study.ParseSets(c.StringSlice("set"))
		if err != nil {
			return err
		}
		if cfg, err = study.WithSets("scenario "+c.String("scenario"), cfg, sets); err != nil {
			return err
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
