package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// usage is the command's synopsis: the demo and its four subcommands.
const usage = `usage:
  lab [flags]           the demo: one fault, N clients, a live timeline and a summary
  lab compare [flags]   the simulator against the lab, profile by profile
  lab storm [flags]     a server restart under load
  lab soak [flags]      a chaos soak with live invariants
  lab peers [flags]     socket.io, centrifuge and ours, fault by fault, on real sockets

Run 'lab SUBCOMMAND -h' for a subcommand's flags.`

// flags is the flag set of a (sub)command, with what -h prints.
type flags struct {
	*flag.FlagSet
	synopsis string
	out      io.Writer
}

// newFlags returns the flag set of a (sub)command. Its errors name the bad
// flag alone; -h prints the synopsis and the flags to out.
func newFlags(name, synopsis string, out io.Writer) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // the flag package calls it on every error; parse prints the help for -h only
	return &flags{FlagSet: fs, synopsis: synopsis, out: out}
}

// parse parses args: -h prints the help; a flag error is one line naming
// the flag; an argument after the flags is an error naming it.
func parse(fs *flags, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(fs.out, "%s\n\nflags of %s:\n", fs.synopsis, fs.Name())
			fs.SetOutput(fs.out)
			fs.PrintDefaults()
			return err
		}
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
			msg = "unknown flag " + name
		}
		return fmt.Errorf("%s (run '%s -h' for the flags)", msg, fs.Name())
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: %s takes flags only (run '%s -h')", fs.Arg(0), fs.Name(), fs.Name())
	}
	return nil
}
