package engine

import (
	"slices"
	"time"

	"github.com/reconnect-go/reconnect"
	"pgregory.net/rapid"
)

// walk is a random walk over an engine's inputs for the property tests:
// the clock, the live timers and the live transports, kept from the
// actions the engine emits (track), and the events drawn (run).
type walk struct {
	now    time.Time
	timers map[TimerID]time.Time
	live   []TransportID
}

func newWalk() *walk {
	return &walk{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), timers: map[TimerID]time.Time{}}
}

// track keeps the timers and transports one action starts or ends.
func (w *walk) track(a Action) {
	switch a.Kind {
	case ActionStartTimer:
		w.timers[a.Timer] = a.Due
	case ActionCancelTimer:
		delete(w.timers, a.Timer)
	case ActionOpenTransport:
		w.live = append(w.live, a.Transport)
	case ActionDisposeTransport:
		w.live = slices.DeleteFunc(w.live, func(id TransportID) bool { return id == a.Transport })
	}
}

// run connects, then feeds step 1 to 60 drawn events: the next timer
// firing (at its due time, or now if that has passed: time never goes
// back, as the engine clamps it), a live transport connecting, failing or
// closing up to 3 s later, or one of user (the user's or the OS's
// events) up to 5 s later.
func (w *walk) run(t *rapid.T, step func(Event), user []EventKind) {
	step(Event{Kind: EventConnect})
	for range rapid.IntRange(1, 60).Draw(t, "steps") {
		switch rapid.IntRange(0, 3).Draw(t, "what") {
		case 0: // the next timer fires
			var next TimerID
			for id, due := range w.timers {
				if next == 0 || due.Before(w.timers[next]) || due.Equal(w.timers[next]) && id < next {
					next = id
				}
			}
			if next == 0 {
				continue
			}
			if due := w.timers[next]; due.After(w.now) {
				w.now = due
			}
			delete(w.timers, next)
			step(Event{Kind: EventTimerFired, Timer: next})
		case 1, 2: // a transport reports
			if len(w.live) == 0 {
				continue
			}
			w.now = w.now.Add(time.Duration(rapid.IntRange(0, 3000).Draw(t, "delayMs")) * time.Millisecond)
			id := rapid.SampledFrom(w.live).Draw(t, "transport")
			kind := rapid.SampledFrom([]EventKind{EventTransportConnected, EventTransportConnected, EventTransportFailed, EventTransportClosed}).Draw(t, "event")
			step(Event{Kind: kind, Transport: id, Failure: reconnect.Failure{Kind: reconnect.FailureRefused}})
		case 3: // the user or the OS
			w.now = w.now.Add(time.Duration(rapid.IntRange(0, 5000).Draw(t, "delayMs")) * time.Millisecond)
			step(Event{Kind: rapid.SampledFrom(user).Draw(t, "event")})
		}
	}
}
