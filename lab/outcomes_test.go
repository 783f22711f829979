package lab

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// The proposal's five outcomes, on real sockets. Latencies are server-side
// delays; every ordering asserted is separated by at least 200 ms.

func setPaths(s *Server, ws, http PathFault) {
	_ = s.SetFault(s.Primary(), HostFault{WebSocket: ws, HTTP: http})
}

// Outcome 1: the websocket connects within the short circuit; only the
// websocket is used (rule 4: it becomes pending, then active).
func TestOutcome1WebSocketWithinShortCircuit(t *testing.T) {
	cfg := scaled()
	cfg.ShortCircuit = time.Second
	h := start(t, cfg, func(s *Server) { setPaths(s, PathFault{Connect: ms(20)}, PathFault{}) })
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.WebSocket || c.Host != h.s.Primary() {
		t.Fatalf("CONNECTED on %v %s, want websocket on the primary", c.TransportKind, c.Host)
	}
	time.Sleep(cfg.ShortCircuit + 200*time.Millisecond) // the short circuit would have fired by now
	if n := len(h.seen(reconnect.HTTP, "", "request")); n != 0 {
		t.Fatalf("%d HTTP requests, want none:\n%s", n, h.dump())
	}
}

// Outcome 2: the websocket becomes viable after the short circuit but
// before HTTP does; HTTP is opened, then closed before it was ever
// activated (the server never sends it CONNECTED).
func TestOutcome2WebSocketAfterShortCircuitBeforeHTTP(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		// websocket viable at 600 ms; HTTP starts at 100 ms, viable at 1600 ms.
		setPaths(s, PathFault{Connect: ms(600)}, PathFault{Connect: ms(1500)})
	})
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.WebSocket {
		t.Fatalf("CONNECTED on %v, want websocket", c.TransportKind)
	}
	reqs := h.seen(reconnect.HTTP, "", "request")
	if len(reqs) != 1 {
		t.Fatalf("%d HTTP requests, want 1:\n%s", len(reqs), h.dump())
	}
	if at := h.at(reqs[0].At); at < 100*time.Millisecond {
		t.Fatalf("HTTP requested at %v, before the 100 ms short circuit", at)
	}
	h.eventually("the HTTP transport closed, never connected", func() bool { return h.closedUnconnected(reqs[0].Conn) })
}

// Outcome 3: the websocket becomes viable after HTTP is active: the late
// websocket is closed (rule 3) and the upgrade mechanism opens a websocket
// in upgrade mode that takes over from HTTP, which is then closed.
func TestOutcome3LateWebSocketDiscardedThenUpgrade(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		// HTTP active at about 100 + 60 ms; the websocket viable at 700 ms.
		setPaths(s, PathFault{Connect: ms(700), ConnectedDelay: ms(300)}, PathFault{Connect: ms(50)})
	})
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.HTTP {
		t.Fatalf("CONNECTED on %v, want HTTP", c.TransportKind)
	}
	ws := h.seen(reconnect.WebSocket, "", "request")
	if len(ws) == 0 || ws[0].Mode != "clean" {
		t.Fatalf("first websocket not in clean mode:\n%s", h.dump())
	}
	h.eventually("the late websocket closed before CONNECTED", func() bool { return h.closedUnconnected(ws[0].Conn) })
	h.eventually("an upgrade websocket connected", func() bool {
		for _, e := range h.seen(reconnect.WebSocket, "", "connected") {
			if e.Mode == "" || e.Conn != ws[0].Conn {
				return true
			}
		}
		return false
	})
	up := h.seen(reconnect.WebSocket, "", "request")[1]
	if up.Mode != "upgrade" {
		t.Fatalf("second websocket in mode %q, want upgrade:\n%s", up.Mode, h.dump())
	}
	http := h.seen(reconnect.HTTP, "", "connected")[0]
	h.eventually("HTTP closed after the upgrade", func() bool {
		w := h.conn(http.Conn)
		return w[len(w)-1] == "closed"
	})
	// The connection stayed CONNECTED throughout: at most the UPDATE that
	// names the new transport (RTN4h), never a change of state.
	for {
		select {
		case c := <-h.changes:
			if !c.Update {
				t.Fatalf("state change during the upgrade: %v→%v", c.From, c.To)
			}
			if c.TransportKind != reconnect.WebSocket {
				t.Fatalf("the upgrade's UPDATE names %v, want the websocket", c.TransportKind)
			}
		default:
			return
		}
	}
}

// Outcome 4: the websocket fails at once (a proxy answers 403); HTTP starts
// at once, long before the short circuit.
func TestOutcome4WebSocketFailsHTTPAtOnce(t *testing.T) {
	cfg := scaled()
	cfg.ShortCircuit = time.Second
	h := start(t, cfg, func(s *Server) {
		setPaths(s, PathFault{Reject: 1, RejectStatus: 403}, PathFault{Connect: ms(20)})
	})
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.HTTP {
		t.Fatalf("CONNECTED on %v, want HTTP", c.TransportKind)
	}
	if at := h.at(c.At); at >= cfg.ShortCircuit {
		t.Fatalf("CONNECTED at %v, not before the 1 s short circuit", at)
	}
	rej := h.seen(reconnect.WebSocket, "", "rejected")[0]
	req := h.seen(reconnect.HTTP, "", "request")[0]
	if !req.At.After(rej.At) {
		t.Fatalf("HTTP requested before the websocket was rejected:\n%s", h.dump())
	}
}

// Outcome 5: the websocket never answers (blackholed); HTTP starts when the
// short circuit fires, never before.
func TestOutcome5WebSocketNeverConnects(t *testing.T) {
	cfg := scaled()
	cfg.ShortCircuit = 300 * time.Millisecond
	h := start(t, cfg, func(s *Server) { setPaths(s, PathFault{Blackhole: 1}, PathFault{Connect: ms(20)}) })
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.HTTP {
		t.Fatalf("CONNECTED on %v, want HTTP", c.TransportKind)
	}
	req := h.seen(reconnect.HTTP, "", "request")[0]
	if at := h.at(req.At); at < cfg.ShortCircuit {
		t.Fatalf("HTTP requested at %v, before the %v short circuit", at, cfg.ShortCircuit)
	}
}

// Rule 1: HTTP becomes viable while the websocket is pending: HTTP is
// closed, never activated.
func TestRule1HTTPViableWhileWebSocketPending(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		// websocket viable at 400 ms, CONNECTED at 1900 ms; HTTP starts at
		// 100 ms, viable at 900 ms, CONNECTED only at 3900 ms.
		setPaths(s, PathFault{Connect: ms(400), ConnectedDelay: ms(1500)}, PathFault{Connect: ms(800), ConnectedDelay: ms(3000)})
	})
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.WebSocket {
		t.Fatalf("CONNECTED on %v, want websocket", c.TransportKind)
	}
	v := h.seen(reconnect.HTTP, "", "viable")
	if len(v) != 1 {
		t.Fatalf("HTTP viable %d times, want once:\n%s", len(v), h.dump())
	}
	h.eventually("the HTTP transport closed, never connected", func() bool { return h.closedUnconnected(v[0].Conn) })
}

// Rule 2: the websocket becomes viable while HTTP is pending: HTTP loses
// its activation and is closed; the websocket becomes active.
func TestRule2WebSocketReplacesPendingHTTP(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		// HTTP starts at 100 ms, viable at 150 ms, pending until 3150 ms;
		// the websocket viable at 1200 ms.
		setPaths(s, PathFault{Connect: ms(1200)}, PathFault{Connect: ms(50), ConnectedDelay: ms(3000)})
	})
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.WebSocket {
		t.Fatalf("CONNECTED on %v, want websocket", c.TransportKind)
	}
	v := h.seen(reconnect.HTTP, "", "viable")
	if len(v) != 1 || !v[0].At.Before(h.seen(reconnect.WebSocket, "", "viable")[0].At) {
		t.Fatalf("HTTP was not pending before the websocket was viable:\n%s", h.dump())
	}
	h.eventually("the pending HTTP transport closed, never connected", func() bool { return h.closedUnconnected(v[0].Conn) })
}

// Liveness on the wire: a websocket killed right after its handshake,
// before CONNECTED, does not keep the client from connecting over HTTP in
// the same attempt.
func TestKilledWebSocketConnectsOverHTTP(t *testing.T) {
	cfg := scaled()
	cfg.ShortCircuit = time.Second
	h := start(t, cfg, func(s *Server) { setPaths(s, PathFault{KillBeforeConnected: 1}, PathFault{Connect: ms(20)}) })
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.HTTP || c.Reason != engine.ReasonConnected {
		t.Fatalf("CONNECTED on %v for %v, want HTTP", c.TransportKind, c.Reason)
	}
	if n := len(h.seen(reconnect.WebSocket, "", "killed")); n == 0 {
		t.Fatalf("no websocket was killed:\n%s", h.dump())
	}
	if at := h.at(c.At); at >= cfg.ShortCircuit {
		t.Fatalf("CONNECTED at %v: HTTP waited for the short circuit", at)
	}
}
