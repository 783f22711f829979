package runner

import (
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// The engine's timers live in r.timers with their due times; one
// time.Timer per runner (r.clock) is set for the earliest of them, and when
// it fires the loop feeds every timer that is due, earliest first (ties in
// the order the engine started them). A timer that has fired is finished:
// it leaves r.timers before the engine hears of it.

// rearm sets r.clock for the earliest live timer, or stops it when there is
// none.
func (r *Runner) rearm() {
	i := r.earliest()
	if i < 0 {
		if r.clock != nil && !r.armed.IsZero() {
			r.clock.Stop()
			r.armed = time.Time{}
		}
		return
	}
	due := r.timers[i].due
	if due.Equal(r.armed) {
		return
	}
	r.armed = due
	if r.clock == nil {
		r.clock = time.AfterFunc(time.Until(due), r.timersDue)
		return
	}
	r.clock.Reset(time.Until(due))
}

// timersDue runs when r.clock fires: it wakes the loop.
func (r *Runner) timersDue() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopping {
		r.enqueue(item{kind: itemTimers})
	}
}

// fireDue feeds the engine every timer due by now, earliest first.
func (r *Runner) fireDue() {
	r.armed = time.Time{} // the clock has fired
	for {
		i := r.earliest()
		if i < 0 || r.timers[i].due.After(time.Now()) {
			break
		}
		id := r.timers[i].id
		r.removeTimer(i)
		r.step(engine.Event{Kind: engine.EventTimerFired, Timer: id})
	}
	r.rearm()
}

// earliest returns the index of the live timer due first (the one started
// first among equals), or -1.
func (r *Runner) earliest() int {
	best := -1
	for i, t := range r.timers {
		if best < 0 || t.due.Before(r.timers[best].due) || t.due.Equal(r.timers[best].due) && t.id < r.timers[best].id {
			best = i
		}
	}
	return best
}

func (r *Runner) timerIndex(id engine.TimerID) int {
	for i := range r.timers {
		if r.timers[i].id == id {
			return i
		}
	}
	return -1
}

func (r *Runner) removeTimer(i int) {
	last := len(r.timers) - 1
	r.timers[i] = r.timers[last]
	r.timers = r.timers[:last]
}
