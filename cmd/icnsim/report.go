package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/icnsim/icnsim/runner"
	"github.com/urfave/cli/v2"
)

// reportCommand is icnsim report: rebuild finished study directories' index.html from their records, summary and figures, without running or drawing anything; with several DIRs, also an index page that links them.
func reportCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
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
	}
}
