// Command icnsim is the cycle-accurate interconnection-network simulator's
// command line: run a configuration (or the built-in default scenario),
// validate a file, print the default configuration, benchmark the simulator.
//
// It may import any package of the module and holds no simulation logic of
// its own.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/internal/version"
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

// sharedFlags are the flags several commands take alike.
type sharedFlags struct {
	exec, blocking, mem *cli.StringFlag
	workers             *cli.IntFlag
	set                 *cli.StringSliceFlag
}

// loadFile reads a study file with the command's --set overrides written
// in (study.LoadFileSets).
func loadFile(c *cli.Context, path string) (*study.File, error) {
	sets, err := study.ParseSets(c.StringSlice("set"))
	if err != nil {
		return nil, err
	}
	return study.LoadFileSets(c.Context, path, sets)
}

// newApp is the command line, one command per file (run.go, validate.go,
// config.go, merge.go, plot.go, report.go, bench.go).
func newApp(out io.Writer) *cli.App {
	var f sharedFlags
	f.exec = &cli.StringFlag{Name: "exec", Value: "shards", Usage: "executor: serial, actors (one goroutine per router and NI) or shards"}
	f.blocking = &cli.StringFlag{Name: "blocking", Value: "auto", Usage: "temporal blocking of the serial and shards executors (same results, faster on networks larger than the cache): auto (a torus or mesh of VC routers whose state exceeds 16 MiB), off, or on (any torus, mesh or fat-tree)"}
	// Flags whose default is not a value of their type (a zero meaning
	// "choose for me") say what it is in DefaultText, never "(default: 0)".
	f.mem = &cli.StringFlag{Name: "max-memory", Usage: "refuse to run when the estimated memory exceeds `LIMIT`: a size of at least 4KiB (8GiB, 512MiB, 16GB), a share of this machine's memory (50%), or off for no limit",
		DefaultText: fmt.Sprintf("%.0f%% of this machine's memory", 100*study.DefaultMemoryShare)}
	f.workers = &cli.IntFlag{Name: "workers", Usage: "shard workers per run (with --exec shards)",
		DefaultText: fmt.Sprintf("GOMAXPROCS (%d here) for a single run, 1 per run in a study", runtime.GOMAXPROCS(0))}
	f.set = &cli.StringSliceFlag{Name: "set", Usage: "set `KEY=VALUE` in the file (repeatable): a configuration key (measure.measure_cycles=2000, traffic.pattern=uniform, seed=7) or a [study] or [plot] key, checked as the file's own; the study directory's study.toml records it"}
	app := &cli.App{
		Name: "icnsim",
		// --set values hold commas (plot.formats=["svg","pdf"]): one
		// flag, one KEY=VALUE.
		DisableSliceFlagSeparator: true,
		// --version: the module version and the commit it was built from
		// ("+dirty" for a work tree with changes), as reports record it.
		Version: version.String(),
		// Shell completion of commands and flags: source the urfave/cli
		// script (README, "Shell completion").
		EnableBashCompletion: true,
		Usage:                "cycle-accurate interconnection-network simulator",
		Writer:               out,
		ErrWriter:            os.Stderr,
		HideHelpCommand:      true,
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
			runCommand(out, f),
			validateCommand(out, f),
			configCommand(out, f),
			mergeCommand(out, f),
			plotCommand(out, f),
			reportCommand(out, f),
			benchCommand(out, f),
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = usageError
	}
	return app
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

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
