// Package runner runs one realtime connection, for Go SDK authors: it owns
// the event loop around an engine.Engine, with real timers, the SDK's
// transports and the connectivity checks, so that an SDK does not write
// that loop itself.
//
// The SDK gives New an engine.Config and a Dialer that opens its
// transports; it calls Connect, Close, NetworkUp, NetworkDown and Authorize
// (for Auth#authorize, RTC8), waits for the first attempt's outcome with
// WaitConnected, sends messages through Active, and hears about state
// changes through Options.OnStateChange; its transports hear when they
// become and stop being the active one, and why (Notified, CauseCloser).
// Classify turns the Go errors its transports meet into the
// reconnect.Failure they report, keeping the error inside it.
// The engine's own details (timer and transport IDs, fired timers, when to
// send CLOSE) stay inside the runner.
//
//	cfg := engine.Defaults()
//	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com", FallbackHosts: []string{"rt-b.example.com"}}
//	r, err := runner.New(ctx, runner.Options{
//		Config:            cfg,
//		Dialer:            myDialer{},                    // opens your websocket and HTTP transports
//		CheckConnectivity: myCheck,                       // or runner.NoConnectivityCheck
//		OnStateChange:     func(c runner.StateChange) { log.Println(c.From, "→", c.To, c.Reason, c.Failure) },
//	})
//	if err != nil { … } // a *reconnect.FieldError naming the field
//	r.Connect()
//
// Nothing defaults to a vendor's hosts: the endpoint and the connectivity
// check are required, and Ably's are presets (engine.AblyConfig,
// AblyConnectivityCheck, AblyWebSocketCheck). A complete client over a
// real websocket and HTTP: examples/client in this repository.
//
// # When a transport reports viable and connected
//
// The engine decides between transports by two moments of each (the
// setTransportPending table and the short-circuit timer depend on them), so
// a transport must report them exactly:
//
//   - WebSocket. Viable: the opening handshake has completed, that is the
//     server answered 101 Switching Protocols with a valid
//     Sec-WebSocket-Accept and the socket is open (a browser's "open"
//     event). Connected: the first realtime CONNECTED protocol message has
//     arrived on that socket.
//   - HTTP (long-poll or comet). Viable: the connect request (the first
//     request, carrying the connection's parameters and mode) has received
//     a 2xx response status. Connected: a realtime CONNECTED protocol
//     message has arrived in a response body. A server that answers the
//     connect request with CONNECTED at once gives both moments together:
//     report Viable, then Connected.
//
// # Transport reports
//
// A transport that ends reports it once, with the reconnect.Failure that
// says how: Failed if it ended before it reported Viable (the dial, the
// handshake or the connect request failed), Closed once it has reported
// Viable, whether CONNECTED came or not. A fatal ERROR protocol message is
// reported with Fatal instead of either. The runner treats Failed and
// Closed alike: either ends the transport, and what follows depends on the
// Failure and on whether the engine had made the transport the active one
// (the attempt moves on, or the connection drops), never on which of the
// two was called. Nothing is reported after Close: a transport the runner
// has closed need not report.
//
// The CONNECTED protocol message is reported with ConnectedWith, which
// carries what the engine uses of its connectionDetails (engine.Details:
// connectionStateTtl and maxIdleInterval, RTN21) and its error; Connected
// is the form without either. A later CONNECTED message on the same
// transport is reported with Details (RTN24), and gives an Update.
//
// Dialed(rtt), optional, says early that the transport's TCP connection
// (and TLS session) is up and how long that took; with
// engine.Config.Adaptive on it lets the websocket's head start follow the
// observed round trip (engine.AdaptiveShortCircuit).
//
// The Failure: FailureDNS, FailureUnreachable or FailureRefused from the
// dial; FailureHTTPStatus with Status and the Server header for a rejected
// handshake or connect request (for example 403 from a proxy that rejects
// websockets); FailureDisconnected with the error's statusCode for a
// DISCONNECTED protocol message; FailureToken for a token error; the zero
// Failure for a clean close (the server's CLOSED after RequestClose).
// Classify and CloseStatusFailure map Go errors and close statuses. Do not
// report a timeout: the runner gives each transport Timeouts.Connect
// (realtimeRequestTimeout unless set) to connect and fails it with
// FailureTimeout itself.
//
// # Transport notices
//
// A transport follows the runner through the calls the runner makes into
// it, with no state machine of its own: a Transport that implements
// Notified hears Activated when the engine makes it the connection's
// active transport, and Deactivated(why) when it stops being it; one that
// implements CauseCloser is closed with CloseFor(why) in place of Close.
// Both interfaces are optional, checked once per transport when
// Dialer.Open returns. For one transport the calls come in this order,
// each once at most: Activated, RequestClose (a close), Deactivated(why)
// (only after Activated), then Close or CloseFor(why), always last. They
// are the runner's calls into the transport, made as every such call is
// (see "Goroutines"), and each comes before anything else the runner does
// with that transport from then on: Active returns a Notified transport
// only once its Activated has returned, and no longer returns it by the
// time Deactivated is called; the state change or update the same event
// makes is delivered after the calls.
//
// The Cause is derived from the event that made the engine give the
// transport up, the first rule that matches: a fatal error (CauseFatal);
// anything while the connection was CLOSING, or Close itself
// (CauseCloseRequested); the transport's own Failed or Closed
// (CauseEnded); NetworkDown (CauseNetworkDown); another transport
// turning viable or connected, the upgrade among them (CauseSuperseded);
// its connect timer (CauseConnectTimeout); the idle timer
// (CauseIdleTimeout); the runner stopping (CauseStopped); anything else
// (CauseAbandoned, or CauseFatal when the same event makes the connection
// FAILED). A StateChange names the transport it concerns (TransportID,
// TransportKind, Host, and the Transport value Open returned).
//
// # Updates
//
// While CONNECTED the state never changes to CONNECTED again (RTN4h):
// when the connection's conditions change without a state change,
// OnStateChange receives a StateChange with Update set, From and To both
// CONNECTED, the active transport's kind and host, and the error if any.
// Its Reason says what changed: engine.ReasonTransport when another
// transport became the active one (the upgrade websocket taking over
// from HTTP: the SDK always knows the active transport this way),
// engine.ReasonDetails when the active transport reported a later
// CONNECTED message (Reporter.Details, RTN24). Code that follows the
// state skips changes with Update set.
//
// # Liveness
//
// A CONNECTED message whose details (ConnectedWith) carry a
// maxIdleInterval m arms the engine's idle timer (RTN23a), and so does
// one without when Config.IdleLimit is set (the client-side limit): a
// transport that receives nothing for D = m + Timeouts.IdleSlack
// (realtimeRequestTimeout unless set), or D = Config.IdleLimit, is
// disconnected as a drop with FailureTimeout and the connection
// reconnects (RTN15). The transport calls Reporter.Activity for every
// message it receives; that call only raises a flag of the transport's
// (one atomic load once it is raised: no clock read, no lock). While the
// idle timer runs, the runner samples the active transport's flag every
// δ = D/8 (at least 10 ms, at most D), lowering it, and keeps the time of
// the last sample that found it raised: no earlier than the activity it
// saw. When the idle timer is due, the runner samples once more, feeds
// the engine that time (engine.EventActivity with LastActivity) and then
// the timer, so the engine runs once per idle limit, not once per
// message, and the timer starts again from the last activity seen while
// messages come.
//
// The precision this gives: with the last message received at L, the
// transport is disconnected no earlier than L + D, and by L + D + δ (a
// message between two samples counts as received at the later one); a
// transport that reports no activity at all is disconnected exactly D
// after its CONNECTED message. For the defaults (maxIdleInterval 15 s,
// realtimeRequestTimeout 10 s) D is 25 s and δ 3.125 s. The samples cost
// one wake-up of the runner's timer per δ per connection while the idle
// timer runs, and none without one.
//
// # Token renewal
//
// A transport reports a token error (statusCode 401 with a code from
// 40140 to 40149) as a Failure of kind reconnect.FailureToken. With
// Options.RenewToken set, the engine then asks for one renewal (RTN14b,
// RTN15h): the runner calls RenewToken on a goroutine of its own, bounded
// by Timeouts.Renewal (realtimeRequestTimeout unless set), and on nil
// connects again at once; an error
// is mapped by RenewalFailure (a *StatusError 403 makes the connection
// FAILED, RSA4d; anything else DISCONNECTED with a retry). Without it (and
// without Config.CanRenewToken) a token error makes the connection FAILED
// (RTN15h1).
//
// # Closing
//
// Close on a CONNECTED connection enters CLOSING; the runner then calls
// RequestClose on the active transport, which sends the CLOSE protocol
// message (RTN12a). The connection becomes CLOSED when the transport
// reports Closed, or Timeouts.Closing (realtimeRequestTimeout unless set)
// later at the latest, and the
// runner closes the transport. Close on a CONNECTING connection enters
// CLOSING too (RTN12f): the transports in flight go on, and one that
// reports Connected becomes active and gets RequestClose as above; when
// none is left the connection is CLOSED (under PolicyWebSocketCheck it is
// CLOSED at once, as ably-js does). From INITIALIZED, DISCONNECTED or
// SUSPENDED Close goes CLOSED at once; FAILED ignores it. Connect while
// CLOSING closes the transports and makes a new connection (RTN11b).
// Close does not stop the runner; cancelling its context does.
//
// # Goroutines
//
// The engine runs on the goroutine that brings it an event: a call of the
// SDK's (a method of the Runner or of a Reporter), the timer's, a check's
// or an Open's. One goroutine runs it at a time; an event that arrives
// meanwhile is queued for that goroutine, so no call waits for another.
// Without Options.Inline (see "Inline calls" for what it changes), a call
// of the SDK's into the Runner or a Reporter blocks on nothing but the
// runner's own short lock and never runs the SDK's code, so the SDK may
// hold its own locks while it calls them, and a transport's Close may wait
// for a goroutine that is reporting:
//
//   - Dialer.Open runs on a goroutine of its own for each transport, so a
//     blocking Open stalls nothing; Opens of different transports may
//     overlap.
//   - The calls into a Transport (RequestClose, Close, and the notices
//     Activated, Deactivated and CloseFor), one call at a time in the
//     order the engine decided them, and OnStateChange, one change at a
//     time in order, run on a goroutine of the runner's, started while
//     there is such work, so an idle connection (connected, or closed)
//     holds no goroutine of the runner's; the Close (or CloseFor) of a
//     transport given up while its Open ran runs on that Open's
//     goroutine. While OnStateChange runs, the transport calls go on on
//     another goroutine: a slow callback delays later changes, never the
//     connection.
//   - The checks run on goroutines of their own, bounded by their
//     timeouts, with or without Inline.
//
// The engine's timers that come due together fire earliest first, ties in
// the order the engine started them.
//
// # Inline calls
//
// With Options.Inline the runner calls Dialer.Open, a Transport's methods
// (the notices too), and OnStateChange on the goroutine that brought
// the event, inside the SDK's call into the Runner or a Reporter, after
// the engine has run and with none of the runner's locks held, and starts
// no goroutine for them (docs/runner.md in the repository says what that
// saves). The SDK that sets it promises:
//
//   - OnStateChange and a Transport's methods never take a lock that the
//     SDK holds while it calls the Runner or a Reporter (Go's locks are
//     not reentrant: that would deadlock).
//   - Close never waits for a goroutine that may be inside a call to a
//     Reporter (a reading goroutine that reports Closed, say).
//   - Open, OnStateChange and a Transport's methods return promptly: Open
//     starts the dial on a goroutine of the transport's and never dials
//     itself, since the SDK's call that caused it waits for it, and so do
//     the connection's other events.
//
// One goroutine at a time runs the engine and the SDK's code it decides:
// an event that arrives meanwhile, from any goroutine (the SDK's, the
// timer's, a check's), is queued and run afterwards by that goroutine, so
// the SDK's code may call the Runner and the Reporters, and what it causes
// runs after it returns, never inside it. So the SDK's code is on the
// connection's path: a slow OnStateChange delays the next events (their
// calls still return at once). The stop is the one exception: when the
// context is done the runner stops, closing the transports, even while
// another goroutine is in the SDK's code. An event's calls into its
// transports come before its state changes; as without Inline, each
// change is delivered once, in order, and a panic is recovered on the
// goroutine where it happens.
//
// # Stopping
//
// When the context is done the runner closes every transport (then ends
// the context Open is given), stops every timer, cancels the checks, goes
// CLOSED with one last state change marked Stopped (a runner already
// CLOSED or FAILED stays so, with no change), and closes Done once that
// change is delivered and every goroutine it started has ended; an Open
// still running is waited for at most Timeouts.Connect, and its
// transport is closed as soon as it returns.
//
// # Panics
//
// A panic in anything the runner calls (Dialer.Open, a Transport's
// methods, a check, OnStateChange) is recovered on the goroutine it
// happened on and becomes the failure of what panicked, as net/http does
// for a handler; Options.OnPanic receives it as a *PanicError with the
// value and the stack (the standard logger does when OnPanic is nil).
package runner
