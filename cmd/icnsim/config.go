package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/icnsim/icnsim/study"
	"github.com/urfave/cli/v2"
)

// configCommand is icnsim config: print the configuration format, or the
// configuration a file runs.
func configCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
		Name:      "config",
		Usage:     "print the full default configuration as commented TOML (--default), or the configuration FILE.toml runs, every default filled in",
		ArgsUsage: "[FILE.toml]",
		Flags: []cli.Flag{f.set, &cli.BoolFlag{Name: "default", Usage: "print the full default configuration as commented TOML"},
			&cli.IntFlag{Name: "point", Usage: "the study point `N` to print (0 is the first; results.csv's point column)", DefaultText: "the first"}},
		Action: func(c *cli.Context) error {
			switch {
			case c.Bool("default") && (c.NArg() > 0 || c.IsSet("set")):
				return errors.New("config: --default (the defaults) or a FILE.toml with its --set overrides, not both")
			case c.Bool("default"):
				fmt.Fprint(out, study.DefaultTOML())
				return nil
			case c.NArg() != 1:
				return errors.New("config: give --default (the default configuration, documented) or one FILE.toml (the configuration it runs)")
			}
			file, err := loadFile(c, c.Args().First())
			if err != nil {
				return stopped(c.Context, err, "reading "+c.Args().First(), "nothing printed")
			}
			text, err := file.EffectiveTOML(c.Int("point"))
			if err != nil {
				return err
			}
			fmt.Fprint(out, text)
			return nil
		},
	}
}
