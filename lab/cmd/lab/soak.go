package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

// errViolations makes the command exit non-zero.
var errViolations = errors.New("invariant violations")

// soak runs the chaos soak and prints its one-line summary; it fails when
// any invariant was violated.
func soak(args []string, out io.Writer) error {
	fs := newFlags("lab soak", "usage: lab soak [flags]", out)
	clients := fs.Int("clients", 200, "runner-driven clients, 1 to 20000")
	duration := fs.Duration("duration", 60*time.Second, "the soak's length")
	seed := fs.Uint64("seed", 1, "seed of the fault schedule and the server's draws")
	verbose := fs.Bool("v", false, "print each phase and fault switch to stderr")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *clients < 1 || *clients > 20000 || *duration <= 0 || *duration > 24*time.Hour {
		return errors.New("want 1 ≤ -clients ≤ 20000 and 0 < -duration ≤ 24h")
	}
	cfg := lab.SoakConfig()
	t := cfg.Timeouts
	fmt.Fprintf(out, "lab soak: %d clients for %v, seed %d; timeouts: short circuit %v, realtimeRequestTimeout %v, httpRequestTimeout %v, "+
		"disconnectedRetryTimeout %v, suspendedRetryTimeout %v, connectionStateTtl %v\n",
		*clients, *duration, *seed, cfg.ShortCircuit, t.RealtimeRequest, t.HTTPRequest, t.DisconnectedRetry, t.SuspendedRetry, t.ConnectionStateTTL)
	fmt.Fprintf(out, "lab soak: bound to CONNECTED after the faults clear %v = max(realtimeRequestTimeout + httpRequestTimeout, drop 1s) "+
		"+ 2 × disconnectedRetryTimeout + suspendedRetryTimeout + short circuit + 2s scheduling slack; quiet periods %v\n",
		lab.SoakBound(cfg), lab.SoakQuiet(cfg))
	o := lab.SoakOptions{Clients: *clients, Duration: *duration, Seed: *seed, Config: cfg}
	if *verbose {
		o.Progress = func(s string) { fmt.Fprintln(os.Stderr, s) }
	}
	res, err := lab.RunSoak(context.Background(), o)
	if err != nil {
		return err
	}
	for _, d := range res.Details {
		fmt.Fprintln(out, "violation:", d)
	}
	fmt.Fprintln(out, res)
	if res.Violated() > 0 {
		return errViolations
	}
	return nil
}
