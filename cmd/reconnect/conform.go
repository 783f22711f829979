package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect/fixtures"
	"github.com/reconnect-go/reconnect/internal/conform"
)

// errFailed makes the command exit with status 1 after printing its report.
type errFailed struct{ summary string }

func (e errFailed) Error() string { return e.summary }

func runConform(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("conform", "[--only AREA,…] [--timeout D] [--json] [--fixtures DIR] (--self | -- CMD ARGS…)", stdout)
	only := fs.String("only", "", "areas to run, comma-separated: rtb1, transport, hosts, scenarios (default all)")
	timeout := fs.Duration("timeout", 5*time.Second, "how long to wait for each answer")
	self := fs.Bool("self", false, "run the Go implementation through the protocol, in-process")
	asJSON := fs.Bool("json", false, "write a JSON report instead of text")
	dir := fs.String("fixtures", "", "read the fixtures from this directory instead of the built-in copy")
	if err := fs.parseFlags(args); err != nil {
		return err
	}
	argv := fs.Args()
	switch {
	case *self && len(argv) > 0:
		return usagef("give either --self or an adapter command, not both")
	case !*self && len(argv) == 0:
		return usagef("give an adapter command after --, or --self")
	case *timeout <= 0 || *timeout > 10*time.Minute:
		return usagef("--timeout must be positive and at most 10m, got %v", *timeout)
	}
	opt := conform.Options{Timeout: *timeout}
	for _, a := range splitList(*only) {
		if !slices.Contains(conform.Areas, a) {
			return usagef("--only: unknown area %q (rtb1, transport, hosts, scenarios)", a)
		}
		opt.Only = append(opt.Only, a)
	}
	fsys := fixtures.FS
	var suite conform.Suite
	var err error
	if *dir != "" {
		suite, err = conform.LoadSuite(os.DirFS(*dir))
	} else {
		suite, err = conform.LoadSuite(fsys)
	}
	if err != nil {
		return usagef("fixtures: %v", err)
	}
	var rep conform.Report
	if *self {
		rep = conform.RunSelf(suite, opt)
	} else if rep, err = conform.RunCommand(suite, argv, opt); err != nil {
		return usagef("%v", err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		if rep.Adapter != "" {
			fmt.Fprintf(stdout, "adapter: %s\n", rep.Adapter)
		}
		rep.WriteText(stdout)
	}
	if rep.Failed > 0 || rep.Broken != "" {
		return errFailed{rep.Summary()}
	}
	return nil
}
