// Command client runs the example SDK (package sdk) against its own
// server (package server), both on loopback, under one fault, and exits 0
// only when the connection reached the outcome that fault should give:
// CONNECTED over the expected transport to the expected host, a message
// published and delivered back on it, and, after a drop, the same again on
// a new connection; then a clean close. Anything else, or the deadline,
// exits 1.
//
//	go run ./client                      # healthy: a websocket to the primary host
//	go run ./client -reject-websocket    # a proxy answers websockets 403: long-poll to the primary host
//	go run ./client -blackhole-websocket # websockets never answered: long-poll once the short-circuit timer (2 s) fires
//	go run ./client -primary-down        # the primary host refuses: a websocket to the fallback host
//	go run ./client -drop                # every connection dropped after CONNECTED: it reconnects and delivers again
//	go run ./client -stall               # the first connection goes silent after CONNECTED: the idle timer drops it, it reconnects
//	go run ./client -token-error         # the token expires while connected: one renewal, an immediate reconnect
//
// The server sends a maxIdleInterval (-max-idle) in CONNECTED and
// HEARTBEATs that often; -realtime-request-timeout shortens the idle
// limit (maxIdleInterval + realtimeRequestTimeout) for -stall. The faults
// combine; -inline runs the SDK with runner.Options.Inline, -v logs how
// each transport ended.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/examples/protocol"
	"github.com/reconnect-go/reconnect/examples/sdk"
	"github.com/reconnect-go/reconnect/examples/server"
	"github.com/reconnect-go/reconnect/runner"
)

func main() {
	reject := flag.Bool("reject-websocket", false, "answer websocket requests 403, as a proxy that blocks them does")
	blackhole := flag.Bool("blackhole-websocket", false, "never answer websocket requests, as a proxy that swallows them does")
	primaryDown := flag.Bool("primary-down", false, "the primary host refuses connections (its listener is closed)")
	drop := flag.Bool("drop", false, "drop every connection once a message has come through, and expect a reconnect")
	stall := flag.Bool("stall", false, "the first connection goes silent after CONNECTED (socket left open): expect the idle timer to drop it and a reconnect")
	tokenErr := flag.Bool("token-error", false, "expire the token once a message has come through: expect one renewal and an immediate reconnect")
	maxIdle := flag.Duration("max-idle", 500*time.Millisecond, "the maxIdleInterval the server sends in CONNECTED (0: none)")
	requestTimeout := flag.Duration("realtime-request-timeout", 10*time.Second, "the SDK's realtimeRequestTimeout")
	inline := flag.Bool("inline", false, "runner.Options.Inline: the runner calls the SDK's code inside its calls")
	deadline := flag.Duration("deadline", 20*time.Second, "give up, and exit 1, after this long")
	verbose := flag.Bool("v", false, "log how each transport ended, too")
	flag.Parse()

	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	lg := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	f := faults{reject: *reject, blackhole: *blackhole, primaryDown: *primaryDown, drop: *drop, stall: *stall, tokenError: *tokenErr,
		maxIdle: *maxIdle, requestTimeout: *requestTimeout}
	if f.stall && f.maxIdle <= 0 {
		fmt.Fprintln(os.Stderr, "FAIL: -stall needs -max-idle: without a maxIdleInterval nothing notices a stall")
		os.Exit(2)
	}
	start := time.Now()
	want, err := run(f, *inline, *deadline, lg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
	again := ""
	if *stall {
		again += ", stalled, dropped by the idle timer, reconnected and delivered"
	}
	if *drop {
		again += ", dropped, reconnected and delivered again"
	}
	if *tokenErr {
		again += ", token expired, renewed once, reconnected and delivered again"
	}
	fmt.Printf("ok: connected over %v, a message delivered over %v%s, closed cleanly, in %v\n",
		want.connected, want.delivered, again, time.Since(start).Round(time.Millisecond))
}

// faults are the faults of one run, and the server's maxIdleInterval and
// the SDK's realtimeRequestTimeout.
type faults struct {
	reject, blackhole, primaryDown, drop, stall, tokenError bool
	maxIdle, requestTimeout                                 time.Duration
}

// route is a transport to a host; name says which of the demo's hosts it
// is ("primary", "fallback"), for the messages.
type route struct {
	transport reconnect.TransportKind
	host      string
	name      string
}

func (r route) String() string {
	return r.transport.String() + " to the " + r.name + " host (" + r.host + ")"
}

// same reports whether a state change names r's transport kind and host.
func (r route) same(ch runner.StateChange) bool {
	return ch.TransportKind == r.transport && ch.Host == r.host
}

// expected is where the connection should end up: connected is the route
// of the first CONNECTED, delivered the one the messages settle on.
type expected struct{ connected, delivered route }

// expect is the outcome the faults should give. Messages settle on a
// websocket unless websockets are refused or blackholed, and on the
// primary host unless it is down. The first CONNECTED is over HTTP
// whenever the websocket failed on the primary host first (the engine
// then tries the fallback hosts over HTTP, and upgrades to a websocket
// once connected). A drop changes none of this.
func (f faults) expect(primary, fallback string) expected {
	p := route{reconnect.WebSocket, primary, "primary"}
	e := expected{p, p}
	if f.reject || f.blackhole {
		e.delivered.transport = reconnect.HTTP
	}
	if f.reject || f.blackhole || f.primaryDown {
		e.connected.transport = reconnect.HTTP
	}
	if f.primaryDown {
		e.connected.host, e.delivered.host = fallback, fallback
		e.connected.name, e.delivered.name = "fallback", "fallback"
	}
	return e
}

func run(f faults, inline bool, deadline time.Duration, lg *slog.Logger) (want expected, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()

	srv := &server.Server{MaxIdleInterval: f.maxIdle}
	defer srv.Close()
	srv.RejectWebSocket.Store(f.reject)
	srv.BlackholeWebSocket.Store(f.blackhole)
	srv.Stall.Store(f.stall)
	primary, downPrimary, err := srv.Listen()
	if err != nil {
		return want, err
	}
	fallback, _, err := srv.Listen()
	if err != nil {
		return want, err
	}
	if f.primaryDown {
		downPrimary()
	}

	var renewals atomic.Int64
	changes := make(chan runner.StateChange, runner.MaxQueuedChanges)
	msgs := make(chan sdk.Message, 64)
	c, err := sdk.New(sdk.Options{
		// The hosts as the dialer reaches them, ports included: the
		// runner hands the Dialer exactly what is configured here.
		Endpoint:             primary,
		FallbackHosts:        []string{fallback},
		ConnectivityCheckURL: "http://" + fallback + protocol.PathCheck,
		Logger:               lg,
		// Neither callback blocks: Inline asks that, and the demo reads
		// both channels only while it waits.
		OnMessage:     func(m sdk.Message) { trySend(msgs, m) },
		OnStateChange: func(ch runner.StateChange) { trySend(changes, ch) },
		Inline:        inline,
		// The token: here the server's own; your SDK's comes from your
		// auth server (an authUrl, an authCallback), and so does a new one.
		Token: srv.Token(),
		RenewToken: func(context.Context) (string, error) {
			renewals.Add(1)
			return srv.Token(), nil
		},
		RealtimeRequestTimeout: f.requestTimeout,
	})
	if err != nil {
		return want, err
	}
	want = f.expect(primary, fallback)
	if err := c.Connect(ctx); err != nil {
		// Under every fault here the first attempt connects in the end
		// (another transport, another host); a real SDK returns this to
		// its user, and the runner goes on retrying.
		return want, fmt.Errorf("the first attempt failed: %w", err)
	}
	if f.stall {
		if err := detectStall(ctx, srv, changes, want, f, lg); err != nil {
			return want, err
		}
	}
	if err := deliver(ctx, c, changes, msgs, want, "hello", lg); err != nil {
		return want, err
	}
	if f.tokenError {
		lg.Info("server: expiring every token", "told", srv.ExpireTokens())
		expired := time.Now()
		ch, err := await(ctx, changes, engine.Disconnected)
		if err != nil {
			return want, err
		}
		if ch.Failure.Kind != reconnect.FailureToken {
			return want, fmt.Errorf("DISCONNECTED with %v, want a token error", ch.Failure)
		}
		if err := deliver(ctx, c, changes, msgs, want, "hello after the renewal", lg); err != nil {
			return want, fmt.Errorf("after the token error: %w", err)
		}
		if n := renewals.Load(); n != 1 {
			return want, fmt.Errorf("%d token renewals, want 1 (RTN15h)", n)
		}
		lg.Info("renewed once and delivered again", "after", time.Since(expired).Round(time.Millisecond))
	}
	if f.drop {
		lg.Info("server: dropping every connection", "dropped", srv.DropAll())
		ch, err := await(ctx, changes, engine.Disconnected)
		if err != nil {
			return want, err
		}
		if ch.Reason != engine.ReasonDropped {
			return want, fmt.Errorf("DISCONNECTED for %v, want %v", ch.Reason, engine.ReasonDropped)
		}
		if err := deliver(ctx, c, changes, msgs, want, "hello again", lg); err != nil {
			return want, fmt.Errorf("after the drop: %w", err)
		}
	}
	return want, c.Close(ctx)
}

// detectStall waits for CONNECTED over want.connected on a connection the
// server has stalled, then for the idle timer to drop it: DISCONNECTED
// with a timeout, no earlier than maxIdleInterval +
// realtimeRequestTimeout after CONNECTED (its last message) and no later
// than that plus the runner's sampling period (runner.IdleSamplePeriod)
// and a second of slack for a busy machine. It then lifts the stall, so
// that the reconnection is served.
func detectStall(ctx context.Context, srv *server.Server, changes <-chan runner.StateChange, want expected, f faults, lg *slog.Logger) error {
	ch, err := await(ctx, changes, engine.Connected)
	if err != nil {
		return err
	}
	if !want.connected.same(ch) {
		return fmt.Errorf("CONNECTED over %v to %s, want %v", ch.TransportKind, ch.Host, want.connected)
	}
	connected := ch.At
	lost, err := await(ctx, changes, engine.Disconnected)
	if err != nil {
		return err
	}
	limit := f.maxIdle + f.requestTimeout
	took := lost.At.Sub(connected)
	switch {
	case lost.Reason != engine.ReasonDropped || lost.Failure.Kind != reconnect.FailureTimeout:
		return fmt.Errorf("the stalled connection ended by %v %v, want the idle timer's drop (a timeout)", lost.Reason, lost.Failure)
	case took < limit || took > limit+runner.IdleSamplePeriod(limit)+time.Second:
		return fmt.Errorf("the stall was detected %v after CONNECTED, want %v to %v", took, limit, limit+runner.IdleSamplePeriod(limit))
	}
	lg.Info("stall detected by the idle timer", "after", took.Round(time.Millisecond), "limit", limit)
	srv.Stall.Store(false)
	return nil
}

// deliver waits for CONNECTED over want.connected, then publishes data,
// numbered, every 100 ms until the server's echo of one arrives over
// want.delivered: an upgrade may still be under way when CONNECTED
// arrives, and a message sent on a transport the upgrade replaces is lost
// (a real SDK resends it on the new one).
func deliver(ctx context.Context, c *sdk.Client, changes <-chan runner.StateChange, msgs <-chan sdk.Message, want expected, data string, lg *slog.Logger) error {
	ch, err := await(ctx, changes, engine.Connected)
	if err != nil {
		return err
	}
	if !want.connected.same(ch) {
		return fmt.Errorf("CONNECTED over %v to %s, want %v", ch.TransportKind, ch.Host, want.connected)
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for n := 1; ; n++ {
		if err := c.Publish(fmt.Sprintf("%s %d", data, n)); err != nil {
			lg.Debug("publish", "error", err) // no transport for the moment, or the one it found was replaced
		}
		if back, err := echo(ctx, msgs, tick.C, data, want.delivered, lg); back || err != nil {
			return err
		}
	}
}

// echo waits for a message published as data to come back over want; it
// reports false at the next tick.
func echo(ctx context.Context, msgs <-chan sdk.Message, tick <-chan time.Time, data string, want route, lg *slog.Logger) (bool, error) {
	for {
		select {
		case m := <-msgs:
			over := m.Transport.String() + " to " + m.Host
			if strings.HasPrefix(m.Data, data+" ") && m.Transport == want.transport && m.Host == want.host {
				lg.Info("message", "data", m.Data, "over", over)
				return true, nil
			}
			lg.Debug("message", "data", m.Data, "over", over, "waiting for", want)
		case <-tick:
			return false, nil
		case <-ctx.Done():
			return false, fmt.Errorf("deadline: no message published came back over %v", want)
		}
	}
}

// await waits for a change to want; CLOSED or FAILED meanwhile is an error.
func await(ctx context.Context, changes <-chan runner.StateChange, want engine.State) (runner.StateChange, error) {
	for {
		select {
		case ch := <-changes:
			switch {
			case ch.To == want:
				return ch, nil
			case ch.To == engine.Closed || ch.To == engine.Failed:
				return ch, fmt.Errorf("went %v (%v, %v) while waiting for %v", ch.To, ch.Reason, ch.Failure, want)
			}
		case <-ctx.Done():
			return runner.StateChange{}, fmt.Errorf("deadline: still waiting for %v", want)
		}
	}
}

// trySend sends v on ch unless ch is full.
func trySend[T any](ch chan<- T, v T) {
	select {
	case ch <- v:
	default:
	}
}
