package engine

import (
	"fmt"
	"sort"
	"time"

	"github.com/reconnect-go/reconnect"
)

// engineHarness plays the SDK around an Engine: it performs the actions
// (tracks live transports and timers), and checks after every step the
// promises the engine makes. Everything it checks against comes from its
// own account of what happened (the retry count, which transport is
// pending or active, the failures), never from the engine's accessors,
// which it checks too.
type engineHarness struct {
	e   *Engine
	cfg Config
	now time.Time

	transports map[TransportID]*harnessTransport
	timers     map[TimerID]harnessTimer
	maxTport   TransportID
	maxTimer   TimerID
	// lateTimers is set when the driver may fire timers after they are
	// due (the fuzz target); the rapid test fires them exactly on time.
	lateTimers bool
	// checks are the checks asked for and not known to be over; over
	// lists those the harness knows are no longer in flight (answered,
	// their timer fired or was cancelled, their attempt ended), whose
	// answers must change nothing.
	checks   map[CheckID]harnessCheck
	over     []CheckID
	maxCheck CheckID
	errs     errorModel
	// fired is the timer the drivers took from timers to fire next.
	firedID TimerID
	fired   harnessTimer

	// n is the harness's own RTB1 retry count (RetryCount must agree).
	n int
	// lastFed is the latest time stamped on an event fed to the engine.
	lastFed time.Time

	// For the spacing properties.
	enteredAt     time.Time // when the current DISCONNECTED/SUSPENDED began
	enteredN      int       // the retry count it announced
	retryDue      time.Time
	lastReconnect time.Time
	hadReconnect  bool
}

type harnessTransport struct {
	kind    reconnect.TransportKind
	mode    reconnect.Mode
	host    string
	pending bool
	active  bool
}

// harnessCheck is a check in flight: its kind (the event that answers it)
// and, for a connectivity check, the timer that bounds it.
type harnessCheck struct {
	kind  EventKind
	timer TimerID
}

type harnessTimer struct {
	kind      TimerKind
	due       time.Time
	transport TransportID
}

func newEngineHarness(cfg Config) (*engineHarness, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return &engineHarness{e: e, cfg: cfg, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		transports: map[TransportID]*harnessTransport{}, timers: map[TimerID]harnessTimer{}, checks: map[CheckID]harnessCheck{}}, nil
}

// step feeds ev at h.now and checks the result; it returns a description
// of the first broken promise.
func (h *engineHarness) step(ev Event) error {
	return h.stepAt(h.now, ev)
}

// stepAt feeds ev stamped at, which may be earlier than h.now: the engine
// must treat it as happening at the latest time it has seen, h.now.
func (h *engineHarness) stepAt(at time.Time, ev Event) error {
	if at.After(h.lastFed) {
		h.lastFed = at
	}
	before := h.e.State()
	h.noteEvent(ev)
	checkRule := h.expectPendingRule(ev)
	checkShortCircuit := h.expectShortCircuit(ev)
	staleAnswer := h.isStaleAnswer(ev)
	out := h.e.Step(at, ev, nil)
	if staleAnswer && len(out) > 0 {
		return fmt.Errorf("an answer to check C%d, no longer in flight, was acted on: %v", ev.Check, out)
	}
	if c, ok := h.checks[ev.Check]; ok && c.kind == ev.Kind {
		h.endCheck(ev.Check) // answered (an answer of the other kind is not its)
	}
	if ev.Kind == EventTimerFired {
		h.endCheckOfTimer(ev.Timer)
	}
	if err := checkRule(out); err != nil {
		return err
	}
	if err := checkShortCircuit(out); err != nil {
		return err
	}
	fallbackOpenedAfterDown := false
	for _, a := range out {
		switch a.Kind {
		case ActionOpenTransport:
			if a.Transport <= h.maxTport {
				return fmt.Errorf("transport ID %d reused or out of order", a.Transport)
			}
			h.maxTport = a.Transport
			h.transports[a.Transport] = &harnessTransport{kind: a.TransportKind, mode: a.Mode, host: a.Host}
			if ev.Kind == EventConnectivity && !ev.Up {
				fallbackOpenedAfterDown = true
			}
		case ActionDisposeTransport:
			if h.transports[a.Transport] == nil {
				return fmt.Errorf("dispose of unknown transport T%d", a.Transport)
			}
			delete(h.transports, a.Transport)
		case ActionActivateTransport:
			tr := h.transports[a.Transport]
			if tr == nil {
				return fmt.Errorf("activate of unknown transport T%d", a.Transport)
			}
			tr.active, tr.pending = true, false
		case ActionStartTimer:
			if a.Timer <= h.maxTimer {
				return fmt.Errorf("timer ID %d reused or out of order", a.Timer)
			}
			if a.Due.Before(h.now) {
				return fmt.Errorf("timer %v due in the past", a.TimerKind)
			}
			h.maxTimer = a.Timer
			h.timers[a.Timer] = harnessTimer{kind: a.TimerKind, due: a.Due, transport: a.Transport}
			if a.TimerKind == TimerConnectivityCheck || a.TimerKind == TimerSlowCheck || a.TimerKind == TimerRenewToken {
				// The timer bounds the connectivity check (or the token
				// renewal) asked just before.
				if c, ok := h.checks[h.maxCheck]; ok && (c.kind == EventConnectivity) != (a.TimerKind == TimerRenewToken) && c.timer == 0 {
					c.timer = a.Timer
					h.checks[h.maxCheck] = c
				}
			}
		case ActionCancelTimer:
			if _, ok := h.timers[a.Timer]; !ok {
				return fmt.Errorf("cancel of unknown timer K%d", a.Timer)
			}
			delete(h.timers, a.Timer)
			h.endCheckOfTimer(a.Timer)
		case ActionCheckConnectivity, ActionCheckWebSocket, ActionRenewToken:
			if a.Check <= h.maxCheck {
				return fmt.Errorf("check ID %d reused or out of order", a.Check)
			}
			h.maxCheck = a.Check
			k := EventConnectivity
			switch a.Kind {
			case ActionCheckWebSocket:
				k = EventWebSocketCheck
			case ActionRenewToken:
				k = EventTokenRenewal
				// Auth#authorize (RTC8) asks whatever CanRenewToken says.
				if !h.cfg.CanRenewToken && ev.Kind != EventAuthorize || h.e.State() != Connecting {
					return fmt.Errorf("a token renewal asked for without CanRenewToken (not for authorize), or in %v", h.e.State())
				}
			}
			h.checks[a.Check] = harnessCheck{kind: k}
		case ActionUpdate:
			if err := h.checkUpdate(a); err != nil {
				return err
			}
		case ActionStateChange:
			if a.From == Connecting {
				// The attempt is over, and every check it asked for.
				for id := range h.checks {
					h.endCheck(id)
				}
			}
			if err := h.onStateChange(a); err != nil {
				return err
			}
			if err := h.checkStateFailure(a); err != nil {
				return err
			}
		}
	}
	if fallbackOpenedAfterDown {
		return fmt.Errorf("a transport was opened right after the connectivity check said down")
	}
	if err := h.checkLastError(); err != nil {
		return err
	}
	if got := h.e.RetryCount(); got != h.n {
		return fmt.Errorf("RetryCount %d, but %d retries since the last reset", got, h.n)
	}
	return h.checkInvariants(before, ev)
}

func (h *engineHarness) onStateChange(a Action) error {
	t := h.e.cfg.Timeouts
	if a.From == Initialized || a.From == Closed || a.From == Failed || a.From == Closing && a.To == Connecting {
		h.n = 0 // a fresh connection (RTN11; from CLOSING, RTN11b)
	}
	switch a.To {
	case Connecting:
		switch a.Reason {
		case ReasonRetry:
			if a.From == Suspended && (h.now.Before(h.retryDue) || !h.lateTimers && !h.now.Equal(h.retryDue)) {
				return fmt.Errorf("SUSPENDED retry at %v, due at %v", h.now, h.retryDue)
			}
			if a.From == Disconnected {
				lo, _ := rtb1Bounds(t.DisconnectedRetry, h.enteredN)
				if a.From == Disconnected && h.now.Sub(h.enteredAt) < lo {
					return fmt.Errorf("retry after %v, below the RTB1 lower bound %v for n=%d", h.now.Sub(h.enteredAt), lo, h.enteredN)
				}
			}
		case ReasonReconnect:
			if h.hadReconnect && h.now.Sub(h.lastReconnect) < time.Second {
				return fmt.Errorf("two immediate reconnects %v apart", h.now.Sub(h.lastReconnect))
			}
			h.hadReconnect, h.lastReconnect = true, h.now
		}
	case Disconnected:
		if a.RetryIn == 0 && (a.Reason == ReasonDropped || a.Reason == ReasonNetworkDown) {
			break // the immediate reconnect (RTN15a, RTN20a): no retry number
		}
		h.n++
		lo, hi := rtb1Bounds(t.DisconnectedRetry, h.n)
		if a.RetryIn < lo || a.RetryIn > hi {
			return fmt.Errorf("DISCONNECTED retryIn %v outside [%v, %v] for retry %d", a.RetryIn, lo, hi, h.n)
		}
		h.enteredAt, h.enteredN, h.retryDue = h.now, h.n, h.now.Add(a.RetryIn)
	case Suspended:
		h.n = 0
		if a.RetryIn != t.SuspendedRetry {
			return fmt.Errorf("SUSPENDED retryIn %v, want %v", a.RetryIn, t.SuspendedRetry)
		}
		h.enteredAt, h.retryDue = h.now, h.now.Add(a.RetryIn)
	case Connected:
		h.n = 0
	}
	return nil
}

// rtb1Bounds is RTB1 written out again: upper = min((n+2)/3, 2) × initial,
// lower = 0.8 × upper, widened by a nanosecond each way for rounding.
func rtb1Bounds(initial time.Duration, n int) (lo, hi time.Duration) {
	upper := min(float64(n+2)/3, 2) * float64(initial)
	return time.Duration(0.8*upper) - 1, time.Duration(upper) + 1
}

func (h *engineHarness) checkInvariants(before State, ev Event) error {
	active := 0
	for id, tr := range h.transports {
		if tr.active {
			active++
			continue
		}
		// Every opened transport is eventually disposed or active: while
		// it is neither, its connect timeout is running (under
		// PolicyWebSocketCheck, or the attempt limit: a transport that
		// opened has no timeout of its own there).
		found := false
		for _, tm := range h.timers {
			if tm.kind == TimerConnect && tm.transport == id || tm.kind == TimerAttempt {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("transport T%d is neither active nor timed", id)
		}
	}
	if active > 1 {
		return fmt.Errorf("%d active transports", active)
	}
	st := h.e.State()
	switch st {
	case Connecting:
		// Something must move the attempt on: a transport's connect
		// timeout, the short circuit, the connectivity check's timeout or
		// a websocket-check policy or attempt-limit timer. The state-TTL timer always runs
		// and does not count; nor do the retry, close and flap-hold timers.
		if !h.hasTimer(TimerConnect, TimerShortCircuit, TimerConnectivityCheck, TimerWebSocketSlow, TimerWebSocketGiveUp, TimerAttempt, TimerRenewToken) {
			return fmt.Errorf("stuck CONNECTING: no timer moves the attempt on")
		}
	case Disconnected, Suspended:
		if !h.hasTimer(TimerRetry) {
			return fmt.Errorf("stuck in %v: no retry timer", st)
		}
		if len(h.transports) > 0 {
			return fmt.Errorf("%v with %d transports left open", st, len(h.transports))
		}
	case Closing:
		// With an active transport, the close timer bounds the close
		// (RTN12b); without one (a close while connecting, RTN12f) the
		// attempt's transports are in flight, each with its connect timer
		// (checked above), and CLOSED comes when none is left.
		switch {
		case active > 0 && !h.hasTimer(TimerClose):
			return fmt.Errorf("stuck CLOSING: no close timer")
		case active == 0 && len(h.transports) == 0:
			return fmt.Errorf("stuck CLOSING: no transport left and not CLOSED")
		case active == 0 && h.hasTimer(TimerClose):
			return fmt.Errorf("CLOSING with a close timer and no active transport")
		}
	case Closed, Failed:
		if len(h.transports) > 0 || len(h.timers) > 0 {
			return fmt.Errorf("%v with %d transports and %d timers live", st, len(h.transports), len(h.timers))
		}
		if before == st && ev.Kind != EventConnect && h.e.State() != st {
			return fmt.Errorf("left %v without a connect", st)
		}
	case Connected:
		if active != 1 {
			return fmt.Errorf("CONNECTED with %d active transports", active)
		}
	}
	if st != Connected && st != Closing && active > 0 {
		return fmt.Errorf("%v with an active transport", st)
	}
	return nil
}

// hasTimer reports whether a live timer has one of the kinds.
func (h *engineHarness) hasTimer(kinds ...TimerKind) bool {
	for _, tm := range h.timers {
		for _, k := range kinds {
			if tm.kind == k {
				return true
			}
		}
	}
	return false
}

// nextTimer returns the live timer due first (ties by ID).
func (h *engineHarness) nextTimer() (TimerID, harnessTimer, bool) {
	ids := make([]TimerID, 0, len(h.timers))
	for id := range h.timers {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return 0, harnessTimer{}, false
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := h.timers[ids[i]], h.timers[ids[j]]
		if !a.due.Equal(b.due) {
			return a.due.Before(b.due)
		}
		return ids[i] < ids[j]
	})
	return ids[0], h.timers[ids[0]], true
}

// take removes live timer id to fire it, remembering what it was.
func (h *engineHarness) take(id TimerID) {
	h.firedID, h.fired = id, h.timers[id]
	delete(h.timers, id)
}

// advance moves time forward by up to d, never past the next timer.
func (h *engineHarness) advance(d time.Duration) {
	if _, tm, ok := h.nextTimer(); ok && h.now.Add(d).After(tm.due) {
		d = tm.due.Sub(h.now)
	}
	h.now = h.now.Add(d)
}

func (h *engineHarness) liveIDs() []TransportID {
	ids := make([]TransportID, 0, len(h.transports))
	for id := range h.transports {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// isStaleAnswer reports whether ev answers a check the harness knows is no
// longer in flight (or never was).
func (h *engineHarness) isStaleAnswer(ev Event) bool {
	if ev.Kind != EventConnectivity && ev.Kind != EventWebSocketCheck && ev.Kind != EventTokenRenewal {
		return false
	}
	c, ok := h.checks[ev.Check]
	return !ok || c.kind != ev.Kind
}

// endCheck records that check id is over.
func (h *engineHarness) endCheck(id CheckID) {
	if _, ok := h.checks[id]; ok {
		delete(h.checks, id)
		h.over = append(h.over, id)
	}
}

// endCheckOfTimer records that the check timer id bounds, if any, is over.
func (h *engineHarness) endCheckOfTimer(id TimerID) {
	for c, hc := range h.checks {
		if hc.timer == id {
			h.endCheck(c)
		}
	}
}

// pendingChecks returns the checks of kind k in flight, in ID order.
func (h *engineHarness) pendingChecks(k EventKind) []CheckID {
	var ids []CheckID
	for id, c := range h.checks {
		if c.kind == k {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}
