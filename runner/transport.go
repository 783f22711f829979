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

// Dialer opens the SDK's transports. The runner calls Open on its loop
// goroutine, one call at a time.
type Dialer interface {
	// Open starts opening the transport req asks for and returns at once:
	// it must not wait for the network. The transport then tells the runner
	// what happens to it through report (see the package doc for exactly
	// when to report viable and connected), from any goroutine, including
	// from within Open itself. A failure to even start (a malformed host, a
	// dialer that is shut down) is reported as report.Failed; Open returns
	// a Transport whose Close releases whatever was started (never nil; a
	// nil Transport is treated as one with nothing to close).
	//
	// ctx is the runner's context: it is done when the runner stops, after
	// the runner has called Close on every transport it opened.
	Open(ctx context.Context, req OpenRequest, report Reporter) Transport
}

// Transport is one transport the SDK opened for the runner. The SDK's own
// type adds what it needs for messages (Send, …); Runner.Active returns it
// so the SDK can type-assert it back.
//
// The runner calls these methods on its loop goroutine, one call at a
// time; they must return promptly and do any IO on the transport's own
// goroutines.
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
// never block, are safe for concurrent use and may be called from any
// goroutine; the runner feeds them to the engine in the order they were
// called. Each kind of report counts once, and nothing counts after Failed
// or Closed: later and repeated reports are ignored, as are reports after
// the runner has closed the transport.
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
	// revoked key): the connection goes FAILED.
	Fatal(f reconnect.Failure)
}
