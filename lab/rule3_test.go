package lab

import (
	"context"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Rule 3 at activation: behind a proxy that blackholes websockets, HTTP's
// activation closes the attempt's first websocket (still opening, so rule 3
// could only ever discard it) at once, instead of at its connect timeout.
// The server sees that socket closed within a second of CONNECTED, long
// before the 3 s realtimeRequestTimeout.
func TestRule3AtActivationClosesTheHungWebSocket(t *testing.T) {
	h := start(t, scaled(), func(s *Server) {
		_ = s.SetFault(s.Primary(), HostFault{WebSocket: PathFault{Blackhole: 1}})
	})
	c := h.until(engine.Connected, 5*time.Second)
	if c.TransportKind != reconnect.HTTP {
		t.Fatalf("CONNECTED by %v, want HTTP", c.TransportKind)
	}
	ws := h.seen(reconnect.WebSocket, "", "blackholed")
	if len(ws) == 0 || ws[0].Mode != "clean" {
		t.Fatalf("no clean websocket blackholed:\n%s", h.dump())
	}
	h.eventually("the hung clean websocket closed", func() bool { return h.closedUnconnected(ws[0].Conn) })
	var closedAt time.Time
	for _, e := range h.seen(reconnect.WebSocket, "", "closed") {
		if e.Conn == ws[0].Conn {
			closedAt = e.At
		}
	}
	if d := closedAt.Sub(c.At); d > time.Second {
		t.Fatalf("the hung websocket closed %v after CONNECTED, want at activation (well under the 3 s connect timeout)", d)
	}
}

// TestSocketsPerClientBehindWebSocketBlackhole counts the server's open
// sockets per client half a second after every client connected by HTTP
// behind a websocket blackhole: the HTTP session and the upgrade websocket
// (also blackholed), and no longer the attempt's first websocket.
func TestSocketsPerClientBehindWebSocketBlackhole(t *testing.T) {
	const n = 20
	s, _ := newServer(t, Options{})
	pf, err := NamedFault("blackhole-websocket", FaultParams{})
	if err != nil {
		t.Fatal(err)
	}
	if err := pf.Apply(s); err != nil {
		t.Fatal(err)
	}
	f, err := StartFleet(context.Background(), s, FleetOptions{Clients: n, Config: scaled()})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	for i, r := range f.WaitConnected(5 * time.Second) {
		if !r.Connected || r.Transport != reconnect.HTTP {
			t.Fatalf("client %d: %+v, want CONNECTED by HTTP", i, r)
		}
	}
	time.Sleep(500 * time.Millisecond) // the sockets closed at activation are gone on the server's side
	per := float64(s.Sockets()) / n
	t.Logf("%.2f sockets per client at CONNECTED+0.5s behind a websocket blackhole (HTTP session + upgrade websocket)", per)
	// The HTTP session holds one socket (its requests share it), rarely
	// two for a moment; the upgrade websocket one. Without rule 3 at
	// activation the hung first websocket made it 3.00.
	if per > 2.5 {
		t.Fatalf("%.2f sockets per client, want about 2 (HTTP + the upgrade websocket)", per)
	}
}
