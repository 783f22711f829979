package runner

import (
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// The engine's timers live in r.timers with their due times; one
// time.Timer per runner (r.clock) is set for the earliest of them, and when
// it fires the timer's goroutine feeds every timer that is due, earliest first (ties in
// the order the engine started them). A timer that has fired is finished:
// it leaves r.timers before the engine hears of it.

// rearm makes sure r.clock fires no later than the earliest live timer;
// now is the time, or zero to read the clock if needed. It only ever
// brings the clock forward: a clock set for a timer since cancelled or
// fired late fires early, finds nothing due and is set again, which costs
// one wake-up instead of a Reset or Stop at every step.
func (r *Runner) rearm(now time.Time) {
	i := r.earliest()
	if i < 0 {
		return
	}
	due := r.timers[i].due
	if !r.armed.IsZero() && !due.Before(r.armed) {
		return
	}
	r.armed = due
	if now.IsZero() {
		now = time.Now()
	}
	if r.clock == nil {
		r.clock = time.AfterFunc(due.Sub(now), r.timersDue)
		return
	}
	r.clock.Reset(due.Sub(now))
}

// stopClock stops r.clock for good: the runner is stopping.
func (r *Runner) stopClock() {
	if r.clock != nil {
		r.clock.Stop()
	}
	r.armed = time.Time{}
}

// timersDue runs when r.clock fires, on the timer's goroutine: it feeds
// the engine the timers that are due.
func (r *Runner) timersDue() {
	r.mu.Lock()
	if r.stopping {
		r.mu.Unlock()
		return
	}
	r.inbox = append(r.inbox, item{kind: itemTimers})
	r.turn(true)
}

// fireDue feeds the engine every timer due by now, earliest first.
func (r *Runner) fireDue() {
	r.armed = time.Time{} // the clock has fired
	for {
		now := time.Now()
		i := r.earliest()
		if i < 0 || r.timers[i].due.After(now) {
			r.rearm(now)
			return
		}
		id := r.timers[i].id
		r.removeTimer(i)
		r.step(now, engine.Event{Kind: engine.EventTimerFired, Timer: id})
	}
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
