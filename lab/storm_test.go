package lab

import (
	"context"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// A small real storm: every client loses its connection in the restart,
// is refused during the downtime (the immediate reconnect; a second of
// downtime leaves room for a loaded machine to tell 40 clients of the
// drop), and comes back on an RTB1 retry after it.
func TestStormEveryClientReconnects(t *testing.T) {
	noLeaks(t)
	o := StormOptions{Clients: 40, Config: scaled(), Downtime: time.Second, Horizon: 20 * time.Second, Bucket: 100 * time.Millisecond}
	run, err := RunStorm(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if run.Reconnected != o.Clients || run.Total < 2*o.Clients {
		t.Fatalf("%d reconnected, %d attempts; want %d and at least two attempts each", run.Reconnected, run.Total, o.Clients)
	}
	if run.MedianDisconnected < o.Downtime {
		t.Fatalf("half reconnected after %v, within the %v downtime", run.MedianDisconnected, o.Downtime)
	}
	sim, err := SimulateStorm(o)
	if err != nil || sim.Reconnected != o.Clients || sim.Total < 2*o.Clients {
		t.Fatalf("simulator: %+v, %v", sim, err)
	}
}

// Over capacity, connect requests are answered 503 at once.
func TestCapacity(t *testing.T) {
	s, c := newServer(t, Options{})
	s.SetCapacity(2, time.Now())
	var fails int
	t0 := time.Now()
	for range 3 {
		rep, ch := recorder()
		conn := c.Open(reconnect.WebSocket, s.Primary(), reconnect.ModeClean, rep)
		if r := next(t, ch); r.kind == engine.EventTransportFailed {
			if r.f.Status != 503 {
				t.Fatalf("rejected with %+v, want 503", r.f)
			}
			fails++
		}
		conn.Close()
		waitDone(t, conn)
	}
	if time.Since(t0) > 900*time.Millisecond {
		t.Skip("the three requests took most of a capacity window; too slow a machine to count them")
	}
	if fails != 1 {
		t.Fatalf("%d of 3 rejected with a capacity of 2 a second, want 1", fails)
	}
}
