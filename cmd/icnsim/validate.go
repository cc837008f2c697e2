package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/icnsim/icnsim/study"
	"github.com/urfave/cli/v2"
)

// validateCommand is icnsim validate: check a configuration or study file without running it, and estimate the memory and build time of its networks.
func validateCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check a configuration or study file without running it, and estimate the memory and build time of its networks",
		ArgsUsage: "FILE.toml",
		Flags: []cli.Flag{f.set, &cli.StringFlag{Name: "max-memory", Usage: "judge the estimates against `LIMIT`, as run and bench would: a size of at least 4KiB (8GiB, 512MiB, 16GB), a share of this machine's memory (50%), or off",
			DefaultText: f.mem.DefaultText}},
		Action: func(c *cli.Context) error { return validateCmd(c, out) },
	}
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
	f, err := loadFile(c, c.Args().First())
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
	for _, w := range f.Warnings {
		fmt.Fprintln(out, w)
	}
	return nil
}
