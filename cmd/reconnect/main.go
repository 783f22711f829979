// Command reconnect prints RTB1 retry schedules and, as the package grows,
// simulates and checks reconnection behaviour.
//
// Usage:
//
//	reconnect schedule [--initial 15s] [--attempts 8] [--seed N] [--json]
//	reconnect simulate timeout [--clients N] [--timeouts …] [--profiles …] [--svg F] [--json]
//	reconnect simulate storm [--clients N] [--downtime D] [--capacity K] [--svg F] [--json]
//	reconnect conform [--only AREA,…] [--timeout D] [--json] (--self | -- CMD ARGS…)
//
// Run "reconnect help" for the list of subcommands. Bad flags or arguments
// print one line on stderr and exit with status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is one subcommand: its name, a one-line summary and the function
// that runs it with the arguments after its name.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"schedule", "print the RTB1 retry schedule: bounds and a sampled delay per attempt", runSchedule},
		{"simulate", "simulate clients: 'simulate timeout' sweeps the short-circuit timeout, 'simulate storm' replays a server restart", runSimulate},
		{"conform", "run the shared fixtures against an adapter ('-- CMD ARGS…') or this implementation (--self)", runConform},
	}
}

// usageError is a mistake in how the command was called: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		w := stdout
		status := 0
		if len(args) == 0 {
			w, status = stderr, 2
		}
		fmt.Fprintln(w, "usage: reconnect <command> [flags]\n\ncommands:")
		for _, c := range commands() {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
		fmt.Fprintln(w, "\nRun 'reconnect <command> -h' for a command's flags.")
		return status
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		err := c.run(args[1:], stdout, stderr)
		var ue usageError
		var failed errFailed
		switch {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &failed):
			return failed.exitStatus() // the report says why
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "reconnect %s: %v\n", c.name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "reconnect %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "reconnect: unknown command %q (run 'reconnect help')\n", args[0])
	return 2
}

// flagSet is a flag.FlagSet that reports errors as one usage line instead of
// printing them, and prints its synopsis and defaults on -h.
type flagSet struct {
	*flag.FlagSet
	synopsis string
	stdout   io.Writer
}

func newFlagSet(name, synopsis string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {} // the flag package calls it on every error; parse handles -h
	return &flagSet{FlagSet: fs, synopsis: synopsis, stdout: stdout}
}

// parse parses args and turns any problem into one usage line. It returns
// flag.ErrHelp, after printing the help, for -h. Arguments after the flags
// are an error.
func (fs *flagSet) parse(args []string) error {
	if err := fs.parseFlags(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// parseFlags is parse without the check for arguments after the flags.
func (fs *flagSet) parseFlags(args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(fs.stdout, "usage: reconnect %s %s\n\nflags:\n", fs.Name(), fs.synopsis)
			fs.SetOutput(fs.stdout)
			fs.PrintDefaults()
			return err
		}
		return usageError{firstLine(err.Error())}
	}
	return nil
}

// given reports whether the flag name was set on the command line.
func (fs *flagSet) given(name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
