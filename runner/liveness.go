package runner

// Liveness (RTN23a): Reporter.Activity only raises a flag of the
// transport's (heard); while the engine's idle timer runs, the runner
// samples the active transport's flag every sampling period and keeps the
// time of the last sample that found it raised, an upper bound of the
// transport's last activity; when the idle timer is due it samples once
// more and feeds that time (engine.EventActivity) just before the timer.
// See "Liveness" in the package doc for the precision this gives.

import (
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// The sampling period: the idle limit divided by samplesPerLimit, at
// least minSamplePeriod, at most the limit itself.
const (
	samplesPerLimit = 8
	minSamplePeriod = 10 * time.Millisecond
)

// IdleSamplePeriod is the period δ at which the runner samples the active
// transport's activity (see "Liveness" in the package doc) for an idle
// limit (maxIdleInterval + Timeouts.IdleSlack, or the client-side
// Config.IdleLimit when the server announces none): limit/8, at least
// 10 ms, at most the limit; 10 ms for a limit of 0 or less. A transport
// whose last message came at L is disconnected between L + limit and
// L + limit + δ.
func IdleSamplePeriod(limit time.Duration) time.Duration {
	p := max(limit/samplesPerLimit, min(limit, minSamplePeriod))
	if p <= 0 {
		p = minSamplePeriod
	}
	return p
}

// sampler is the core's sampling of the active transport's activity flag.
// Owned, like the core, by the goroutine running the engine.
type sampler struct {
	at    time.Time     // the next sample; zero while not sampling
	every time.Duration // the sampling period
	// seen is the time of the last sample that found transport id's flag
	// raised: the transport received something no later than seen.
	seen time.Time
	id   engine.TransportID
	// fixed replaces samplePeriod when not zero (the scenario replay).
	fixed time.Duration
	// firing: the idle timer is being fed, so a restart of it by the
	// engine keeps the period (it is not a new limit).
	firing bool
}

// idleStarted is the engine starting its idle timer at now, due at due:
// the sampling starts if it is not running, and a new limit (one not
// started by the idle timer's own firing) sets the period.
func (c *core) idleStarted(now, due time.Time) {
	s := &c.live
	if !s.firing || s.every <= 0 {
		s.every = IdleSamplePeriod(due.Sub(now))
		if s.fixed > 0 {
			s.every = s.fixed
		}
	}
	if s.at.IsZero() {
		s.at = now.Add(s.every)
	}
}

// sampleDue reports whether a sample is due by now and comes before the
// live timer i (-1 for none).
func (c *core) sampleDue(now time.Time, i int) bool {
	at := c.live.at
	return !at.IsZero() && !at.After(now) && (i < 0 || at.Before(c.timers[i].due))
}

// sample takes a sample due by now and schedules the next, or stops
// sampling when the engine's idle timer is gone (the transport dropped,
// or its details removed the limit).
func (c *core) sample(now time.Time) {
	at := c.live.at
	c.live.at = time.Time{}
	if !c.idleArmed() {
		return
	}
	c.takeActivity()
	next := at.Add(c.live.every)
	if !next.After(now) {
		next = now.Add(c.live.every) // the clock fired late: no catching up
	}
	c.live.at = next
}

// takeActivity lowers the active transport's flag; when it was raised,
// the transport received something since the last sample, no later than
// the time read once the flag is down, which becomes seen.
func (c *core) takeActivity() {
	lt := c.transport(c.activeID)
	if lt == nil {
		return
	}
	if lt.rep.heard.Swap(0) != 0 {
		c.live.seen, c.live.id = time.Now(), lt.id
	}
}

// fireIdle feeds the engine's idle timer id: one last sample, the last
// activity seen (RTN23a; the engine's "activity at=" before "timer
// idle"), then the timer, both at a time read after the sample.
func (c *core) fireIdle(id engine.TimerID) {
	c.takeActivity()
	now := time.Now()
	if lt := c.transport(c.activeID); lt != nil && c.live.id == lt.id && !c.live.seen.IsZero() {
		c.step(now, engine.Event{Kind: engine.EventActivity, Transport: lt.id, LastActivity: c.live.seen})
	}
	c.live.firing = true
	c.stepTimer(now, engine.Event{Kind: engine.EventTimerFired, Timer: id}, engine.TimerIdle, c.activeID)
	c.live.firing = false
	c.idleStopped()
}

// idleStopped stops the sampling when the engine's idle timer is gone
// (cancelled, or fired without starting again). The clock, if set for the
// next sample, fires once more and finds nothing due (see rearm).
func (c *core) idleStopped() {
	if !c.idleArmed() {
		c.live.at = time.Time{}
	}
}

// idleArmed reports whether the engine's idle timer is live.
func (c *core) idleArmed() bool {
	for i := range c.timers {
		if c.timers[i].kind == engine.TimerIdle {
			return true
		}
	}
	return false
}
