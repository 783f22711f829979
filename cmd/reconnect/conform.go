package main

import (
	"context"
	"errors"
	"io"
	iofs "io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/reconnect-go/reconnect/fixtures"
	"github.com/reconnect-go/reconnect/internal/conform"
)

// errFailed makes the command exit with the given status after printing
// its report.
type errFailed struct {
	summary string
	status  int
}

func (e errFailed) Error() string { return e.summary }

// exitStatus is the status to exit with: 1 unless set.
func (e errFailed) exitStatus() int { return max(e.status, 1) }

const conformSynopsis = "[--only AREA,…] [--require AREA,…] [--startup D] [--timeout D] [--deadline D] [--format text|json|junit] [--fixtures DIR] [--known FILE] [--max-failures N] (--self | -- CMD ARGS…)\n\n" +
	"exit status: 0 every selected case passed; 1 a case failed, nothing ran, a required\n" +
	"area is missing or the run was stopped; 2 usage, fixture or adapter protocol error\n\n" +
	"The protocol (JSON lines on the adapter's stdin and stdout: a hello, then one\n" +
	"request per case) is in fixtures/README.md, section \"Conformance protocol\".\n" +
	"A complete adapter: conformance/js/adapter.mjs. A minimal one, in Python, that\n" +
	"answers RTB1's backoffCoefficient and rejects every other case\n" +
	"(reconnect conform --only rtb1 -- python3 minimal.py):\n\n" +
	minimalAdapter

// minimalAdapter is the minimal adapter the help shows (indented by two
// spaces); its test runs it under the harness.
const minimalAdapter = `  import json, sys
  for line in sys.stdin:
      req = json.loads(line)
      if req.get("type") == "hello":
          out = {"type": "hello", "protocol": 1, "implements": ["rtb1"], "name": "minimal"}
      elif req["function"] == "backoffCoefficient":
          n = max(req["input"]["attempt"], 1)
          out = {"id": req["id"], "result": {"coefficient": min((n + 2) / 3, 2)}}
      else:
          out = {"id": req["id"], "error": {"message": "not implemented"}}
      print(json.dumps(out), flush=True)`

func runConform(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("conform", conformSynopsis, stdout)
	only := fs.String("only", "", "areas to run, comma-separated: "+strings.Join(conform.Areas, ", ")+" (default every area the adapter implements)")
	require := fs.String("require", "", "areas the adapter must implement, comma-separated")
	startup := fs.Duration("startup", 60*time.Second, "how long to wait for the adapter's hello answer")
	timeout := fs.Duration("timeout", 10*time.Second, "how long to wait for each answer")
	deadline := fs.Duration("deadline", 30*time.Minute, "how long the whole run may take")
	self := fs.Bool("self", false, "run the Go implementation through the protocol, in-process")
	format := fs.String("format", "text", "report format: text, json or junit")
	asJSON := fs.Bool("json", false, "the same as --format json")
	dir := fs.String("fixtures", "", "read the fixtures from this directory instead of the built-in copy")
	known := fs.String("known", "", "a JSON list of known differences: cases reported as known, and an error if one passes")
	maxFailures := fs.Int("max-failures", 0, "stop after this many failed cases (known differences not counted) and report what ran; 0 means never")
	dashes := slices.Index(args, "--")
	if err := fs.parseFlags(args); err != nil {
		return err
	}
	argv := fs.Args()
	switch {
	case *self && len(argv) > 0:
		return usagef("give either --self or an adapter command after --, not both")
	case !*self && len(argv) == 0:
		return usagef("give an adapter command after --, or --self")
	case len(argv) > 0 && (dashes < 0 || len(args)-dashes-1 != len(argv)):
		return usagef("the adapter command %q must follow --, e.g. conform -- %s", argv[0], strings.Join(argv, " "))
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--startup", *startup}, {"--timeout", *timeout}, {"--deadline", *deadline}} {
		if d.v <= 0 || d.v > 24*time.Hour {
			return usagef("%s %v: want a duration above 0 and at most 24h, e.g. 30s", d.name, d.v)
		}
	}
	if *maxFailures < 0 {
		return usagef("--max-failures %d: want 0 (never stop early) or more", *maxFailures)
	}
	if *asJSON {
		*format = "json"
	}
	if !slices.Contains([]string{"text", "json", "junit"}, *format) {
		return usagef("--format %q: want text, json or junit", *format)
	}
	opt := conform.Options{Startup: *startup, Timeout: *timeout, Deadline: *deadline, MaxFailures: *maxFailures}
	for _, l := range []struct {
		flag string
		list string
		dst  *[]string
	}{{"--only", *only, &opt.Only}, {"--require", *require, &opt.Require}} {
		for _, a := range splitList(l.list) {
			if !slices.Contains(conform.Areas, a) {
				return usagef("%s %q: unknown area; want some of %s", l.flag, a, strings.Join(conform.Areas, ", "))
			}
			*l.dst = append(*l.dst, a)
		}
	}
	var suite conform.Suite
	var err error
	if *dir != "" {
		if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
			return usagef("--fixtures %s: not a folder", *dir)
		}
		suite, err = conform.LoadSuite(os.DirFS(*dir))
	} else {
		suite, err = conform.LoadSuite(fixtures.FS)
	}
	var missing *iofs.PathError
	switch {
	case err != nil && *dir != "" && errors.As(err, &missing):
		return usagef("--fixtures %s: %s: %v (the folder needs every area's file: %s)", *dir,
			filepath.Join(*dir, missing.Path), missing.Err, strings.Join(conform.AreaFiles(), ", "))
	case err != nil && *dir != "":
		return usagef("--fixtures %s: %v", *dir, err)
	case err != nil:
		return usagef("--fixtures: %v", err)
	}
	if *known != "" {
		data, err := os.ReadFile(*known)
		if err != nil {
			return usagef("--known: %v", err)
		}
		k, err := conform.ParseKnown(data)
		if err != nil {
			return usagef("--known %s: %v", *known, err)
		}
		opt.Known = &k
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var rep conform.Report
	if *self {
		rep = conform.RunSelf(ctx, suite, opt)
	} else if rep, err = conform.RunCommand(ctx, suite, argv, opt); err != nil {
		return usagef("%v", err)
	}
	switch *format {
	case "json":
		err = rep.WriteJSON(stdout)
	case "junit":
		err = rep.WriteJUnit(stdout)
	default:
		rep.WriteText(stdout)
	}
	if err != nil {
		return err
	}
	if code := rep.ExitCode(); code != conform.ExitPass {
		return errFailed{rep.Summary(), code}
	}
	return nil
}
