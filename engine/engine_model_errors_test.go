package engine

import (
	"fmt"

	"github.com/reconnect-go/reconnect"
)

// The error model of the engine harness: what failure each state change
// must carry and what LastError must say, kept from the events the harness
// fed, never from the engine's state.

// errorModel is the harness's own account of failures.
type errorModel struct {
	attemptErr reconnect.Failure // the last failure of a transport of the current attempt
	stateErr   reconnect.Failure // the failure the change into the current state carried
	lastErr    reconnect.Failure // what LastError must return
	eventErr   reconnect.Failure // the failure the event being stepped carries
	eventKind  EventKind         // the kind of the event being stepped
}

// noteEvent records, before the engine steps ev, the failure ev carries
// and, for a transport of a CONNECTING attempt that fails or times out,
// the attempt's failure.
func (h *engineHarness) noteEvent(ev Event) {
	m := &h.errs
	m.eventErr, m.eventKind = ev.Failure, ev.Kind
	if ev.Failure.Kind == reconnect.FailureNone {
		m.eventErr = reconnect.Failure{}
	}
	if ev.Kind == EventTimerFired && ev.Timer == h.firedID && h.fired.kind == TimerIdle {
		// The idle limit: the active transport is lost with a timeout.
		m.eventErr = reconnect.Failure{Kind: reconnect.FailureTimeout}
	}
	if h.e.State() != Connecting {
		return
	}
	switch ev.Kind {
	case EventTransportFailed, EventTransportClosed:
		if tr := h.transports[ev.Transport]; tr != nil && !tr.active && m.eventErr.Kind != reconnect.FailureNone {
			m.attemptErr = m.eventErr
		}
	case EventTimerFired:
		if tm := h.fired; ev.Timer == h.firedID && tm.kind == TimerConnect && h.transports[tm.transport] != nil && !h.transports[tm.transport].active {
			m.attemptErr = reconnect.Failure{Kind: reconnect.FailureTimeout}
		}
	case EventNetworkUp, EventAuthorize:
		m.attemptErr = reconnect.Failure{} // the attempt starts again without a state change
	case EventTokenRenewal:
		// A renewal in flight that failed: the attempt's failure; renewed,
		// a new attempt starts without a state change, with no failure yet.
		if c, ok := h.checks[ev.Check]; ok && c.kind == EventTokenRenewal {
			if ev.Up {
				m.attemptErr = reconnect.Failure{}
			} else {
				m.attemptErr = m.eventErr
			}
		}
	}
	if ev.Kind == EventTimerFired && ev.Timer == h.firedID && h.fired.kind == TimerRenewToken {
		m.attemptErr = reconnect.Failure{Kind: reconnect.FailureTimeout}
	}
}

// checkStateFailure checks the failure a state change carries against the
// rules of the scenarios' decisions.
func (h *engineHarness) checkStateFailure(a Action) error {
	m := &h.errs
	var want reconnect.Failure
	switch a.To {
	case Connected:
		if m.eventKind == EventTransportConnected {
			want = m.eventErr // the CONNECTED message's error (RTN15c7)
		}
	case Failed:
		want = m.eventErr
	case Disconnected, Suspended:
		switch a.Reason {
		case ReasonDropped:
			want = m.eventErr
		case ReasonNetworkDown:
			want = reconnect.Failure{Kind: reconnect.FailureUnreachable}
		case ReasonStateTTL:
			// RTN14e: the failure of the DISCONNECTED it leaves, or the
			// attempt's; a timeout when there is none.
			want = m.stateErr
			if a.From == Connecting {
				want = m.attemptErr
			}
		case ReasonConnectFailed, ReasonConnectivityDown:
			want = m.attemptErr
		default:
			return fmt.Errorf("%v with reason %v", a.To, a.Reason)
		}
		// RTN14e: SUSPENDED always carries a reason, a timeout when the
		// rules above give none; DISCONNECTED may carry none.
		if a.To == Suspended && want.Kind == reconnect.FailureNone {
			want = reconnect.Failure{Kind: reconnect.FailureTimeout}
		}
	}
	if a.Failure != want {
		return fmt.Errorf("state %v→%v (%v) carries %v, want %v", a.From, a.To, a.Reason, a.Failure, want)
	}
	if a.From == Initialized || a.From == Closed || a.From == Failed || a.From == Closing && a.To == Connecting {
		// A fresh connection (RTN11d; from CLOSING, RTN11b).
		m.lastErr = reconnect.Failure{}
	}
	if want.Kind != reconnect.FailureNone || a.To == Connected {
		m.lastErr = want
	}
	if a.To == Connecting {
		m.attemptErr = reconnect.Failure{}
	}
	m.stateErr = want
	return nil
}

// checkUpdate checks an update: it reports the CONNECTED message's error
// (a later CONNECTED, RTN24, or the upgrade's first), which becomes
// LastError when there is one.
func (h *engineHarness) checkUpdate(a Action) error {
	m := &h.errs
	if a.From != Connected || a.To != Connected || h.e.State() != Connected {
		return fmt.Errorf("update %v→%v in %v", a.From, a.To, h.e.State())
	}
	if a.Failure != m.eventErr {
		return fmt.Errorf("update (%v) carries %v, want %v", a.Reason, a.Failure, m.eventErr)
	}
	if m.eventErr.Kind != reconnect.FailureNone {
		m.lastErr = m.eventErr
	}
	return nil
}

// checkLastError checks LastError after a step.
func (h *engineHarness) checkLastError() error {
	if got := h.e.LastError(); got != h.errs.lastErr {
		return fmt.Errorf("LastError %v, want %v", got, h.errs.lastErr)
	}
	return nil
}
