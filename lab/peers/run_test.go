package peers

import (
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

// Ours (on the lab's protocol and on Centrifugo's), on real sockets behind the proxy, reach their expected outcome
// under every fault but the restart (whose retry takes 12–15 s), with
// short windows and every cell at once: no Node needed. A 1 s heartbeat
// (centrifuge's ping interval is whole seconds) answered within 500 ms
// makes the idle limit 1.5 s (the idle slack is the heartbeat's timeout);
// the 3 s realtimeRequestTimeout is longer than ours-2s's short circuit.
func TestOursUnderEveryFault(t *testing.T) {
	faults := []Fault{Healthy, WebSocketRefused, WebSocketBlackholed, Slow, PrimaryDown, Drop, Stall}
	rep, err := Run(Options{Clients: 2, Kinds: []Kind{Ours, OursShort, OursCentrifuge}, Faults: faults, Window: 5 * time.Second,
		StallWindow: 7 * time.Second, Settle: 100 * time.Millisecond, Parallel: 2 * len(faults), ShortCircuit: 100 * time.Millisecond,
		SlowWebSocket: lab.Dist{MedianMs: 100}, SlowHTTP: lab.Dist{MedianMs: 150},
		Heartbeat: Heartbeat{Interval: time.Second, Timeout: 500 * time.Millisecond}, RequestTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if bad := rep.Check(); len(bad) > 0 {
		t.Fatalf("unexpected outcomes:\n%s", strings.Join(bad, "\n"))
	}
	c, _ := rep.Cell(WebSocketBlackholed, Ours)
	if s := spreadOf(c.Result.Times); s.Median < 2*time.Second {
		t.Fatalf("ours-2s under a blackholed websocket: median %v, want the 2 s short circuit at least", s.Median)
	}
	// A stall is noticed by the idle timer: no sooner than the idle limit
	// (1 s + the 500 ms slack) after the last message, which came at most a
	// heartbeat (1 s) before the stall, and not the spec's 10 s slack
	// (which would make it 11 s).
	for _, k := range []Kind{Ours, OursShort, OursCentrifuge} {
		c, _ = rep.Cell(Stall, k)
		for _, d := range c.Result.Detect {
			if d == Never || d < 500*time.Millisecond || d > 3*time.Second {
				t.Fatalf("%s noticed a stall after %v, want the idle limit (1.5 s) less at most a heartbeat (1 s), within 3 s: %+v", k, d, c.Result)
			}
		}
	}
	c, _ = rep.Cell(WebSocketRefused, OursShort)
	if c.Result.Transports["http"] != 2 || c.Result.Usage[0].Sockets != 3 {
		t.Fatalf("ours-short under a refused websocket: transports %v, usage %+v; want http, 3 connections", c.Result.Transports, c.Result.Usage)
	}
}
