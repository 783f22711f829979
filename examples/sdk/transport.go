package sdk

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/examples/protocol"
	"github.com/reconnect-go/reconnect/runner"
)

// reporter is what a transport needs of runner.Reporter: an interface of
// its own, so that a test can stand in for the runner.
type reporter interface {
	Viable()
	ConnectedWith(engine.Details, reconnect.Failure)
	Activity()
	Failed(reconnect.Failure)
	Closed(reconnect.Failure)
	Fatal(reconnect.Failure)
}

// sender is what Client.Publish needs of the active transport.
type sender interface {
	send(msg string) error
}

// conn is what both transports share. Only the transport's own reading
// goroutine reports, so the reports need no lock: Viable once, Connected
// once, then exactly one end (see end), and nothing after Close.
//
// The runner tells it the rest (runner.Notified, runner.CauseCloser):
// when it becomes the active transport and stops being it, and why it is
// closed. The transport keeps no state machine of its own beside the
// runner's: it follows those calls.
type conn struct {
	req    runner.OpenRequest
	rep    reporter
	sh     *shared
	ctx    context.Context // done once Close was called
	cancel context.CancelFunc

	viable, ended bool // the reading goroutine's own
	// active: between the runner's Activated and Deactivated; gotClosed:
	// the server's CLOSED arrived (a clean close).
	active, gotClosed atomic.Bool
}

// Activated: from now on this transport carries the connection's
// messages (runner.Active returns it once this has returned, so Publish
// finds it).
func (t *conn) Activated() {
	t.active.Store(true)
	t.sh.log.Debug("transport active", "id", t.req.ID, "transport", t.req.Kind, "host", t.req.Host)
}

// Deactivated: it no longer carries the connection; why says what
// happened to it, the runner's own account: a close is clean only when
// the server's CLOSED came first (Client.Close reports one that is not).
func (t *conn) Deactivated(why runner.Cause) {
	t.active.Store(false)
	if why == runner.CauseCloseRequested && !t.gotClosed.Load() {
		t.sh.uncleanClose.Store(true)
	}
	t.sh.log.Debug("transport no longer active", "id", t.req.ID, "why", why)
}

func newConn(req runner.OpenRequest, rep reporter, sh *shared) *conn {
	ctx, cancel := context.WithCancel(context.Background())
	return &conn{req: req, rep: rep, sh: sh, ctx: ctx, cancel: cancel}
}

// reportViable reports the handshake done: the websocket's 101, the
// long-poll connect request's 2xx.
func (t *conn) reportViable() {
	if !t.viable && t.ctx.Err() == nil {
		t.viable = true
		t.rep.Viable()
	}
}

// end reports how the transport ended, by the one rule: Failed when it
// ended before it reported Viable (the dial, the handshake or the connect
// request failed), Closed once it had, whether CONNECTED had come or not
// (the zero Failure only for the server's CLOSED after RequestClose). The
// runner treats the two alike; the Failure, and whether the transport was
// the active one, decide what happens next. Nothing is reported after
// Close: the runner has given the transport up.
func (t *conn) end(f reconnect.Failure) {
	if t.ended || t.ctx.Err() != nil {
		return
	}
	t.ended = true
	how := "closed"
	if !t.viable {
		how = "failed"
	}
	t.sh.log.Debug("transport "+how, "id", t.req.ID, "transport", t.req.Kind, "host", t.req.Host,
		"failure", f.String(), "anotherHost", reconnect.ShouldFallback(f))
	if t.viable {
		t.rep.Closed(f)
	} else {
		t.rep.Failed(f)
	}
}

// handle acts on one protocol message, as every transport does, and
// reports whether it ended the transport. CONNECTED is reported with its
// connection details (the server's maxIdleInterval, RTN21), every other
// message as activity (RTN23a: one call per message, about a nanosecond),
// which keeps the runner's idle timer from dropping the transport.
func (t *conn) handle(m protocol.Msg) (ended bool) {
	if m.Kind != protocol.Connected && t.ctx.Err() == nil {
		t.rep.Activity()
	}
	switch m.Kind {
	case protocol.Connected:
		t.reportViable() // a transport that skipped Viable counts as viable first
		if t.ctx.Err() == nil {
			// The message counts as activity itself (the engine takes it
			// at its own time), so no Activity for it.
			t.rep.ConnectedWith(engine.Details{MaxIdleInterval: m.MaxIdleInterval}, reconnect.Failure{})
		}
	case protocol.Message:
		if t.sh.onMessage != nil && t.ctx.Err() == nil {
			t.sh.onMessage(Message{Data: m.Data, Transport: t.req.Kind, Host: t.req.Host})
		}
	case protocol.Closed:
		t.gotClosed.Store(true)
		t.end(reconnect.Failure{})
		return true
	case protocol.Disconnected:
		if m.IsTokenError() {
			// The runner asks Options.RenewToken for a new token, then
			// connects again at once (RTN14b, RTN15h).
			t.end(reconnect.Failure{Kind: reconnect.FailureToken, Status: m.Status})
			return true
		}
		t.end(reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: m.Status})
		return true
	case protocol.Error:
		// Fatal in place of Failed or Closed: no retry can fix it.
		t.sh.log.Error("fatal error from the server", "id", t.req.ID, "status", m.Status)
		if !t.ended && t.ctx.Err() == nil {
			t.ended = true
			t.rep.Fatal(reconnect.Failure{Kind: reconnect.FailureOther})
		}
		return true
	}
	return false
}

// closeLog logs a close of the runner's, with why (runner.CauseCloser).
func (t *conn) closeLog(why runner.Cause) {
	t.sh.log.Debug("transport closed by the runner", slog.Int("id", int(t.req.ID)), "why", why)
}
