// Command client runs the cmdproto SDK (package sdk) against its own
// server (package server) on a loopback port, under one fault, and exits
// 0 only on the outcome that fault should give, within -deadline (20 s):
//
//	go run ./cmdproto/client            # healthy: CONNECTED, an event echoed, a clean close
//	go run ./cmdproto/client -drop      # the server evicts the session (4100): an immediate reconnect, the echo again
//	go run ./cmdproto/client -stall     # the server goes silent (no pings, no maxIdleInterval): the idle limit drops it, the client closes with 4008, it reconnects
//	go run ./cmdproto/client -refuse    # handshakes answered 503 for -refuse-for: Connect returns the first failure, backoff until accepted
//	go run ./cmdproto/client -restart   # the server goes away for -down and comes back: the retries find it
//
// It prints the time to the first CONNECTED and to the recovery.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/examples/cmdproto/protocol"
	"github.com/reconnect-go/reconnect/examples/cmdproto/sdk"
	"github.com/reconnect-go/reconnect/examples/cmdproto/server"
	"github.com/reconnect-go/reconnect/runner"
)

type flags struct {
	drop, stall, refuse, restart bool
	refuseFor, down, idle        time.Duration
}

func main() {
	var f flags
	flag.BoolVar(&f.drop, "drop", false, "the server evicts the session once an event came through: expect a reconnect at once")
	flag.BoolVar(&f.stall, "stall", false, "the server goes silent after the first session's ok reply: expect the idle limit to drop it")
	flag.BoolVar(&f.refuse, "refuse", false, "the server refuses handshakes (503) for -refuse-for, then accepts")
	flag.BoolVar(&f.restart, "restart", false, "the server goes away for -down once an event came through, then comes back")
	flag.DurationVar(&f.refuseFor, "refuse-for", 3*time.Second, "how long -refuse refuses")
	flag.DurationVar(&f.down, "down", 3*time.Second, "how long -restart keeps the server away")
	flag.DurationVar(&f.idle, "idle-limit", 3*time.Second, "the SDK's client-side idle limit (the server pings every second)")
	deadline := flag.Duration("deadline", 20*time.Second, "give up, and exit 1, after this long")
	verbose := flag.Bool("v", false, "log the transport notices too")
	flag.Parse()
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	lg := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, cancel := context.WithTimeout(context.Background(), *deadline)
	defer cancel()
	if err := run(ctx, f, lg); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
}

// changes is the state changes, for the run to wait on.
type changes chan runner.StateChange

// await waits for the first change to want, and returns it.
func (ch changes) await(ctx context.Context, want engine.State) (runner.StateChange, error) {
	for {
		select {
		case c := <-ch:
			if c.To == want && !c.Update {
				return c, nil
			}
		case <-ctx.Done():
			return runner.StateChange{}, fmt.Errorf("no %v before the deadline", want)
		}
	}
}

func run(ctx context.Context, f flags, lg *slog.Logger) error {
	srv := &server.Server{PingInterval: time.Second, Token: "t1"}
	if err := srv.Start(); err != nil {
		return err
	}
	defer srv.Stop()
	srv.Refuse.Store(f.refuse)
	srv.StallNext.Store(f.stall)

	events := make(chan string, 16)
	ch := make(changes, 64)
	c, err := sdk.New(sdk.Options{
		Endpoints: []string{srv.Addr()}, Token: "t1", IdleLimit: f.idle, Logger: lg,
		OnMessage:     func(d string) { events <- d },
		OnStateChange: func(s runner.StateChange) { ch <- s },
	})
	if err != nil {
		return err
	}
	start := time.Now()
	if f.refuse {
		time.AfterFunc(f.refuseFor, func() { srv.Refuse.Store(false) })
	}
	err = c.Connect(ctx)
	var ce *runner.ConnectError
	switch {
	case f.refuse && errors.As(err, &ce) && ce.Failure.Kind == reconnect.FailureHTTPStatus && ce.Failure.Status == 503:
		fmt.Printf("refuse: Connect returned the first attempt's failure: %v\n", err)
		if _, err := ch.await(ctx, engine.Connected); err != nil {
			return err
		}
		refused := srv.Refused()
		fmt.Printf("refuse: CONNECTED after %v, %d handshakes refused in %v (capped exponential backoff, full jitter)\n",
			since(start), refused, f.refuseFor)
		if refused > 15 {
			return fmt.Errorf("%d handshakes refused in %v: the backoff did not back off", refused, f.refuseFor)
		}
	case f.refuse:
		return fmt.Errorf("connect under -refuse: %v, want a *runner.ConnectError with http-status:503", err)
	case err != nil:
		return fmt.Errorf("connect: %w", err)
	default:
		fmt.Printf("CONNECTED to %s in %v\n", srv.Addr(), since(start))
	}
	connectedAt := time.Now()
	if !f.stall { // a stalled session echoes nothing
		if err := echo(ctx, c, events, "first"); err != nil {
			return err
		}
	}

	switch {
	case f.drop:
		srv.DropAll()
		if err := recovered(ctx, ch, c, events, "drop", func(d runner.StateChange) error {
			var se *sdk.CloseError
			if !errors.As(d.Failure, &se) || se.Code != protocol.CloseEvicted || d.Failure.Code != protocol.CloseEvicted {
				return fmt.Errorf("the drop's failure is %v, want the server's close %d as an *sdk.CloseError", d.Failure.Error(), protocol.CloseEvicted)
			}
			return nil
		}); err != nil {
			return err
		}
	case f.stall:
		if err := recoveredFrom(ctx, connectedAt, ch, c, events, "stall", func(d runner.StateChange) error {
			if d.Failure.Kind != reconnect.FailureTimeout {
				return fmt.Errorf("the stall's failure is %v, want timeout (the idle limit)", d.Failure.Error())
			}
			if !srv.WaitClose(ctx, protocol.ClosePingTimeout) {
				return fmt.Errorf("the server never saw close status %d (ping timeout)", protocol.ClosePingTimeout)
			}
			fmt.Printf("stall: the client closed the stalled session with %d (ping timeout)\n", protocol.ClosePingTimeout)
			return nil
		}); err != nil {
			return err
		}
	case f.restart:
		srv.Restart(f.down)
		if err := recovered(ctx, ch, c, events, "restart", func(runner.StateChange) error { return nil }); err != nil {
			return err
		}
	}
	if err := c.Close(ctx); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	fmt.Printf("ok: closed cleanly, %v in all\n", since(start))
	return nil
}

// recovered waits for the drop (DISCONNECTED), checks it, then waits for
// CONNECTED again and an echo on the new session.
func recovered(ctx context.Context, ch changes, c *sdk.Client, events chan string, what string, check func(runner.StateChange) error) error {
	return recoveredFrom(ctx, time.Now(), ch, c, events, what, check)
}

// recoveredFrom is recovered with the times counted from from.
func recoveredFrom(ctx context.Context, from time.Time, ch changes, c *sdk.Client, events chan string, what string, check func(runner.StateChange) error) error {
	d, err := ch.await(ctx, engine.Disconnected)
	if err != nil {
		return err
	}
	if err := check(d); err != nil {
		return err
	}
	fmt.Printf("%s: DISCONNECTED %v after the fault began (%s), retry in %v\n", what, since(from), d.Failure.Error(), d.RetryIn.Round(time.Millisecond))
	if _, err := ch.await(ctx, engine.Connected); err != nil {
		return err
	}
	fmt.Printf("%s: CONNECTED again %v after the fault began\n", what, since(from))
	return echo(ctx, c, events, "after "+what)
}

// echo publishes one event and waits for its echo.
func echo(ctx context.Context, c *sdk.Client, events chan string, label string) error {
	if err := c.Publish(label); err != nil {
		return fmt.Errorf("publish %q: %w", label, err)
	}
	for {
		select {
		case d := <-events:
			if d == label {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("no echo of %q before the deadline", label)
		}
	}
}

func since(t time.Time) time.Duration { return time.Since(t).Round(time.Millisecond) }
