package runner

import (
	"context"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// OpenRequest says which transport to open: a transport of kind Kind to
// Host, in Mode. ID names it in the engine's actions and in logs; IDs are
// 1, 2, 3, … in the order the runner opens transports.
type OpenRequest struct {
	ID   engine.TransportID
	Kind reconnect.Transport
	Host string
	Mode reconnect.Mode
}

// Dialer opens the SDK's transports. The runner calls Open on a goroutine
// of its own for each transport, never where the engine runs, so an Open
// that blocks (a DNS lookup, a dial, a lock) holds up no timer, no event,
// no Close and no Done; calls for different transports may overlap, so Open must be safe
// for concurrent use.
type Dialer interface {
	// Open starts opening the transport req asks for and should return
	// soon: the network work belongs on the transport's own goroutines.
	// The transport then tells the runner what happens to it through
	// report (see the package doc for exactly when to report viable and
	// connected), from any goroutine, including from within Open itself;
	// the runner passes those reports on once Open has returned, so the
	// engine never hears of a transport before the runner holds it. A
	// failure to even start (a malformed host, a dialer that is shut down)
	// is reported as report.Failed; Open returns a Transport whose Close
	// releases whatever was started (never nil; a nil Transport is treated
	// as one with nothing to close). An Open that panics is a failure of
	// its transport (see PanicError).
	//
	// ctx is the transport's own context, carrying the values of the
	// runner's: it is done once the runner no longer wants the transport,
	// always after the runner has called Close on it (when the engine
	// disposes of the transport, or when the runner stops). If the runner
	// gives up the transport while Open is still running (its connect
	// timeout ran out, or the runner stopped), ctx is done at once and the
	// runner calls Close on whatever Open returns, as soon as it returns;
	// an Open that watches ctx can return early. Runner.Done waits for an
	// Open still running when the runner stops, at most
	// realtimeRequestTimeout.
	Open(ctx context.Context, req OpenRequest, report Reporter) Transport
}

// Transport is one transport the SDK opened for the runner. The SDK's own
// type adds what it needs for messages (Send, …); Runner.Active returns it
// so the SDK can type-assert it back.
//
// The runner calls these methods on a goroutine of its own, never inside a
// call of the SDK's into the runner or a Reporter, one call at a time, in
// the order the engine decided them (Close, for a transport given up while
// its Open ran, on that Open's goroutine); they must return promptly and
// do any IO on the transport's own goroutines. A method that panics is
// recovered (see PanicError).
type Transport interface {
	// RequestClose asks the server to close the connection: the transport
	// sends the realtime CLOSE protocol message (RTN12a) and, when the
	// server's CLOSED arrives or the connection ends, reports Closed. The
	// runner calls it once, on the active transport, when the connection
	// enters CLOSING. A transport with nothing to send (a server that
	// closes by itself) may do nothing: realtimeRequestTimeout later the
	// runner closes the transport anyway.
	RequestClose()
	// Close closes the transport at once and releases everything it holds
	// (sockets, requests, goroutines). The runner calls it exactly once,
	// when the engine disposes of the transport or the runner stops; after
	// it the runner ignores the transport's reports.
	Close()
}

// Reporter is how a transport tells the runner what happened to it. The
// runner gives each transport its own Reporter in Dialer.Open. Its methods
// never block on anything but the runner's own short lock, never call the
// SDK's code, are safe for concurrent use and may be called from any
// goroutine, with the SDK's locks held; the runner feeds them to the
// engine in the order they were called, once Dialer.Open has returned (a
// report runs the engine on the calling goroutine, a few hundred
// nanoseconds, unless another goroutine is running it, which then takes
// the report). Each kind of report counts once,
// and nothing counts after Failed, Closed or Fatal: later and repeated
// reports are ignored (a Fatal after Failed or Closed too), as are reports
// after the runner has closed the transport.
type Reporter interface {
	// Viable: the transport has shown itself viable (see the package doc
	// for the exact moment for websocket and HTTP).
	Viable()
	// Connected: the transport received the realtime CONNECTED protocol
	// message. A transport that reports Connected without Viable first is
	// treated as viable, then connected.
	Connected()
	// Failed: the transport failed before it connected; f says how (its
	// Kind decides whether the engine moves on to a fallback host; see
	// reconnect.ShouldFallback).
	Failed(f reconnect.Failure)
	// Closed: the transport closed or dropped after it was viable or
	// connected; f says how, the zero Failure for a clean close (the
	// server's CLOSED after RequestClose).
	Closed(f reconnect.Failure)
	// Fatal: the server sent an error no retry can fix (for example a
	// revoked key): the connection goes FAILED. It counts only before the
	// transport's Failed or Closed.
	Fatal(f reconnect.Failure)
}
