package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/runner"
	"github.com/icnsim/icnsim/study"
	"github.com/urfave/cli/v2"
)

// runCommand is icnsim run: run a study or configuration FILE.toml, or the built-in default scenario when no file is given.
func runCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run a study or configuration FILE.toml, or the built-in default scenario when no file is given",
		ArgsUsage: "[FILE.toml]",
		Flags: []cli.Flag{f.set, f.exec, f.blocking, f.workers, f.mem,
			&cli.IntFlag{Name: "jobs", Usage: "runs of a study at once", DefaultText: fmt.Sprintf("GOMAXPROCS, %d here", runtime.GOMAXPROCS(0))},
			&cli.Uint64Flag{Name: "seed", Usage: "override the file's seed (as --set seed=N: with --out, the study directory's study.toml records it)", DefaultText: "the file's seed"},
			&cli.StringFlag{Name: "out", Usage: "study directory `DIR` for results, tables, plots and the report index.html", DefaultText: "out/NAME for a study with axes or replicates; none for a single run"},
			&cli.BoolFlag{Name: "resume", Usage: "continue the study in --out: skip finished runs, redo missing or corrupt ones"},
			&cli.StringFlag{Name: "shard", Usage: "run only shard `i/n` of the runs; \"slurm\": the shard of this Slurm array task (SLURM_ARRAY_TASK_ID, _COUNT, _MIN)", DefaultText: "every run"},
			&cli.BoolFlag{Name: "quiet", Usage: "no progress bar"},
			&cli.DurationFlag{Name: "heartbeat", Usage: "a progress line on stderr every `INTERVAL` (30s, 5m): runs finished and in flight, their cycles, cycles/s and time left; for logs off a terminal, where no bar is drawn", DefaultText: "none"},
			&cli.BoolFlag{Name: "json", Usage: "print the results as JSON instead of the table: results.json's form for a FILE, an array of results for the built-in scenario"},
			&cli.BoolFlag{Name: "csv", Usage: "print the results as CSV (results.csv's form: a row per run) instead of the table"},
			&cli.BoolFlag{Name: "checks", Usage: "verify network invariants after every cycle (slow)"},
			&cli.StringFlag{Name: "record-trace", Usage: "write the run's job (traffic.process = \"job\", one run) as a trace to `FILE`, a mix's further jobs to FILE.also0, FILE.also1, ...: replayed with workload.trace_file (and workload.also[i].trace_file) it runs as this run did, to the same digest"},
			&cli.BoolFlag{Name: "no-reuse", Usage: "simulate every run of a threshold sweep, even those whose result an equivalent run (the same throttling decisions in every cycle) already gives; the results are the same"},
		},
		Action: func(c *cli.Context) error { return runCmd(c, out) },
	}
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
	if c.IsSet("heartbeat") && c.Duration("heartbeat") < 100*time.Millisecond {
		return fmt.Errorf("--heartbeat = %s: allowed: 100ms or more (30s, 5m)", c.Duration("heartbeat"))
	}
	if c.IsSet("jobs") && c.Int("jobs") < 1 {
		return fmt.Errorf("--jobs = %d: allowed: 1 or more (leave it out for the default: GOMAXPROCS)", c.Int("jobs"))
	}
	if c.Bool("json") && c.Bool("csv") {
		return errors.New("--json or --csv, not both: each is the whole of stdout")
	}
	switch c.NArg() {
	case 0:
		if c.IsSet("out") || c.IsSet("resume") || c.IsSet("shard") {
			return errors.New("--out, --resume and --shard need a study FILE.toml")
		}
		if c.IsSet("set") || c.IsSet("heartbeat") {
			return errors.New("--set and --heartbeat need a FILE.toml: the built-in scenario is fixed (icnsim config --default > my.toml gives a file to start from)")
		}
		return runDefault(c, out, exec, blocking)
	case 1:
	default:
		return errors.New("run takes at most one FILE.toml")
	}
	file := c.Args().First()
	if c.IsSet("seed") {
		if slices.ContainsFunc(c.StringSlice("set"), func(s string) bool { k, _, _ := strings.Cut(s, "="); return strings.TrimSpace(k) == "seed" }) {
			return errors.New("--seed and --set seed=...: give the seed once")
		}
		if err := c.Set("set", fmt.Sprintf("seed=%d", c.Uint64("seed"))); err != nil {
			return err
		}
	}
	f, err := loadFile(c, file)
	if err != nil {
		return stopped(c.Context, err, "reading "+file+" and the topology files it names", "nothing written, nothing run")
	}
	for _, w := range f.Warnings {
		fmt.Fprintln(os.Stderr, "icnsim: "+w)
	}
	runs := len(f.Points) * f.Study.Replicates
	limit, err := study.ParseMemoryLimit(c.String("max-memory"))
	if err != nil {
		return err
	}
	opt := runner.Options{Jobs: c.Int("jobs"), Workers: c.Int("workers"), Exec: exec, Blocking: blocking, Out: c.String("out"),
		Resume: c.Bool("resume"), Checks: c.Bool("checks"), NoReuse: c.Bool("no-reuse"), Log: os.Stderr, MaxMemory: limit}
	if path := c.String("record-trace"); path != "" {
		var files []*os.File
		defer func() {
			for _, f := range files {
				f.Close()
			}
		}()
		// The first job's trace goes to FILE, a mix's further jobs' to
		// FILE.also0, FILE.also1, ... (workload.also[0], [1], ...).
		opt.RecordTrace = func(job int) (io.Writer, error) {
			name := path
			if job > 0 {
				name = fmt.Sprintf("%s.also%d", path, job-1)
			}
			f, err := os.Create(name)
			if err != nil {
				return nil, fmt.Errorf("--record-trace: %w", err)
			}
			files = append(files, f)
			return f, nil
		}
	}
	if runs == 1 && opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0) // one run: all cores to it
	}
	if opt.Out == "" && (len(f.Axes) > 0 || runs > 1) {
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
	opt.Heartbeat = c.Duration("heartbeat")
	o, err := runner.Run(c.Context, f, opt)
	if err != nil {
		return err
	}
	if !o.Complete {
		if c.Bool("json") || c.Bool("csv") {
			out = os.Stderr // a shard's results are its directory's; stdout holds data only
		}
		fmt.Fprintf(out, "shard %s: %d of %d runs finished in %s (%d resumed); join the shards with: icnsim merge --out DIR SHARD_DIRS...\n",
			opt.Shard, o.Resumed+o.Ran, o.Share, o.Dir, o.Resumed)
		return nil
	}
	switch {
	case c.Bool("json"):
		if err := runner.WriteResultsJSON(out, f, o.Records); err != nil {
			return err
		}
	case c.Bool("csv"):
		if err := runner.WriteResultsCSV(out, f, o.Records); err != nil {
			return err
		}
	case len(f.Axes) == 0 && runs == 1:
		if err := report.WriteText(out, o.Results); err != nil {
			return err
		}
	default:
		if err := runner.WriteSummary(out, f, o.Records); err != nil {
			return err
		}
	}
	if c.Bool("json") || c.Bool("csv") {
		if o.Dir != "" { // stdout holds the data only
			fmt.Fprintf(os.Stderr, "icnsim: results in %s\n", o.Dir)
		}
		return nil
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

// runDefault runs the built-in scenario (study.BuiltIn) under tornado and
// uniform traffic, side by side.
func runDefault(c *cli.Context, out io.Writer, exec actor.Kind, blocking study.Blocking) error {
	var rs []*report.Result
	limit, err := study.ParseMemoryLimit(c.String("max-memory"))
	if err != nil {
		return err
	}
	if err := study.CheckMemory(study.BuiltIn(), 1, limit); err != nil { // as run does with a file
		return err
	}
	banner := out
	if c.Bool("json") || c.Bool("csv") {
		banner = os.Stderr // stdout holds the data only
	}
	fmt.Fprintln(banner, "icnsim: built-in scenario: 32x32 torus, dor-dateline, 3 VCs x 16 flits, virtual cut-through,")
	fmt.Fprintln(banner, "collective burst of 10 eight-flit packets per node under tornado and uniform traffic")
	for _, pat := range []string{"tornado", "uniform"} {
		cfg := study.BuiltIn()
		cfg.Traffic.Pattern = pat
		cfg.Name = study.ImpliedName(cfg, nil)
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
	switch {
	case c.Bool("json"):
		enc := json.NewEncoder(out)
		enc.SetIndent("", " ")
		return enc.Encode(rs)
	case c.Bool("csv"):
		return report.WriteCSV(out, rs)
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
