package lab

import (
	"slices"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Host fallback: the primary refuses every connection; after the
// connectivity check says up, HTTP connects on a fallback host, and the
// upgrade moves the connection to a websocket on that same host.
func TestHostFallbackWhenPrimaryDown(t *testing.T) {
	h := start(t, scaled(), func(s *Server) { _ = s.SetFault(s.Primary(), HostFault{Down: true}) })
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.HTTP || !slices.Contains(h.s.Fallbacks(), c.Host) {
		t.Fatalf("CONNECTED on %v %s, want HTTP on a fallback host", c.TransportKind, c.Host)
	}
	h.eventually("the upgrade websocket connected on the fallback host", func() bool {
		for _, e := range h.seen(reconnect.WebSocket, c.Host, "connected") {
			if e.Mode == "upgrade" {
				return true
			}
		}
		return false
	})
}

// Connectivity down: the primary refuses and the check answers "no", so
// no fallback host is tried and the connection goes DISCONNECTED.
func TestConnectivityDownMeansNoFallbackHost(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		_ = s.SetFault(s.Primary(), HostFault{Down: true})
		s.SetCheck(CheckFault{Down: true})
	})
	c := h.until(engine.Disconnected, 5*time.Second)
	if c.Reason != engine.ReasonConnectivityDown {
		t.Fatalf("DISCONNECTED for %v, want connectivity-down", c.Reason)
	}
	// Through the next retry too (300 ms later): no fallback host ever.
	h.until(engine.Connecting, 2*time.Second)
	h.until(engine.Disconnected, 5*time.Second)
	for _, fb := range h.s.Fallbacks() {
		if n := len(h.seen(reconnect.NoTransport, fb, "")); n != 0 {
			t.Fatalf("fallback host %s saw %d events:\n%s", fb, n, h.dump())
		}
	}
}

// A hanging connectivity check counts as down after httpRequestTimeout.
func TestHangingConnectivityCheckIsDown(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		_ = s.SetFault(s.Primary(), HostFault{Down: true})
		s.SetCheck(CheckFault{Hang: true})
	})
	c := h.until(engine.Disconnected, 5*time.Second)
	if c.Reason != engine.ReasonConnectivityDown || h.at(c.At) < time.Second {
		t.Fatalf("DISCONNECTED for %v at %v, want connectivity-down after the 1 s httpRequestTimeout", c.Reason, h.at(c.At))
	}
}

// offline takes every host down and the check with them.
func offline(s *Server) {
	for _, n := range append([]string{s.Primary()}, s.Fallbacks()...) {
		_ = s.SetFault(n, HostFault{Down: true})
	}
	s.SetCheck(CheckFault{Down: true})
}

// RTB1 on the wire: each DISCONNECTED announces a retry in
// [0.8, 1] × min((n+2)/3, 2) × 300 ms, and the next attempt starts no
// sooner than announced (and less than a second late: timers on a loaded
// machine fire late, never early).
func TestRTB1RetrySpacing(t *testing.T) {
	h := start(t, scaled(), offline)
	initial := scaled().Timeouts.DisconnectedRetry
	for n := 1; n <= 5; n++ {
		d := h.until(engine.Disconnected, 5*time.Second)
		lo, hi := reconnect.RetryBounds(initial, n)
		if d.RetryIn < lo || d.RetryIn > hi {
			t.Fatalf("retry %d: retryIn %v outside [%v, %v]", n, d.RetryIn, lo, hi)
		}
		c := h.next(5 * time.Second)
		if c.To != engine.Connecting || c.Reason != engine.ReasonRetry {
			t.Fatalf("retry %d: then %v for %v, want connecting for retry", n, c.To, c.Reason)
		}
		if gap := c.At.Sub(d.At); gap < d.RetryIn || gap > d.RetryIn+time.Second {
			t.Fatalf("retry %d: attempt %v after DISCONNECTED, announced %v", n, gap, d.RetryIn)
		}
	}
}

// SUSPENDED: once connectionStateTtl has passed the connection is
// SUSPENDED and retries every suspendedRetryTimeout, flat, without jitter.
func TestSuspendedRetriesFlat(t *testing.T) {
	cfg := scaled()
	cfg.Timeouts.ConnectionStateTTL = 800 * time.Millisecond
	h := start(t, cfg, offline)
	s := h.until(engine.Suspended, 5*time.Second)
	if at := h.at(s.At); at < cfg.Timeouts.ConnectionStateTTL {
		t.Fatalf("SUSPENDED at %v, before connectionStateTtl", at)
	}
	for i := 0; i < 3; i++ {
		if s.RetryIn != cfg.Timeouts.SuspendedRetry {
			t.Fatalf("SUSPENDED retryIn %v, want %v", s.RetryIn, cfg.Timeouts.SuspendedRetry)
		}
		c := h.next(5 * time.Second)
		if c.To != engine.Connecting {
			t.Fatalf("after SUSPENDED: %v", c.To)
		}
		if gap := c.At.Sub(s.At); gap < s.RetryIn || gap > s.RetryIn+time.Second {
			t.Fatalf("suspended retry %v after SUSPENDED, want %v", gap, s.RetryIn)
		}
		s = h.until(engine.Suspended, 5*time.Second)
	}
}

// A drop from CONNECTED reconnects at once (RTN15a), in resume mode, and
// without waiting for a retry timer.
func TestDropThenImmediateReconnect(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		_ = s.SetFault(s.Primary(), HostFault{DropAfter: 300 * time.Millisecond})
	})
	h.until(engine.Connected, 5*time.Second)
	d := h.until(engine.Disconnected, 5*time.Second)
	if d.Reason != engine.ReasonDropped || d.RetryIn != 0 {
		t.Fatalf("DISCONNECTED for %v retryIn %v, want dropped, 0", d.Reason, d.RetryIn)
	}
	c := h.next(time.Second)
	if c.To != engine.Connecting || c.Reason != engine.ReasonReconnect || c.At.Sub(d.At) > 200*time.Millisecond {
		t.Fatalf("then %v for %v %v later, want an immediate reconnect", c.To, c.Reason, c.At.Sub(d.At))
	}
	h.until(engine.Connected, 5*time.Second)
	ws := h.seen(reconnect.WebSocket, "", "request")
	if len(ws) < 2 || ws[1].Mode != "resume" {
		t.Fatalf("the reconnect's websocket is not in resume mode:\n%s", h.dump())
	}
}

// Close: CONNECTED → CLOSING → CLOSED when the server's CLOSED arrives (long
// before the 3 s realtimeRequestTimeout), and the socket is gone.
func TestCloseOnTheWire(t *testing.T) {
	for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
		t.Run(k.String(), func(t *testing.T) {
			cfg := scaled()
			if k == reconnect.HTTP {
				cfg.Transports.WebSocket = false
			}
			h := start(t, cfg, nil)
			c := h.until(engine.Connected, 5*time.Second)
			h.f.Runner(0).Close()
			cl := h.next(time.Second)
			if cl.To != engine.Closing {
				t.Fatalf("after Close: %v, want closing", cl.To)
			}
			done := h.next(5 * time.Second)
			if done.To != engine.Closed || done.At.Sub(cl.At) > time.Second {
				t.Fatalf("then %v %v later, want CLOSED well before the timeout", done.To, done.At.Sub(cl.At))
			}
			conn := h.seen(c.TransportKind, "", "connected")[0].Conn
			h.eventually("the server saw the transport close", func() bool { return slices.Contains(h.conn(conn), "closed") })
		})
	}
}
