package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/icnsim/icnsim/runner"
	"github.com/urfave/cli/v2"
)

// mergeCommand is icnsim merge: join the study directories of a study's shards into one, and write its tables and plots.
func mergeCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
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
	}
}
