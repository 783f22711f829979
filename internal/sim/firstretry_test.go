package sim

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// The first-retry rule's delays, worked out by hand from its definition:
// early retries while less than Span has passed since the drop (one when
// Span is 0), the first uniform over [Min, Max], the later ones the same
// draw or, steady, Max × (1 − jitter·u); then RTB1 from retry 1
// (15 s × [0.8, 1] for the first).
func TestFirstRetryDelays(t *testing.T) {
	ms, s := time.Millisecond, time.Second
	steady := FirstRetry{Max: 3500 * ms, Span: 15 * s, Steady: true, Jitter: -1}
	cases := []struct {
		name  string
		f     FirstRetry
		a     int
		t     time.Duration
		u     float64
		early uint32
		want  time.Duration
		after uint32
	}{
		{"one early retry: the first", FirstRetry{Min: 500 * ms, Max: 5 * s}, 1, 0, 0.5, 0, 2750 * ms, 1},
		{"one early retry: then RTB1 retry 1", FirstRetry{Min: 500 * ms, Max: 5 * s}, 2, 3 * s, 0.5, 1, 13500 * ms, 1},
		{"one early retry: RTB1 retry 2", FirstRetry{Min: 500 * ms, Max: 5 * s}, 3, 20 * s, 0, 1, 20 * s, 1},
		{"early retries: uniform each time", FirstRetry{Min: s, Max: 5 * s, Span: 15 * s}, 3, 8 * s, 0.25, 2, 2 * s, 3},
		{"early retries: over at the span", FirstRetry{Min: s, Max: 5 * s, Span: 15 * s}, 5, 15 * s, 0.5, 4, 13500 * ms, 4},
		{"steady: the first is U[0, P]", steady, 1, 0, 0.2, 0, 700 * ms, 1},
		{"steady: then exactly P", steady, 2, 700 * ms, 0.9, 1, 3500 * ms, 2},
		{"steady: still P just before the span", steady, 5, 15*s - ms, 0.1, 4, 3500 * ms, 5},
		{"steady: RTB1 retry 1 after the span", steady, 6, 15 * s, 0, 5, 15 * s, 5},
		{"steady with RTB1's jitter", FirstRetry{Max: 4 * s, Span: 15 * s, Steady: true}, 2, s, 0.5, 1, 3600 * ms, 2},
		{"off", FirstRetry{}, 1, 0, 0.5, 0, 13500 * ms, 0},
	}
	for _, c := range cases {
		early := c.early
		got := c.f.delay(c.a, c.t, c.u, &early, reconnect.DefaultTimeouts().DisconnectedRetry)
		if got != c.want || early != c.after {
			t.Errorf("%s: delay %v, early retries %d; want %v, %d", c.name, got, early, c.want, c.after)
		}
	}
	bad := []FirstRetry{{Min: 2 * s, Max: s}, {Min: -1}, {Max: time.Hour}, {Max: s, Span: -1}, {Span: s}, {Max: s, Jitter: 1.5}}
	for _, f := range bad {
		if f.validate() == nil {
			t.Errorf("%+v validated", f)
		}
	}
	if got := steady.String(); got != "U[0s, 3.5s] then every 3.5s for 15s" {
		t.Errorf("String: %q", got)
	}
}

// The accept peak is the most accepts within any one second, sliding by
// the millisecond: 3 at 0, 999 and 999 ms (one second) but not with the
// one at 1000 ms (the next).
func TestAcceptWindow(t *testing.T) {
	var w acceptWindow
	for _, a := range []struct {
		slot int64
		cum  int
	}{{0, 1}, {999, 3}, {1000, 4}, {1999, 4}, {2500, 6}} {
		w.add(a.slot, a.cum)
	}
	if w.peak != 3 {
		t.Fatalf("peak %d, want 3", w.peak)
	}
	// A storm of 1,000 clients that all come back at the downtime (the
	// immediate reconnect is refused, RTB1's retry is 12–15 s, the server
	// is back at 10 s): every accept falls within 3 s, so the peak is at
	// least a third of them, and no more than all.
	r, err := Storm(StormConfig{Clients: 1000, Strategy: StrategyRTB1, Timeouts: reconnect.DefaultTimeouts(), Downtime: 10 * time.Second, Horizon: time.Minute, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.AcceptPeak < 333 || r.AcceptPeak > 1000 || r.Reconnected != 1000 {
		t.Fatalf("accept peak %d, reconnected %d", r.AcceptPeak, r.Reconnected)
	}
}

// The front: Pareto marks the points nothing dominates, and the choice is
// the fastest rule ahead of every peer for no higher peak than any peer's.
func TestParetoAndChoice(t *testing.T) {
	s := time.Second
	ps := []FrontPoint{
		{Name: "socketio", Strategy: StrategySocketIO, T99: 10 * s, AcceptPeak: 31},
		{Name: "centrifuge-js", Strategy: StrategyCentrifugeJS, T99: 13 * s, AcceptPeak: 29},
		{Name: "fast but loud", Rule: true, T99: 7 * s, AcceptPeak: 60},
		{Name: "chosen", Rule: true, T99: 8500 * time.Millisecond, AcceptPeak: 29},
		{Name: "slower, quieter", Rule: true, T99: 9 * s, AcceptPeak: 25},
		{Name: "too slow", Rule: true, T99: 10 * s, AcceptPeak: 20},
		{Name: "dominated", Rule: true, T99: 9500 * time.Millisecond, AcceptPeak: 29},
	}
	markPareto(ps)
	want := []bool{false, false, true, true, true, true, false}
	for i, p := range ps {
		if p.Pareto != want[i] {
			t.Errorf("%s: Pareto %v", p.Name, p.Pareto)
		}
	}
	c, ok := ChooseFirstRetry(ps, []Strategy{StrategySocketIO, StrategyCentrifugeJS})
	if !ok || c.Name != "chosen" {
		t.Fatalf("chose %q (%v)", c.Name, ok)
	}
	if _, ok := ChooseFirstRetry(ps[:3], []Strategy{StrategySocketIO, StrategyCentrifugeJS}); ok {
		t.Fatal("chose a rule with a higher peak")
	}
}

// The chosen default, on the restart the lab runs (5 s down), at 100,000
// clients: ahead of socket.io and centrifuge-js in time to 99 % back, for
// no higher accept peak, and in step with the simulator's engine rules
// (the immediate reconnect refused, then U[0, P], then every P).
func TestChosenFirstRetryBeatsThePeers(t *testing.T) {
	base := StormConfig{Clients: 100000, Timeouts: reconnect.DefaultTimeouts(), Downtime: 5 * time.Second, Horizon: 2 * time.Minute, Seed: 1}
	rule := FirstRetry{Max: 3500 * time.Millisecond, Span: base.Timeouts.DisconnectedRetry, Steady: true, Jitter: -1}
	ps, err := RestartFront(base, []Strategy{StrategySocketIO, StrategyCentrifugeJS}, []FirstRetry{rule}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ours := ps[2]
	for _, p := range ps[:2] {
		if ours.T99 >= p.T99 || ours.AcceptPeak > p.AcceptPeak {
			t.Errorf("%s: 99 %% back %v, peak %d; %s: %v, %d", ours.Name, ours.T99, ours.AcceptPeak, p.Name, p.T99, p.AcceptPeak)
		}
	}
	// Back between the downtime and the downtime plus one period.
	if ours.T99 < base.Downtime || ours.T99 > base.Downtime+rule.Max {
		t.Errorf("99 %% back at %v, want within [5 s, 8.5 s]", ours.T99)
	}
}
