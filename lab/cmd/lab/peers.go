package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/lab/peers"
)

// errUnexpected makes the command exit non-zero when -check finds a kind
// that did not reach its expected outcome.
var errUnexpected = errors.New("a client kind did not reach its expected outcome")

// errBehind makes the command exit with status 3 when -require-ahead
// finds a fault on which ours at defaults is behind the best peer (and
// every kind reached its expected outcome, else errUnexpected, status 1).
var errBehind = errors.New("ours at defaults are behind the best peer on a fault")

// peersCmd runs the field's clients beside ours, fault by fault, and
// prints a table per fault.
func peersCmd(args []string, out io.Writer) error {
	fs := newFlags("lab peers", "usage: lab peers [flags]   (the Node packages: `npm ci` in lab/peers/node first)", out)
	clients := fs.Int("clients", 20, "clients of each kind under each fault, 1 to 1000")
	faults := fs.String("faults", "all", "comma-separated faults: all, or any of healthy, websocket-refused, websocket-blackholed, slow, primary-down, drop, stall, restart")
	kinds := fs.String("kinds", "all", "comma-separated kinds: all, or any of socketio-polling, socketio-websocket, centrifuge, ours-2s, ours-short, ours-centrifuge, ours-defaults")
	nodeDir := fs.String("node-dir", "peers/node", "the Node programs' directory, with their packages installed (npm ci)")
	shortCircuit := fs.Duration("short-circuit", 250*time.Millisecond, "ours-short's short circuit (docs/short-circuit.md's band is 250 ms to 500 ms)")
	window := fs.Duration("window", 30*time.Second, "how long a client has to get its first message (from its start, or from a fault after connected)")
	stallWindow := fs.Duration("stall-window", 60*time.Second, "the same after a stall")
	downtime := fs.Duration("downtime", 5*time.Second, "how long a restarting server refuses every connection")
	settle := fs.Duration("settle", 2*time.Second, "how long a cell goes on after every client has its message")
	pingInterval := fs.Duration("ping-interval", 0, "the servers' heartbeat interval (0: each library's default, 25 s)")
	pingTimeout := fs.Duration("ping-timeout", 0, "socket.io's pingTimeout, centrifuge's pong timeout, its JS client's maxServerPingDelay and ours' idle slack (0: the defaults; ours the spec's 10 s)")
	parallel := fs.Int("parallel", 1, "cells (a kind under a fault) run at once; 1 gives each the machine to itself")
	short := fs.Bool("short", false, "CI's short run: 3 clients, a 20 s window (stall 20 s), the full run's 5 s downtime, 2 s heartbeats answered within 1 s (ours' idle slack 1 s too), slow at σ 0.25, 8 cells at once (unless -parallel is given)")
	check := fs.Bool("check", false, "fail unless every kind reaches its expected outcome under every fault (peers.Expected)")
	requireAhead := fs.Bool("require-ahead", false, "fail unless ours at defaults (ours-defaults) are ahead or level with the best peer on every fault (the ranking's last line reads K of N with K = N)")
	seed := fs.Uint64("seed", 1, "seed of the proxies' latency draws")
	verbose := fs.Bool("v", false, "print progress to stderr")
	jsonOut := fs.String("json", "", "also save the whole run to this file (read it back with -from)")
	from := fs.String("from", "", "do not run: read a run saved with -json and print its tables (and charts, with -svg); several comma-separated runs of other kinds are merged")
	svgDir := fs.String("svg", "", "write the charts, peers-first-message.svg and peers-restart.svg, into this directory")
	events := fs.String("events", "", "also write every client's events to this file (tab-separated: fault, kind, seconds from the start or the fault, client, event, transport, detail)")
	if err := parse(fs, args); err != nil {
		return err
	}
	o := peers.Options{Clients: *clients, NodeDir: *nodeDir, ShortCircuit: *shortCircuit, Window: *window,
		StallWindow: *stallWindow, Downtime: *downtime, Settle: *settle, Parallel: *parallel, Seed: *seed,
		Heartbeat: peers.Heartbeat{Interval: *pingInterval, Timeout: *pingTimeout}}
	if *short {
		o = peers.ShortOptions(o)
		// An explicit -parallel still holds: on a busy machine every cell at
		// once is more than it can schedule.
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "parallel" {
				o.Parallel = *parallel
			}
		})
	}
	var err error
	if o.Faults, err = peers.ParseFaults(*faults); err != nil {
		return err
	}
	if o.Kinds, err = peers.ParseKinds(*kinds); err != nil {
		return err
	}
	if *verbose {
		start := time.Now()
		o.Progress = func(s string) { fmt.Fprintf(os.Stderr, "%7.1fs  %s\n", time.Since(start).Seconds(), s) }
	}
	var rep *peers.Report
	if *from != "" {
		rep, err = readReport(*from)
	} else {
		rep, err = peers.Run(o)
	}
	if err != nil {
		return err
	}
	if *jsonOut != "" {
		if err := writeFile(*jsonOut, rep.WriteJSON); err != nil {
			return err
		}
	}
	if *svgDir != "" {
		if err := writeFile(filepath.Join(*svgDir, "peers-first-message.svg"), rep.WriteFirstMessageSVG); err != nil {
			return err
		}
		if slices.Contains(rep.Options.Faults, peers.Restart) {
			if err := writeFile(filepath.Join(*svgDir, "peers-restart.svg"), rep.WriteRestartSVG); err != nil {
				return err
			}
		}
	}
	if *events != "" {
		if err := writeFile(*events, func(w io.Writer) error { rep.WriteEvents(w); return nil }); err != nil {
			return err
		}
	}
	rep.WriteHeader(out)
	rep.WriteTables(out)
	checks, err := rep.ModelChecks()
	if err != nil {
		return err
	}
	if len(checks) > 0 {
		fmt.Fprint(out, "\n### the simulator's models beside the real clients\n\n")
		peers.WriteModels(out, checks)
	}
	var bad []string
	if *check {
		bad = rep.Check()
		fmt.Fprintln(out)
		for _, b := range bad {
			fmt.Fprintln(out, "unexpected:", b)
		}
		if len(bad) == 0 {
			fmt.Fprintf(out, "every kind reached its expected outcome under every fault (%d cells)\n", len(rep.Cells))
		}
	}
	// The ranking comes last, whatever failed: its line is the output's
	// last line.
	ranking := rep.Ranking()
	peers.WriteRanking(out, ranking)
	if len(bad) > 0 {
		return errUnexpected
	}
	if *requireAhead {
		for _, v := range ranking {
			if !v.Ahead {
				return errBehind
			}
		}
	}
	return nil
}

// writeFile creates path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readReport reads runs saved with -json (comma-separated paths) and
// merges them.
func readReport(paths string) (*peers.Report, error) {
	var rep *peers.Report
	for _, path := range strings.Split(paths, ",") {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		r, err := peers.ReadReport(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if rep == nil {
			rep = r
		} else if err := rep.Merge(r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return rep, nil
}
