package engine

import (
	"math"
	"testing"
	"time"
)

// connectedWithIdle returns an engine CONNECTED on transport T1 whose
// CONNECTED message said maxIdleInterval, at now.
func connectedWithIdle(t testing.TB, maxIdle time.Duration, now time.Time) (*Engine, TransportID, []Action) {
	t.Helper()
	cfg := AblyConfig()
	cfg.Transports.HTTP = false
	cfg.Source = constSource(0)
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := e.Step(now, Event{Kind: EventConnect}, nil)
	id := openedTransport(out)
	out = e.Step(now, Event{Kind: EventTransportConnected, Transport: id, Details: Details{MaxIdleInterval: maxIdle}}, out[:0])
	if e.State() != Connected {
		t.Fatalf("state %v", e.State())
	}
	return e, id, out
}

// idleDue returns the due time of the idle timer started in out.
func idleDue(out []Action) (time.Time, bool) {
	for _, a := range out {
		if a.Kind == ActionStartTimer && a.TimerKind == TimerIdle {
			return a.Due, true
		}
	}
	return time.Time{}, false
}

// A maxIdleInterval so large that adding realtimeRequestTimeout overflows
// saturates instead of starting a timer due in the past; a negative one
// counts as none.
func TestIdleLimitSaturatesAndNegativeMeansNone(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	_, _, out := connectedWithIdle(t, math.MaxInt64-time.Second, now)
	due, ok := idleDue(out)
	if !ok || !due.After(now) {
		t.Fatalf("idle timer %v (started %v), want one due after %v", due, ok, now)
	}
	_, _, out = connectedWithIdle(t, -time.Second, now)
	if _, ok := idleDue(out); ok {
		t.Fatalf("a negative maxIdleInterval started the idle timer: %v", out)
	}
}

// Activity only records a time: no action, no allocation, whatever time it
// names; and the idle timer's step allocates nothing either.
func TestActivityAndTheIdleTimerAllocateNothing(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e, id, out := connectedWithIdle(t, 5*time.Second, now)
	due, _ := idleDue(out)
	out = make([]Action, 0, 16)
	for _, ev := range []Event{{Kind: EventActivity, Transport: id}, {Kind: EventActivity, Transport: id, LastActivity: now.Add(time.Hour)},
		{Kind: EventActivity, Transport: id, LastActivity: now.Add(-time.Hour)}, {Kind: EventActivity, Transport: id + 7}} {
		if got := e.Step(now, ev, out[:0]); len(got) != 0 {
			t.Fatalf("%+v gave %v", ev, got)
		}
	}
	if n := testing.AllocsPerRun(100, func() { out = e.Step(now, Event{Kind: EventActivity, Transport: id}, out[:0]) }); n != 0 {
		t.Errorf("EventActivity allocates %v times", n)
	}
	var timer TimerID
	for _, a := range e.Step(now, Event{Kind: EventConnectionDetails, Transport: id, Details: Details{MaxIdleInterval: 5 * time.Second}}, out[:0]) {
		if a.Kind == ActionStartTimer && a.TimerKind == TimerIdle {
			timer, due = a.Timer, a.Due
		}
	}
	// Activity 5 s before each deadline: the timer fires and starts again,
	// allocating nothing.
	fire := func() {
		e.Step(due.Add(-5*time.Second), Event{Kind: EventActivity, Transport: id}, out[:0])
		out = e.Step(due, Event{Kind: EventTimerFired, Timer: timer}, out[:0])
		if len(out) != 1 || out[0].Kind != ActionStartTimer || out[0].TimerKind != TimerIdle {
			t.Fatalf("the idle timer after activity gave %v, want it started again", out)
		}
		timer, due = out[0].Timer, out[0].Due
	}
	if n := testing.AllocsPerRun(100, fire); n != 0 {
		t.Errorf("the idle timer's step allocates %v times", n)
	}
}

// BenchmarkEngineActivity is the cost of reporting one received message
// to the engine (EventActivity on the active transport): a time recorded,
// nothing emitted. An SDK may instead keep the time itself and report it
// only when the idle timer fires (docs/engine.md, Liveness).
func BenchmarkEngineActivity(b *testing.B) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	e, id, _ := connectedWithIdle(b, 15*time.Second, now)
	out := make([]Action, 0, 16)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = now.Add(time.Millisecond)
		out = e.Step(now, Event{Kind: EventActivity, Transport: id}, out[:0])
	}
}
