package sdk

import (
	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect/examples/cmdproto/protocol"
	"github.com/reconnect-go/reconnect/runner"
)

// Activated (runner.Notified): the transport now carries the connection.
// It delivers the events that came before, in order, and from now on
// delivers and sends; Runner.Active returns it once this has returned.
func (t *transport) Activated() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.active = true
	for _, data := range t.pending {
		if t.sh.onMessage != nil {
			t.sh.onMessage(data)
		}
	}
	t.pending = nil
	t.sh.log.Debug("transport active", "endpoint", t.host)
}

// Deactivated (runner.Notified): it no longer carries the connection, for
// why. A close is clean only if the server confirmed it first.
func (t *transport) Deactivated(why runner.Cause) {
	t.mu.Lock()
	t.active = false
	t.mu.Unlock()
	if why == runner.CauseCloseRequested && !t.confirmed.Load() {
		t.sh.unclean.Store(true)
	}
	t.sh.log.Debug("transport no longer active", "endpoint", t.host, "why", why)
}

// RequestClose sends the close command; the server answers by closing
// with 1000, which run reports as a clean Closed.
func (t *transport) RequestClose() {
	t.mu.Lock()
	c := t.ws
	t.mu.Unlock()
	if c == nil {
		return
	}
	t.sh.wg.Add(1)
	go func() {
		defer t.sh.wg.Done()
		c.Write(t.ctx, websocket.MessageText, protocol.EncodeCommand(protocol.Command{Cmd: protocol.CmdClose}))
	}()
}

// CloseStatusFor is the close status the SDK sends when the runner
// closes a transport for why, with its reason text: the idle limit and
// the connect timeout have codes of their own, so the server's logs tell
// a stalled server from a slow one and from a client that went away.
func CloseStatusFor(why runner.Cause) (websocket.StatusCode, string) {
	switch why {
	case runner.CauseIdleTimeout:
		return protocol.ClosePingTimeout, "ping timeout"
	case runner.CauseConnectTimeout:
		return protocol.CloseConnectTimeout, "connect timeout"
	case runner.CauseFatal:
		return protocol.CloseClientError, "fatal error"
	case runner.CauseSuperseded, runner.CauseAbandoned, runner.CauseNetworkDown:
		return websocket.StatusGoingAway, why.String()
	}
	return websocket.StatusNormalClosure, why.String() // close requested, stopped, ended
}

// CloseFor (runner.CauseCloser) ends the session with the close status
// for why, on a goroutine of the transport's (the close handshake waits
// for the server, at most the library's 5 s), and returns at once.
// Nothing is reported after it.
func (t *transport) CloseFor(why runner.Cause) {
	if t.gone.Swap(true) {
		return
	}
	t.mu.Lock()
	c := t.ws
	t.mu.Unlock()
	code, reason := CloseStatusFor(why)
	t.sh.log.Debug("transport closed", "endpoint", t.host, "why", why, "status", code)
	if c == nil || why == runner.CauseEnded {
		t.stop() // not open yet, or already ended: nothing to say
		return
	}
	t.sh.wg.Add(1)
	go func() {
		defer t.sh.wg.Done()
		defer t.stop()
		c.Close(code, reason)
	}()
}

// Close is CloseFor without a reason; the runner calls CloseFor instead.
func (t *transport) Close() { t.CloseFor(runner.CauseNone) }
