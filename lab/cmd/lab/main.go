// Command lab runs runner-driven clients against the lab's loopback
// server with a fault applied, and prints their timeline.
//
//	go run ./cmd/lab -fault NAME -clients N     the demo
//	go run ./cmd/lab compare [flags]            the simulator against the lab
//	go run ./cmd/lab storm [flags]              a server restart under load
//	go run ./cmd/lab soak [flags]               a chaos soak with live invariants
//	go run ./cmd/lab peers [flags]              the field's clients beside ours, fault by fault
//
// Every byte goes to 127.0.0.1. Run `go run ./cmd/lab -h` for the flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/lab"
	"github.com/reconnect-go/reconnect/runner"
)

func main() {
	args := os.Args[1:]
	run := demo
	if len(args) > 0 {
		switch args[0] {
		case "compare":
			run, args = compare, args[1:]
		case "storm":
			run, args = storm, args[1:]
		case "soak":
			run, args = soak, args[1:]
		case "peers":
			run, args = peersCmd, args[1:]
		}
	}
	if err := run(args, os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "lab:", err)
		switch {
		case errors.Is(err, errViolations) || errors.Is(err, errUnexpected):
			os.Exit(1)
		case errors.Is(err, errBehind):
			os.Exit(3) // every kind did as expected; only the ranking fell short
		}
		os.Exit(2)
	}
}

// demo is the default command: one fault, N clients, a live timeline and
// the one-line summary. It returns nil when the run completed, whatever
// the fault did to the clients.
func demo(args []string, out io.Writer) error {
	fs := newFlags("lab", usage, out)
	fault := fs.String("fault", "none", "the fault: "+strings.Join(lab.FaultNames(), ", "))
	clients := fs.Int("clients", 10, "runner-driven clients, 1 to 20000")
	status := fs.Int("status", 403, "the status reject-websocket answers (400 to 599)")
	after := fs.Bool("after-connected", false, "kill-websocket kills right after CONNECTED instead of before")
	latency := fs.Float64("latency", 0, "every connection's latency, median in milliseconds (0: none)")
	sigma := fs.Float64("latency-sigma", 0, "the latency's log-normal sigma (0: always the median)")
	shortCircuit := fs.Duration("short-circuit", reconnect.DefaultShortCircuit, "the websocket's head start before HTTP")
	adaptiveK := fs.Float64("adaptive-multiple", 0, "the adaptive short circuit's multiple of the websocket's dial round trip (0: off; engine.Defaults() uses 3)")
	adaptiveFloor := fs.Duration("adaptive-floor", engine.DefaultAdaptiveFloor, "the adaptive short circuit's floor")
	horizon := fs.Duration("horizon", 20*time.Second, "stop waiting for a client to connect after this long")
	linger := fs.Duration("linger", 0, "keep the clients running this long after the last one connected")
	spread := fs.Duration("spread", 0, "spread the connect requests over this long")
	maxIdle := fs.Duration("max-idle", 500*time.Millisecond, "the maxIdleInterval the server sends in CONNECTED (0: none, no idle timer)")
	requestTimeout := fs.Duration("realtime-request-timeout", engine.AblyConfig().Timeouts.RealtimeRequest, "the clients' realtimeRequestTimeout (the idle limit is max-idle plus this)")
	seed := fs.Uint64("seed", 1, "seed of the server's fault and latency draws")
	quiet := fs.Bool("quiet", false, "print only the summary")
	wire := fs.Bool("wire", false, "also print what the server sees on each connection (request, rejected, viable, connected, closed, …)")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case *clients < 1 || *clients > 20000:
		return fmt.Errorf("-clients %d: want 1 to 20000", *clients)
	case *status < 400 || *status > 599:
		return fmt.Errorf("-status %d: want 400 to 599", *status)
	case !(*latency >= 0 && *latency < 1e6) || !(*sigma >= 0 && *sigma <= 10):
		return fmt.Errorf("-latency %v -latency-sigma %v: want 0 ≤ latency < 1e6 ms and 0 ≤ sigma ≤ 10", *latency, *sigma)
	case *shortCircuit <= 0 || *horizon <= 0 || *linger < 0 || *spread < 0:
		return errors.New("-short-circuit and -horizon must be positive, -linger and -spread not negative")
	case *maxIdle < 0 || *maxIdle > time.Hour || *requestTimeout <= 0 || *requestTimeout > time.Hour:
		return fmt.Errorf("-max-idle %v -realtime-request-timeout %v: want 0 ≤ max-idle ≤ 1h and 0 < realtime-request-timeout ≤ 1h", *maxIdle, *requestTimeout)
	case *fault == "stall" && *maxIdle < time.Millisecond:
		return errors.New("-fault stall needs -max-idle of 1ms or more: without a maxIdleInterval nothing notices a stall")
	}
	pf, err := lab.NamedFault(*fault, lab.FaultParams{Status: *status, AfterConnected: *after,
		Latency: lab.Dist{MedianMs: *latency, Sigma: *sigma}})
	if err != nil {
		return err
	}
	tl := &timeline{out: out, quiet: *quiet}
	opts := lab.Options{Seed: *seed, MaxIdleInterval: *maxIdle}
	if *wire && !*quiet {
		opts.OnEvent = tl.wire
	}
	s, err := lab.NewServer(opts)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := pf.Apply(s); err != nil {
		return err
	}
	cfg := engine.AblyConfig()
	cfg.ShortCircuit = *shortCircuit
	cfg.Adaptive = engine.AdaptiveShortCircuit{Multiple: *adaptiveK, Floor: *adaptiveFloor}
	if err := cfg.Adaptive.Validate(); err != nil {
		return fmt.Errorf("-adaptive-multiple %v -adaptive-floor %v: %v", *adaptiveK, *adaptiveFloor, err)
	}
	cfg.Timeouts.RealtimeRequest = *requestTimeout
	limit := *maxIdle + *requestTimeout
	adaptive := "off"
	if cfg.Adaptive.On() {
		adaptive = fmt.Sprintf("%g × dial round trip, floor %v", cfg.Adaptive.Multiple, cfg.Adaptive.Floor)
	}
	fmt.Fprintf(out, "lab: fault %s, %d clients, short circuit %v (adaptive: %s); primary %s, fallbacks %s (all 127.0.0.1)\n",
		*fault, *clients, *shortCircuit, adaptive, s.Primary(), strings.Join(s.Fallbacks(), " "))
	if *maxIdle > 0 {
		fmt.Fprintf(out, "lab: CONNECTED says maxIdleInterval %v; realtimeRequestTimeout %v: a silent connection is dropped %v to %v after its last message\n",
			*maxIdle, *requestTimeout, limit, limit+runner.IdleSamplePeriod(limit))
	}
	f, err := lab.StartFleet(context.Background(), s, lab.FleetOptions{Clients: *clients, Config: cfg, Spread: *spread, OnChange: tl.change})
	if err != nil {
		return err
	}
	tl.setStart(f.Started())
	res := f.WaitConnected(*horizon)
	stalled := *fault == "stall"
	if stalled {
		// Every first connection is stalled; the reconnections are not.
		healthy := pf
		healthy.Primary.Stall, healthy.Fallback.Stall = false, false
		if err := healthy.Apply(s); err != nil {
			f.Stop()
			return err
		}
		res = f.WaitReconnected(limit + runner.IdleSamplePeriod(limit) + *horizon)
	}
	if *linger > 0 {
		time.Sleep(*linger)
	}
	f.Stop()
	s.Close() // no server event after the summary
	tl.mu.Lock()
	defer tl.mu.Unlock()
	fmt.Fprintln(out, lab.Summarize(res, *horizon))
	if stalled {
		fmt.Fprintln(out, lab.SummarizeStall(res, limit, runner.IdleSamplePeriod(limit)))
	}
	return nil
}

// timeline prints state changes as they happen.
type timeline struct {
	out   io.Writer
	quiet bool
	mu    sync.Mutex
	start time.Time
	early []func()
}

func (t *timeline) setStart(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.start = at
	for _, f := range t.early {
		f()
	}
	t.early = nil
}

func (t *timeline) change(i int, c runner.StateChange) {
	if t.quiet || c.Stopped {
		return // the runners' own CLOSED as the demo stops them: not part of the timeline
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	print := func() { fmt.Fprintln(t.out, formatChange(c.At.Sub(t.start), i, c)) }
	if t.start.IsZero() {
		t.early = append(t.early, print)
		return
	}
	print()
}

// wire prints one server event.
func (t *timeline) wire(e lab.ServerEvent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	print := func() {
		fmt.Fprintf(t.out, "%9.3fs  server      %-9s %-4s %-10s %s %s\n", e.At.Sub(t.start).Seconds(), e.Transport, e.Conn, e.What, e.Host, e.Mode)
	}
	if t.start.IsZero() {
		t.early = append(t.early, print)
		return
	}
	print()
}

// formatChange is one timeline line: time, client, state change, and the
// transport and host, or the retry and the reason.
func formatChange(at time.Duration, i int, c runner.StateChange) string {
	line := fmt.Sprintf("%9.3fs  client %-4d %-12s → %-12s", at.Seconds(), i+1, c.From, c.To)
	var detail []string
	if c.To == engine.Connected {
		detail = append(detail, c.TransportKind.String(), c.Host)
	} else if c.Reason != engine.ReasonNone {
		detail = append(detail, c.Reason.String())
	}
	if c.Failure.Kind != reconnect.FailureNone {
		detail = append(detail, c.Failure.String())
	}
	if c.RetryIn > 0 {
		detail = append(detail, "retry in "+c.RetryIn.Round(time.Millisecond).String())
	}
	return strings.TrimRight(line+"  "+strings.Join(slices.DeleteFunc(detail, func(s string) bool { return s == "" }), "  "), " ")
}
