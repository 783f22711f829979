package lab

import (
	"context"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// runStall starts n clients against a server whose every first
// connection stalls right after CONNECTED (over the path fault ws on the
// websocket), lifts the stall once all are connected, and returns what
// they did, with the idle limit and the sampling period.
func runStall(t *testing.T, n int, ws PathFault) ([]ClientResult, time.Duration, time.Duration) {
	t.Helper()
	const maxIdle = 200 * time.Millisecond
	noLeaks(t)
	s, err := NewServer(Options{MaxIdleInterval: maxIdle})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	stall := HostFault{Stall: true, WebSocket: ws}
	if err := (ProfileFaults{Primary: stall, Fallback: stall}).Apply(s); err != nil {
		t.Fatal(err)
	}
	cfg := engine.AblyConfig()
	cfg.Timeouts.RealtimeRequest = 500 * time.Millisecond
	limit := maxIdle + cfg.Timeouts.RealtimeRequest
	f, err := StartFleet(context.Background(), s, FleetOptions{Clients: n, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	if res := f.WaitConnected(20 * time.Second); Summarize(res, 0).Connected != n {
		t.Fatalf("not every client connected: %v", Summarize(res, 20*time.Second))
	}
	// The reconnections are not stalled (the websocket's fault stays:
	// over HTTP, an upgrade websocket would otherwise take over).
	if err := (ProfileFaults{Primary: HostFault{WebSocket: ws}, Fallback: HostFault{WebSocket: ws}}).Apply(s); err != nil {
		t.Fatal(err)
	}
	return f.WaitReconnected(limit + 20*time.Second), limit, runner.IdleSamplePeriod(limit)
}

// checkStall: every client dropped its stalled connection by the idle
// timer, never before the limit after its CONNECTED (the last message it
// received) and by the limit plus the sampling period (plus a margin for
// a loaded machine's timers: 1.5 s), and was CONNECTED again.
func checkStall(t *testing.T, res []ClientResult, limit, delta time.Duration, want reconnect.TransportKind) {
	t.Helper()
	const slack = 1500 * time.Millisecond
	for i, r := range res {
		if r.Transport != want {
			t.Errorf("client %d connected over %v, want %v", i+1, r.Transport, want)
		}
		if r.Lost.To != engine.Disconnected || r.Lost.Reason != engine.ReasonDropped || r.Lost.Failure.Kind != reconnect.FailureTimeout {
			t.Errorf("client %d: lost the connection by %+v, want a drop by the idle timer", i+1, r.Lost)
			continue
		}
		if d := r.Lost.At.Sub(r.ConnectedAt); d < limit || d > limit+delta+slack {
			t.Errorf("client %d detected the stall %v after CONNECTED, want %v to %v (+ %v)", i+1, d, limit, limit+delta, slack)
		}
		if !r.Reconnected {
			t.Errorf("client %d did not reconnect after the stall", i+1)
		}
	}
	s := SummarizeStall(res, limit, delta)
	if s.Detected != len(res) || s.Reconnected != len(res) || s.Early != 0 {
		t.Errorf("summary %+v", s)
	}
	t.Log(s)
}

func TestStallIsDetectedByTheIdleTimerAndReconnects(t *testing.T) {
	res, limit, delta := runStall(t, 10, PathFault{})
	checkStall(t, res, limit, delta, reconnect.WebSocket)
}

// TestStallOverLongPoll: the same over HTTP (the websocket refused): the
// stalled session's polls go unanswered.
func TestStallOverLongPoll(t *testing.T) {
	res, limit, delta := runStall(t, 3, PathFault{Reject: 1, RejectStatus: 403})
	checkStall(t, res, limit, delta, reconnect.HTTP)
}

// TestHealthyConnectionKeptByHeartbeats: with a maxIdleInterval and no
// stall, the server's HEARTBEATs (websocket) and prompt poll answers
// (HTTP) keep every connection for many idle limits.
func TestHealthyConnectionKeptByHeartbeats(t *testing.T) {
	for _, ws := range []PathFault{{}, {Reject: 1, RejectStatus: 403}} {
		noLeaks(t)
		s, err := NewServer(Options{MaxIdleInterval: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		_ = (ProfileFaults{Primary: HostFault{WebSocket: ws}, Fallback: HostFault{WebSocket: ws}}).Apply(s)
		cfg := engine.AblyConfig()
		cfg.Timeouts.RealtimeRequest = 300 * time.Millisecond
		f, err := StartFleet(context.Background(), s, FleetOptions{Clients: 3, Config: cfg})
		if err != nil {
			t.Fatal(err)
		}
		if Summarize(f.WaitConnected(20*time.Second), 0).Connected != 3 {
			t.Fatal("not every client connected")
		}
		time.Sleep(2 * time.Second) // five idle limits
		for i, r := range f.Results() {
			if r.Lost.To != engine.Initialized {
				t.Errorf("websocket fault %+v: client %d lost a healthy connection: %+v", ws, i+1, r.Lost)
			}
		}
		f.Stop()
		s.Close()
	}
}
