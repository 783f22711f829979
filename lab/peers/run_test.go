package peers

import (
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/lab"
)

// Ours (on the lab's protocol and on Centrifugo's), on real sockets behind the proxy, reach their expected outcome
// under every fault but the restart (whose retry takes 12–15 s), with
// short windows and every cell at once: no Node needed.
func TestOursUnderEveryFault(t *testing.T) {
	faults := []Fault{Healthy, WebSocketRefused, WebSocketBlackholed, Slow, PrimaryDown, Drop, Stall}
	rep, err := Run(Options{Clients: 2, Kinds: []Kind{Ours, OursShort, OursCentrifuge}, Faults: faults, Window: 5 * time.Second,
		StallWindow: time.Second, Settle: 100 * time.Millisecond, Parallel: 2 * len(faults), ShortCircuit: 100 * time.Millisecond,
		SlowWebSocket: lab.Dist{MedianMs: 100}, SlowHTTP: lab.Dist{MedianMs: 150}})
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
	c, _ = rep.Cell(Stall, OursCentrifuge)
	if c.Result.Reached() != 0 {
		t.Fatalf("ours-centrifuge noticed a stall: %+v", c.Result)
	}
	c, _ = rep.Cell(WebSocketRefused, OursShort)
	if c.Result.Transports["http"] != 2 || c.Result.Usage[0].Sockets != 3 {
		t.Fatalf("ours-short under a refused websocket: transports %v, usage %+v; want http, 3 connections", c.Result.Transports, c.Result.Usage)
	}
}
