package lab

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// The wire tests' timeouts: real timers, scaled down from the defaults.
// Each test states the margins its assertions leave; they hold on a
// loaded 2-core machine (the tests also run under the race detector).
func scaled() engine.Config {
	c := engine.AblyConfig()
	c.ShortCircuit = 100 * time.Millisecond
	c.Timeouts.DisconnectedRetry = 300 * time.Millisecond
	c.Timeouts.SuspendedRetry = 500 * time.Millisecond
	c.Timeouts.ConnectionStateTTL = 30 * time.Second
	c.Timeouts.RealtimeRequest = 3 * time.Second
	c.Timeouts.HTTPRequest = 1 * time.Second
	return c
}

// ms is a fixed latency.
func ms(v float64) Dist { return Dist{MedianMs: v} }

// harness is one runner-driven client against a lab server, with
// everything both sides did.
type harness struct {
	t       *testing.T
	s       *Server
	f       *Fleet
	t0      time.Time
	changes chan runner.StateChange
	mu      sync.Mutex
	events  []ServerEvent
}

// start starts a server, applies faults to it, and connects one client
// with cfg.
func start(t *testing.T, cfg engine.Config, faults func(*Server)) *harness {
	t.Helper()
	h := &harness{t: t, changes: make(chan runner.StateChange, 256)}
	h.s, _ = newServer(t, Options{OnEvent: func(e ServerEvent) {
		h.mu.Lock()
		h.events = append(h.events, e)
		h.mu.Unlock()
	}})
	if faults != nil {
		faults(h.s)
	}
	f, err := StartFleet(context.Background(), h.s, FleetOptions{Clients: 1, Config: cfg,
		OnChange: func(_ int, c runner.StateChange) { h.changes <- c }})
	if err != nil {
		t.Fatal(err)
	}
	h.f = f
	t.Cleanup(f.Stop)
	h.t0 = f.Started()
	return h
}

// next returns the client's next state change, failing after within.
func (h *harness) next(within time.Duration) runner.StateChange {
	h.t.Helper()
	select {
	case c := <-h.changes:
		return c
	case <-time.After(within):
		h.t.Fatalf("no state change within %v; server saw:\n%s", within, h.dump())
	}
	return runner.StateChange{}
}

// until returns the first change to state to, failing after within.
func (h *harness) until(to engine.State, within time.Duration) runner.StateChange {
	h.t.Helper()
	deadline := time.Now().Add(within)
	for {
		c := h.next(time.Until(deadline))
		if c.To == to {
			return c
		}
	}
}

// at is t's offset from the connect request.
func (h *harness) at(t time.Time) time.Duration { return t.Sub(h.t0) }

// seen returns the server events matching the transport kind (NoTransport
// for any), host ("" for any) and what ("" for any), in order.
func (h *harness) seen(k reconnect.TransportKind, host, what string) []ServerEvent {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []ServerEvent
	for _, e := range h.events {
		if (k == reconnect.NoTransport || e.Transport == k) && (host == "" || e.Host == host) && (what == "" || e.What == what) {
			out = append(out, e)
		}
	}
	return out
}

// conn returns what the server saw of connection id, in order.
func (h *harness) conn(id string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if e.Conn == id {
			out = append(out, e.What)
		}
	}
	return out
}

// eventually waits (up to 5 s) until cond holds.
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			h.t.Fatalf("never: %s; server saw:\n%s", what, h.dump())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// closedUnconnected reports whether the server saw connection id end
// without ever sending it CONNECTED.
func (h *harness) closedUnconnected(id string) bool {
	w := h.conn(id)
	return slices.Contains(w, "closed") && !slices.Contains(w, "connected")
}

func (h *harness) dump() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	for _, e := range h.events {
		fmt.Fprintf(&b, "  %7.1fms %-9s %-20s %-4s %-10s %s\n", float64(h.at(e.At))/1e6, e.Transport, e.Host, e.Conn, e.What, e.Mode)
	}
	return b.String()
}
