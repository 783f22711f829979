// Command reconnect prints RTB1 retry schedules and, as the package grows,
// simulates and checks reconnection behaviour.
//
// Usage:
//
//	reconnect schedule [--initial 15s] [--attempts 8] [--seed N] [--json]
//	reconnect simulate timeout [--clients N] [--timeouts …] [--profiles …] [--svg F] [--json]
//	reconnect simulate storm [--clients N] [--downtime D] [--capacity K] [--svg F] [--json]
//	reconnect conform [--only AREA,…] [--require AREA,…] [--format text|json|junit] [--known FILE] (--self | -- CMD ARGS…)
//	reconnect explain (SCENARIO-ID | --file LOG)
//	reconnect help [CMD [SUB]]
//
// Run "reconnect help" for the list of commands, and "reconnect help CMD"
// (or "reconnect CMD -h") for one command's flags. Bad flags or arguments
// print one line on stderr, naming the flag, the bad value and what is
// expected, and exit with status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
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
		{"explain", "print a scenario or a recorded event log as a timeline annotated with the engine's rows", runExplain},
	}
}

// usageError is a mistake in how the command was called: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help" || arg == "help"
}

// printUsage prints the list of commands.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: reconnect <command> [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'reconnect help <command>' or 'reconnect <command> -h' for a command's flags.")
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		printUsage(stderr)
		return 2
	case isHelp(args[0]) && len(args) == 1:
		printUsage(stdout)
		return 0
	case isHelp(args[0]):
		// "help CMD [SUB…]" is "CMD [SUB…] -h".
		if strings.HasPrefix(args[1], "-") {
			fmt.Fprintf(stderr, "reconnect: help %s: want a command name (run 'reconnect help')\n", args[1])
			return 2
		}
		args = append(slices.Clip(args[1:]), "-h")
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
	fmt.Fprintf(stderr, "reconnect: unknown command %q: want one of %s (run 'reconnect help')\n", args[0], commandNames())
	return 2
}

// commandNames lists the commands, comma-separated.
func commandNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
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
		return usageError{fs.explain(firstLine(err.Error()))}
	}
	return nil
}

// explain rewrites the flag package's messages so that each names the flag,
// the bad value and what is expected.
func (fs *flagSet) explain(msg string) string {
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return fmt.Sprintf("unknown flag --%s (run 'reconnect %s -h' for the flags)", strings.TrimLeft(name, "-"), fs.Name())
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		name = strings.TrimLeft(name, "-")
		return fmt.Sprintf("--%s needs a value: %s", name, fs.expected(name))
	}
	// "invalid value "V" for flag -N: …", or for a bool
	// "invalid boolean value "V" for -N: …".
	var value, name string
	rest, ok := strings.CutPrefix(msg, "invalid value ")
	if !ok {
		rest, ok = strings.CutPrefix(msg, "invalid boolean value ")
	}
	if v, after, quoted := cutQuoted(rest); ok && quoted {
		after = strings.TrimPrefix(strings.TrimPrefix(after, " for flag "), " for ")
		if n, _, found := strings.Cut(strings.TrimLeft(after, "-"), ":"); found {
			value, name = v, n
		}
	}
	if name == "" {
		return msg
	}
	if strings.HasSuffix(msg, ": value out of range") {
		return fmt.Sprintf("--%s %q: out of range; want %s", name, value, fs.expected(name))
	}
	return fmt.Sprintf("--%s %q: want %s", name, value, fs.expected(name))
}

// expected says what flag name takes, from the type of its value.
func (fs *flagSet) expected(name string) string {
	f := fs.Lookup(name)
	if f == nil {
		return "a value"
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "a value as the flag's help says"
	}
	switch g.Get().(type) {
	case time.Duration:
		return "a duration with a unit, such as 15s, 2500ms or 1m30s"
	case int, int64:
		return "a whole number"
	case uint, uint64:
		return "a whole number ≥ 0"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	}
	return "a value as the flag's help says"
}

// cutQuoted splits a Go-quoted string off the front of s and unquotes it.
func cutQuoted(s string) (value, rest string, ok bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, false
	}
	v, err := strconv.Unquote(q)
	return v, s[len(q):], err == nil
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
