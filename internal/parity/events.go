package parity

import (
	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// The timeline's events, and how an SDK following docs/embedding.md reports
// the server's DISCONNECTED and ERROR messages to the engine.

// event performs the timeline's event e on the current client life, as the
// driver does on the ably-js client.
func (r *runner) event(e Event) {
	l := r.cur
	switch e.Do {
	case "connect":
		r.step(l, engine.Event{Kind: engine.EventConnect})
	case "close":
		r.step(l, engine.Event{Kind: engine.EventClose})
	case "restart":
		r.step(l, engine.Event{Kind: engine.EventClose})
		if err := r.newLife(); err != nil {
			r.record(Entry{Ev: "error", Message: err.Error()})
			return
		}
		r.step(r.cur, engine.Event{Kind: engine.EventConnect})
	case "drop":
		if c := r.active(l); c != nil {
			c.closed = true
			r.step(l, engine.Event{Kind: engine.EventTransportClosed, Transport: c.id, Failure: reconnect.Failure{Kind: reconnect.FailureUnreachable}})
		}
	case "server-disconnected":
		if c := r.active(l); c != nil {
			c.closed = true
			r.step(l, engine.Event{Kind: engine.EventTransportClosed, Transport: c.id, Failure: disconnected(e.Status, e.Code, e.Error)})
		}
	case "server-error":
		if c := r.active(l); c != nil {
			c.closed = true
			r.step(l, errorEvent(c.id, e.Status, e.Code, e.Error))
		}
	case "server-connected":
		if c := r.active(l); c != nil {
			r.step(l, engine.Event{Kind: engine.EventConnectionDetails, Transport: c.id, Details: r.details(e.TTL)})
		}
	case "offline":
		r.offline = true
		r.step(l, engine.Event{Kind: engine.EventNetworkDown})
	case "online":
		r.offline = false
		r.step(l, engine.Event{Kind: engine.EventNetworkUp})
	case "authorize":
		r.step(l, engine.Event{Kind: engine.EventAuthorize})
	}
}

// isTokenError reports whether an error is a token error as the engine's
// documentation tells an SDK to report one (FailureToken): statusCode 401
// and a code from 40140 to 40149 (RTN14b, RTN15h).
func isTokenError(status, code int) bool {
	return status == 401 && 40140 <= code && code < 40150
}

// disconnected is the failure a DISCONNECTED message with an error of
// status and code (80003 when 0) is reported as; shape is Rule.Error: with
// "no-code" the error has the statusCode alone, with "none" there is no
// error (a DISCONNECTED with no status).
func disconnected(status, code int, shape string) reconnect.Failure {
	switch shape {
	case "no-code":
		return reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: status}
	case "none":
		return reconnect.Failure{Kind: reconnect.FailureDisconnected}
	}
	if code == 0 {
		code = 80003
	}
	if isTokenError(status, code) {
		return reconnect.Failure{Kind: reconnect.FailureToken}
	}
	return reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: status}
}

// errorEvent is how a connection-wide ERROR message with an error of
// status and code (40000 when 0) on transport id is reported: a token
// error closes the transport with FailureToken (RTN14b, RTN15h); any other
// is fatal (RTN14g, RTN15i), as is an ERROR whose error has no code or
// that has no error (shape "no-code" or "none", Rule.Error).
func errorEvent(id engine.TransportID, status, code int, shape string) engine.Event {
	if shape != "" {
		return engine.Event{Kind: engine.EventFatal, Transport: id, Failure: reconnect.Failure{Kind: reconnect.FailureOther}}
	}
	if code == 0 {
		code = 40000
	}
	if isTokenError(status, code) {
		return engine.Event{Kind: engine.EventTransportClosed, Transport: id, Failure: reconnect.Failure{Kind: reconnect.FailureToken}}
	}
	return engine.Event{Kind: engine.EventFatal, Transport: id, Failure: reconnect.Failure{Kind: reconnect.FailureOther}}
}
