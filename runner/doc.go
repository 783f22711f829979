// Package runner runs one realtime connection, for Go SDK authors: it owns
// the event loop around an engine.Engine, with real timers, the SDK's
// transports and the connectivity checks, so that an SDK does not write
// that loop itself.
//
// The SDK gives New an engine.Config and a Dialer that opens its
// transports; it calls Connect, Close, NetworkUp and NetworkDown, sends
// messages through Active, and hears about state changes through
// Options.OnStateChange. Classify turns the Go errors its transports meet
// into the reconnect.Failure they report. The engine's own details (timer
// and transport IDs, fired timers, when to send CLOSE) stay inside the
// runner.
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
// Before viable and connected, report Failed with a reconnect.Failure that
// says how: FailureDNS, FailureUnreachable or FailureRefused from the dial;
// FailureHTTPStatus with Status and the Server header for a rejected
// handshake or connect request (for example 403 from a proxy that rejects
// websockets); FailureDisconnected with the error's statusCode for a
// DISCONNECTED protocol message; FailureToken for a token error. Do not
// report a timeout: the runner already gives each transport
// realtimeRequestTimeout to connect and fails it with FailureTimeout.
// After viable or connected, report Closed when the connection ends: the
// zero Failure for a clean close (the server's CLOSED after RequestClose),
// otherwise how it ended. A fatal ERROR protocol message is Fatal.
//
// # Closing
//
// Close on a CONNECTED connection enters CLOSING; the runner then calls
// RequestClose on the active transport, which sends the CLOSE protocol
// message (RTN12a). The connection becomes CLOSED when the transport
// reports Closed, or realtimeRequestTimeout later at the latest, and the
// runner closes the transport. Close on a CONNECTING connection enters
// CLOSING too (RTN12f): the transports in flight go on, and one that
// reports Connected becomes active and gets RequestClose as above; when
// none is left the connection is CLOSED (under PolicyWebSocketCheck it is
// CLOSED at once, as ably-js does). From INITIALIZED, DISCONNECTED or
// SUSPENDED Close goes CLOSED at once; FAILED ignores it. Connect while
// CLOSING closes the transports and makes a new connection (RTN11b).
// Close does not stop the runner; cancelling its context does.
//
// # Timers and goroutines
//
// The engine's timers share one time.AfterFunc timer, never set later than
// the earliest of them; when it fires the runner feeds every timer that is
// due, earliest first (ties in the order the engine started them), and
// sets it again for the next. A timer that has fired is finished and
// forgotten; a cancelled one is dropped, and the shared timer is not
// pushed back for it: it may fire once with nothing due, which costs one
// wake-up instead of a reset at every step.
//
// The engine runs on the goroutine that brings it an event: a call of the
// SDK's (Connect, a Reporter's Viable, …), the timer's, or a check's. One
// goroutine runs it at a time; an event that arrives meanwhile is queued
// for that goroutine, so no call waits for another. What the engine
// decides that calls the SDK's code (a transport's RequestClose and Close,
// OnStateChange) is never done inside a call of the SDK's (unless
// Options.Inline, below): it is done on a goroutine of the runner's,
// started when there is such work and ended when there is none, so an
// idle connection holds no goroutine of the runner's, and the SDK may hold
// its own locks while it calls the runner. Dialer.Open runs on a goroutine
// of its own for each transport, so a blocking Open stalls nothing; the
// checks run on goroutines of their own, bounded by their timeouts; while
// OnStateChange runs, transport calls go on on another goroutine, so a
// slow callback never holds up the connection.
//
// # Inline calls
//
// Each burst of the SDK's code run on a goroutine of the runner's costs a
// goroutine hand-off, a few hundred nanoseconds, several times the
// engine's own step (docs/runner.md in the repository has the figures).
// An SDK that can promise the following sets Options.Inline, and the
// runner then calls Dialer.Open, a Transport's RequestClose and Close, and
// OnStateChange on the goroutine that brought the event, inside the SDK's
// call into the Runner or a Reporter, after the engine has run and with
// none of the runner's locks held: no goroutine is started, and an event
// costs under three times the bare engine step.
//
//   - OnStateChange, RequestClose and Close never take a lock that the SDK
//     holds while it calls the Runner or a Reporter (Go's locks are not
//     reentrant: that would deadlock).
//   - Close never waits for a goroutine that may be inside a call to a
//     Reporter (a reading goroutine that reports Closed, say).
//   - Open, OnStateChange, RequestClose and Close return promptly: Open
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
// another goroutine is in the SDK's code. An event's RequestClose and
// Close calls come before its state changes; as without Inline, each
// change is delivered once, in order, and a panic is recovered on the
// goroutine where it happens.
//
// # Stopping
//
// When the context is done the runner closes every transport (then ends
// the context Open is given), stops every timer, cancels the checks, goes
// CLOSED with one last state change marked Stopped (a runner already
// CLOSED or FAILED stays so, with no change), and closes Done once that
// change is delivered and every goroutine it
// started has ended; an Open still running is waited for at most
// realtimeRequestTimeout, and its transport is closed as soon as it
// returns.
//
// # Panics
//
// A panic in anything the runner calls (Dialer.Open, a Transport's
// methods, a check, OnStateChange) is recovered on the goroutine it
// happened on and becomes the failure of what panicked, as net/http does
// for a handler; Options.OnPanic receives it as a *PanicError with the
// value and the stack (the standard logger does when OnPanic is nil).
package runner
