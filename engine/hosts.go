package engine

import "github.com/reconnect-go/reconnect"

// Host fallback: the connectivity check before each fallback host (RTN17j)
// and before an attempt that starts on a fallback host (RTN17f1).

// hostCount is how many hosts the flow may use: the primary and
// fallbackCount fallbacks.
func (e *Engine) hostCount() int {
	return 1 + e.fallbackCount()
}

// fallbackCount is how many fallback hosts an attempt may walk: every one
// (RTN17j sets no cap), or at most httpMaxRetryCount under
// PolicyWebSocketCheck, as ably-js 2.28.0 does (capsFallbacks).
func (e *Engine) fallbackCount() int {
	if e.capsFallbacks() {
		return min(e.cfg.Timeouts.HTTPMaxRetryCount, len(e.hosts.Fallbacks))
	}
	return len(e.hosts.Fallbacks)
}

// askConnectivity asks for a connectivity check of purpose p, with its
// httpRequestTimeout timer.
func (e *Engine) askConnectivity(out []Action, p checkPurpose) []Action {
	e.lastCheck++
	e.att.check, e.att.checkID = p, e.lastCheck
	out, a := pushAction(out)
	a.Kind, a.Check = ActionCheckConnectivity, e.att.checkID
	return e.startTimer(out, TimerConnectivityCheck, e.cfg.Timeouts.HTTPRequest, 0)
}

// onConnectivity handles the answer to the connectivity check (a timeout
// counts as down): down ends the attempt, up opens the flow on the next
// fallback host, or the attempt's first transports on the first fallback
// host for a forced check.
func (e *Engine) onConnectivity(out []Action, up bool) []Action {
	purpose := e.att.check
	e.att.check = checkNone
	if purpose == checkFallback && e.walkStopped() {
		return out // the give-up timer decides
	}
	if !up {
		// RTN17j: the internet is down, so no fallback host; and nothing
		// else of this attempt can succeed either.
		return e.enterDisconnected(out, ReasonConnectivityDown, e.att.err)
	}
	if len(e.att.order) == 0 {
		e.att.order = reconnect.AppendHostOrder(e.att.order, e.hosts, e.fallbackCount(), e.src)
	}
	if purpose == checkForced {
		e.att.firstHost = 1
		return e.firstTransports(out)
	}
	e.att.flowHost++
	return e.open(out, e.att.flow, e.att.order[e.att.flowHost], e.connectMode(), roleFlow)
}
