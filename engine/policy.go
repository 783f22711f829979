package engine

import "github.com/reconnect-go/reconnect"

// What the policies do differently, each difference written once: the rest
// of the engine asks these and never reads Config.Policy itself.

// usesWebSocketCheck reports whether the engine runs PolicyWebSocketCheck,
// ably-js 2.28.0's connection manager. Then each attempt has a time limit
// (TimerAttempt); a transport that turns viable ends its own connect
// timeout and the websocket watch's timers (onOpened); a viable transport
// lost before CONNECTED ends the attempt (onPendingLost); an active HTTP
// transport is never upgraded; the flapping guard is off; and the
// transport preference is always kept (usesPreference).
func (e *Engine) usesWebSocketCheck() bool {
	return e.cfg.Policy == PolicyWebSocketCheck
}

// watchesWebSocket reports whether attempts run PolicyWebSocketCheck's
// websocket watch (startWSCheckAttempt): the policy, with websockets
// available (with or without HTTP).
func (e *Engine) watchesWebSocket() bool {
	return e.usesWebSocketCheck() && e.cfg.Transports.WebSocket
}

// walkStopped reports whether a failed websocket check stopped the
// attempt's websocket walk: no fallback host follows, and the give-up
// timer decides.
func (e *Engine) walkStopped() bool {
	return e.usesWebSocketCheck() && e.att.flow == reconnect.WebSocket && e.att.wsCheck == wsCheckFailed
}

// walkMayGiveUpToHTTP reports whether the attempt's websocket walk, once
// nothing of it is in flight, gives up to HTTP as the websocket check
// decides (maybeEndAttempt) instead of ending the attempt.
func (e *Engine) walkMayGiveUpToHTTP() bool {
	return e.usesWebSocketCheck() && e.att.flow == reconnect.WebSocket && e.cfg.Transports.HTTP
}

// upgradesHTTP reports whether an active HTTP transport opens an upgrade
// websocket (reconnect.UpgradeAfterActivation): under every policy but
// PolicyWebSocketCheck.
func (e *Engine) upgradesHTTP() bool {
	return !e.usesWebSocketCheck()
}

// usesPreference reports whether the engine remembers and uses the
// transport preference: always under PolicyWebSocketCheck, with
// Config.RememberTransport under the others.
func (e *Engine) usesPreference() bool {
	return e.usesWebSocketCheck() || e.cfg.RememberTransport
}

// firstStep is the policy's first transport for an attempt that starts
// without a preference: PolicyWebSocketFirst's chooseTransport (a websocket,
// with the short-circuit timer when HTTP is available too); otherwise HTTP,
// or a websocket when HTTP is not available.
func (e *Engine) firstStep() reconnect.FirstStep {
	switch {
	case e.cfg.Policy == PolicyWebSocketFirst:
		return reconnect.ChooseTransport(e.cfg.Transports, e.cfg.ShortCircuit)
	case !e.cfg.Transports.HTTP:
		return reconnect.FirstStep{Transport: reconnect.WebSocket}
	}
	return reconnect.FirstStep{Transport: reconnect.HTTP}
}

// closeAbandonsAttempt reports whether close() while CONNECTING ends the
// attempt at once, disposing its transports (CLOSING, then CLOSED in the
// same step, as ably-js 2.28.0's closeImpl does): under
// PolicyWebSocketCheck. The other policies let the transports in flight
// finish (RTN12f): one that connects is closed with a CLOSE (RTN12a).
func (e *Engine) closeAbandonsAttempt() bool {
	return e.usesWebSocketCheck()
}

// capsFallbacks reports whether the realtime host walk stops after
// httpMaxRetryCount fallback hosts, as ably-js 2.28.0 does: under
// PolicyWebSocketCheck. The other policies walk every fallback host
// (RTN17j: "retry the connection against fallback domains in random
// order"; httpMaxRetryCount, TO3l5, is for HTTP requests).
func (e *Engine) capsFallbacks() bool {
	return e.usesWebSocketCheck()
}

// adaptsShortCircuit reports whether a websocket's dial report may bring
// the short-circuit timer forward (AdaptiveShortCircuit): under
// PolicyWebSocketFirst with Config.Adaptive on. PolicyWebSocketCheck keeps
// ably-js 2.28.0's timers, and PolicyHTTPFirst has no short circuit.
func (e *Engine) adaptsShortCircuit() bool {
	return e.cfg.Policy == PolicyWebSocketFirst && e.cfg.Adaptive.On()
}
