package engine

// Auth#authorize on a realtime client (RTC8): what the engine does when
// the SDK's authorize is called, in the shape of the token renewal of
// token.go (docs/decisions.md, the authorize row).

// onAuthorize handles EventAuthorize.
//
// While CONNECTING every connection attempt is halted (RTC8b): every
// transport disposed, the attempt's timers and checks cancelled (a
// renewal in flight among them: its answer is stale), and a token renewal
// asked (`renew-token C<n>` with its timer) with no state change. The
// renewal's answer is the token rows': renewed, a new attempt at once with
// the new token (RTC8b); failed, DISCONNECTED (RSA4c2) or FAILED on a 403
// (RSA4d). The authorize call completes on CONNECTED, or with an error on
// FAILED, SUSPENDED or CLOSED (RTC8b1): the SDK reads that off the state
// changes.
//
// From INITIALIZED, DISCONNECTED, SUSPENDED, CLOSED or FAILED the
// connection connects as on EventConnect (RTC8c; RTC8 for INITIALIZED),
// the attempt starting with the renewal before any transport, as after a
// token error while CONNECTED (ALL-START-renew-token-1).
//
// While CONNECTED nothing: the SDK obtains the token and sends AUTH on the
// active transport (RTC8a); the server's CONNECTED is EventConnectionDetails
// (RTC8a1), its ERROR EventFatal (RTC8a2). While CLOSING nothing: the close
// asked for stands.
func (e *Engine) onAuthorize(out []Action) []Action {
	switch e.state {
	case Connecting:
		out = e.abandonAttempt(out)
		e.renewFirst = true
		return e.startAttempt(out, ReasonReconnect) // no state change
	case Initialized, Disconnected, Suspended, Closed, Failed:
		e.renewFirst = true
		return e.onConnect(out)
	}
	return out
}
