package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/icnsim/icnsim/study"
	"github.com/urfave/cli/v2"
)

// configCommand is icnsim config: print the configuration format.
func configCommand(out io.Writer, f sharedFlags) *cli.Command {
	return &cli.Command{
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
	}
}
