package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/icnsim/icnsim/runner"
	"github.com/urfave/cli/v2"
)

// plotCommand is icnsim plot: redraw the plots (and tables) of a finished study directory without rerunning.
func plotCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
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
	}
}
