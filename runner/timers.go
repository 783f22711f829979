package runner

import (
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// The engine's timers live in core.timers with their due times; one
// time.Timer per runner (core.clock) is set for the earliest of them, and
// when it fires the timer's goroutine feeds every timer that is due,
// earliest first (ties in the order the engine started them). A timer
// that has fired is finished: it leaves core.timers before the engine
// hears of it; a cancelled one is dropped without touching the clock
// (see rearm). While the idle timer runs, the same clock also serves
// the samples of the active transport's activity (liveness.go).

// rearm makes sure c.clock fires no later than the earliest live timer
// or the next activity sample (liveness.go); now is the time, or zero to
// read the clock if needed. It only ever brings the clock forward: a clock
// set for a timer since cancelled or fired late fires early, finds nothing
// due and is set again, which costs one wake-up instead of a Reset or Stop
// at every step.
func (c *core) rearm(now time.Time) {
	due := c.live.at
	if i := c.earliest(); i >= 0 && (due.IsZero() || c.timers[i].due.Before(due)) {
		due = c.timers[i].due
	}
	if due.IsZero() {
		return
	}
	if !c.armed.IsZero() && !due.Before(c.armed) {
		return
	}
	c.armed = due
	if now.IsZero() {
		now = time.Now()
	}
	if c.clock == nil {
		c.clock = time.AfterFunc(due.Sub(now), c.r.timersDue)
		return
	}
	c.clock.Reset(due.Sub(now))
}

// stopClock stops c.clock for good: the runner is stopping.
func (c *core) stopClock() {
	if c.clock != nil {
		c.clock.Stop()
	}
	c.armed = time.Time{}
	c.live.at = time.Time{}
}

// timersDue runs when the core's clock fires, on the timer's goroutine: it
// queues the timers' turn (see core.fireDue).
func (r *Runner) timersDue() {
	r.mu.Lock()
	if r.sh.stopping {
		r.mu.Unlock()
		return
	}
	r.sh.inbox = append(r.sh.inbox, item{kind: itemTimers})
	r.turn(ownCaller)
}

// fireDue feeds the engine every timer due by now, earliest first, and
// takes the activity samples due meanwhile (liveness.go).
func (c *core) fireDue() {
	c.armed = time.Time{} // the clock has fired
	for {
		now := time.Now()
		i := c.earliest()
		if c.sampleDue(now, i) {
			c.sample(now)
			continue
		}
		if i < 0 || c.timers[i].due.After(now) {
			c.rearm(now)
			return
		}
		id, kind, tr := c.timers[i].id, c.timers[i].kind, c.timers[i].tr
		c.removeTimer(i)
		if kind == engine.TimerIdle {
			c.fireIdle(id)
			continue
		}
		c.stepTimer(now, engine.Event{Kind: engine.EventTimerFired, Timer: id}, kind, tr)
	}
}

// earliest returns the index of the live timer due first (the one started
// first among equals), or -1.
func (c *core) earliest() int {
	best := -1
	for i, t := range c.timers {
		if best < 0 || t.due.Before(c.timers[best].due) || t.due.Equal(c.timers[best].due) && t.id < c.timers[best].id {
			best = i
		}
	}
	return best
}

func (c *core) timerIndex(id engine.TimerID) int {
	for i := range c.timers {
		if c.timers[i].id == id {
			return i
		}
	}
	return -1
}

func (c *core) removeTimer(i int) {
	last := len(c.timers) - 1
	c.timers[i] = c.timers[last]
	c.timers = c.timers[:last]
}
