package engine

import "github.com/reconnect-go/reconnect"

// Host fallback and checks: the connectivity check before each fallback
// host (RTN17j) and PolicyWebSocketCheck's websocket check.

// hostCount is how many hosts the flow may use: the primary and at most
// httpMaxRetryCount fallbacks.
func (e *Engine) hostCount() int {
	return 1 + min(e.cfg.Timeouts.HTTPMaxRetryCount, len(e.hosts.Fallbacks))
}

func (e *Engine) onConnectivity(out []Action, up bool) []Action {
	purpose := e.check
	e.check = checkNone
	if purpose == checkFallback && e.cfg.Policy == PolicyWebSocketCheck && e.flow == reconnect.WebSocket && e.wsCheck == wsCheckFailed {
		return out // the failed websocket check stopped the walk: the give-up timer decides
	}
	if !up {
		// RTN17j: the internet is down, so no fallback host; and nothing
		// else of this attempt can succeed either.
		out = e.disposeWhere(out, func(*transportSlot) bool { return true })
		return e.enterDisconnected(out, ReasonConnectivityDown, e.attemptErr)
	}
	if len(e.order) == 0 {
		e.order = reconnect.AppendHostOrder(e.order, e.hosts, e.cfg.Timeouts.HTTPMaxRetryCount, e.src)
	}
	if purpose == checkForced {
		e.firstHost = 1
		return e.firstTransports(out)
	}
	e.flowHost++
	return e.open(out, e.flow, e.order[e.flowHost], e.connectMode(), roleFlow)
}

// switchToHTTP abandons the websocket flow for the HTTP one
// (PolicyWebSocketCheck).
func (e *Engine) switchToHTTP(out []Action) []Action {
	out = e.disposeWhere(out, func(*transportSlot) bool { return true })
	// The slow connectivity check goes on: its "down" still ends the attempt.
	out = e.cancelTimers(out, TimerWebSocketSlow, TimerWebSocketGiveUp, TimerConnectivityCheck)
	e.check = checkNone
	e.flow = reconnect.HTTP
	return e.startFlow(out)
}

func (e *Engine) onWebSocketCheck(out []Action, up bool) []Action {
	if e.prefCheck {
		return e.onPreferenceCheck(out, up)
	}
	if up {
		e.wsCheck = wsCheckPassed
	} else {
		e.wsCheck = wsCheckFailed
	}
	if e.state != Connecting || e.flow != reconnect.WebSocket {
		return out
	}
	return e.maybeEndAttempt(out)
}

// askConnectivity asks for a connectivity check of purpose p, with its
// httpRequestTimeout timer.
func (e *Engine) askConnectivity(out []Action, p checkPurpose) []Action {
	e.lastCheck++
	e.check, e.checkID = p, e.lastCheck
	out = append(out, Action{Kind: ActionCheckConnectivity, Check: e.checkID})
	return e.startTimer(out, TimerConnectivityCheck, e.cfg.Timeouts.HTTPRequest, 0)
}

// askWebSocketCheck asks for a websocket check.
func (e *Engine) askWebSocketCheck(out []Action) []Action {
	e.lastCheck++
	e.wsCheck, e.wsCheckID = wsCheckPending, e.lastCheck
	return append(out, Action{Kind: ActionCheckWebSocket, Check: e.wsCheckID})
}
