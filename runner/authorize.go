package runner

// Auth#authorize on a realtime client (RTC8): the SDK tells the runner,
// and the engine decides what the connection does (engine.EventAuthorize).

import "github.com/reconnect-go/reconnect/engine"

// Authorize tells the runner the SDK's Auth#authorize was called (RTC8).
// The token itself is obtained through Options.RenewToken, which the
// runner calls when the engine asks (with the renewal's ID in its context,
// bounded by Timeouts.Renewal as after a token error), so the SDK
// points RenewToken at authorize's token request before calling Authorize;
// with no RenewToken the renewal fails with ErrNoRenewToken.
//
// While CONNECTING every connection attempt is halted (its transports
// closed, a renewal in flight abandoned) and the token asked for; renewed,
// a new attempt starts at once with it (RTC8b). From INITIALIZED,
// DISCONNECTED, SUSPENDED, CLOSED or FAILED the connection connects, the
// token asked for before any transport opens (RTC8c). While CONNECTED the
// SDK sends AUTH itself and the runner does nothing (RTC8a); the server's
// answering CONNECTED is Reporter.Details, its ERROR Runner.Fatal. While
// CLOSING nothing: the close stands. A renewal that fails makes the
// connection DISCONNECTED with a retry, or FAILED when refused with
// status 403 (RSA4d). authorize completes when OnStateChange reports
// CONNECTED, or fails on FAILED, SUSPENDED or CLOSED (RTC8b1).
func (r *Runner) Authorize() { r.post(engine.Event{Kind: engine.EventAuthorize}) }
