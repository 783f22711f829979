package runner

import (
	"context"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// OpenRequest says which transport to open: a transport of kind Kind to
// Host, in Mode. Host is a host of Config.Endpoint as configured (lowered):
// outside Ably's preset it may be one label or carry a port
// ("realtime", "rt.example.com:8443", "[::1]:8080"; see
// reconnect.ResolveHosts), so a Dialer that builds a URL adds its default
// port only when Host has none (net.SplitHostPort). ID names it in the engine's actions and in logs; IDs are
// 1, 2, 3, … in the order the runner opens transports.
type OpenRequest struct {
	ID   engine.TransportID
	Kind reconnect.TransportKind
	Host string
	Mode reconnect.Mode
}

// Dialer opens the SDK's transports. Calls for different transports may
// overlap, so Open must be safe for concurrent use; on which goroutine it
// runs, and what an Open that blocks holds up, is said under "Goroutines"
// and "Inline calls" in the package doc.
type Dialer interface {
	// Open starts opening the transport req asks for and should return
	// soon: the network work belongs on the transport's own goroutines.
	// The transport then tells the runner what happens to it through
	// report (see "Transport reports" in the package doc), from any
	// goroutine, including from within Open itself; the runner passes
	// those reports on once Open has returned, so the engine never hears
	// of a transport before the runner holds it. A failure to even start
	// (a malformed host, a dialer that is shut down) is reported as
	// report.Failed; Open returns a Transport whose Close releases
	// whatever was started (never nil; a nil Transport is treated as one
	// with nothing to close). An Open that panics is a failure of its
	// transport (see PanicError).
	//
	// ctx carries the values of the runner's context and is done once the
	// runner has stopped, after it has called Close on every transport
	// whose Open had returned by the time the runner saw its own context
	// done (a transport whose Open was still running then may see ctx done
	// before its Close); it is the same for every transport. Close, not
	// ctx, tells a transport that the runner no longer wants it. If the
	// runner gives up the transport while Open is still running (its
	// connect timeout ran out, or the runner stopped), it calls Close on
	// whatever Open returns, as soon as it returns. Runner.Done waits for
	// an Open still running when the runner stops, at most
	// Config.Timeouts.Connect (realtimeRequestTimeout unless set).
	Open(ctx context.Context, req OpenRequest, report Reporter) Transport
}

// Transport is one transport the SDK opened for the runner. The SDK's own
// type adds what it needs for messages (Send, …); Runner.Active returns it
// so the SDK can type-assert it back. It may also implement Notified (to
// hear when it becomes and stops being the active transport, and why) and
// CauseCloser (to hear why it is closed): see "Transport notices" in the
// package doc.
//
// The runner calls these methods one call at a time, in the order the
// engine decided them, on the goroutines said under "Goroutines" and
// "Inline calls" in the package doc. They must return promptly and do any
// IO on the transport's own goroutines. A method that panics is recovered
// (see PanicError).
type Transport interface {
	// RequestClose asks the server to close the connection: the transport
	// sends the realtime CLOSE protocol message (RTN12a) and, when the
	// server's CLOSED arrives or the connection ends, reports Closed. The
	// runner calls it once, on the active transport, when the connection
	// enters CLOSING. A transport with nothing to send (a server that
	// closes by itself) may do nothing: Config.Timeouts.Closing
	// (realtimeRequestTimeout unless set) later the runner closes the
	// transport anyway.
	RequestClose()
	// Close closes the transport at once and releases everything it holds
	// (sockets, requests, goroutines). The runner calls it exactly once,
	// when the engine disposes of the transport or the runner stops (or
	// CloseFor in its place, for a CauseCloser); after it the runner
	// ignores the transport's reports.
	Close()
}
