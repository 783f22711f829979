package sdk

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/examples/cmdproto/protocol"
	"github.com/reconnect-go/reconnect/runner"
)

// reporter is what a transport needs of runner.Reporter, so that a test
// can stand in for the runner.
type reporter interface {
	Viable()
	Connected()
	Activity()
	Failed(reconnect.Failure)
	Closed(reconnect.Failure)
	Fatal(reconnect.Failure)
}

// dialer is the runner's Dialer: each transport is a websocket to the
// endpoint the engine chose, req.Host, exactly as configured
// ("localhost:8080").
type dialer struct{ sh *shared }

// Open starts the transport on a goroutine of its own and returns at once.
func (d dialer) Open(_ context.Context, req runner.OpenRequest, report runner.Reporter) runner.Transport {
	return start(req.Host, report, d.sh)
}

// CloseError is the SDK's error for a session the server closed with a
// close status: Code is the status (protocol.CloseEvicted, 1012, …).
type CloseError struct {
	Code   int
	Reason string
}

func (e *CloseError) Error() string {
	return "sdk: closed by the server with " + strconv.Itoa(e.Code) + " " + e.Reason
}

// transport is one websocket session. Its reading goroutine (run) is the
// only one that reports: Viable on the handshake, Connected on the ok
// reply, Activity for every frame after it, then exactly one end (Failed
// before Viable, Closed after, Fatal for an unauthorized token), nothing
// once the runner has closed it. It follows the runner's notices: it
// delivers events and sends commands only between Activated and
// Deactivated, and CloseFor picks the close status from the Cause.
type transport struct {
	host string
	rep  reporter
	sh   *shared
	ctx  context.Context // done once the socket must go
	stop context.CancelFunc

	viable, ended bool        // run's own
	gone          atomic.Bool // CloseFor was called: report nothing more
	confirmed     atomic.Bool // the server closed with 1000 after the close command

	mu      sync.Mutex // guards ws, active, pending; held while delivering, for order
	ws      *websocket.Conn
	active  bool
	pending []string // events that came before Activated
}

func start(host string, rep reporter, sh *shared) *transport {
	ctx, stop := context.WithCancel(context.Background())
	t := &transport{host: host, rep: rep, sh: sh, ctx: ctx, stop: stop}
	sh.wg.Add(1)
	go t.run()
	return t
}

// run dials, sends the connect command, and reads until the socket ends.
func (t *transport) run() {
	defer t.sh.wg.Done()
	c, resp, err := websocket.Dial(t.ctx, "ws://"+t.host+protocol.Path, nil)
	if err != nil {
		t.end(runner.Classify(err, resp)) // a refused port, a 503: Failed
		return
	}
	defer c.CloseNow()
	t.mu.Lock()
	t.ws = c
	t.mu.Unlock()
	if t.gone.Load() {
		return
	}
	t.viable = true
	t.rep.Viable()
	if err := c.Write(t.ctx, websocket.MessageText, protocol.EncodeCommand(protocol.Command{Cmd: protocol.CmdConnect, Token: t.sh.token})); err != nil {
		t.end(runner.Classify(err, nil))
		return
	}
	connected := false
	for {
		_, data, err := c.Read(t.ctx)
		if err != nil {
			t.end(t.readFailure(err))
			return
		}
		f, err := protocol.ParseFrame(data)
		if err != nil {
			t.end(reconnect.Failure{Kind: reconnect.FailureOther}.WithError(err))
			return
		}
		if t.gone.Load() {
			return
		}
		switch {
		case !connected && f.OK != nil:
			connected = true
			t.rep.Connected() // the reply to the connect command is CONNECTED
		case !connected && f.Error != nil:
			t.refused(f.Error)
			return
		case !connected:
			// a ping before the reply: the server is alive, not connected yet
		case f.Type == protocol.TypeEvent:
			t.rep.Activity()
			t.deliver(f.Data)
		default:
			t.rep.Activity() // a ping, or anything else: the server is alive
		}
	}
}

// readFailure is the Failure of a read that ended the socket: the close
// status the server sent, with the SDK's *CloseError, or the error.
func (t *transport) readFailure(err error) reconnect.Failure {
	st := websocket.CloseStatus(err)
	if st == -1 {
		return runner.Classify(err, nil)
	}
	if st == websocket.StatusNormalClosure {
		t.confirmed.Store(true) // the server's answer to the close command
	}
	var ce websocket.CloseError
	errors.As(err, &ce)
	return runner.CloseStatusFailure(int(st)).WithError(&CloseError{Code: int(st), Reason: ce.Reason})
}

// refused reports an error reply: an unauthorized token is fatal, any
// other code ends the attempt and the runner retries. The Failure
// carries the server's *protocol.Error and its code.
func (t *transport) refused(e *protocol.Error) {
	f := reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503, Code: int32(e.Code)}.WithError(e)
	if e.Code == protocol.CodeUnauthorized {
		t.ended = true
		t.rep.Fatal(reconnect.Failure{Kind: reconnect.FailureOther, Code: int32(e.Code)}.WithError(e))
		return
	}
	t.end(f)
}

// end reports how the transport ended, once: Failed before Viable, Closed
// after; nothing once the runner has closed it.
func (t *transport) end(f reconnect.Failure) {
	if t.ended || t.gone.Load() {
		return
	}
	t.ended = true
	if t.viable {
		t.rep.Closed(f)
	} else {
		t.rep.Failed(f)
	}
}

// deliver hands an event to OnMessage once the transport is active, and
// keeps it until Activated otherwise.
func (t *transport) deliver(data string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.active {
		t.pending = append(t.pending, data)
		return
	}
	if t.sh.onMessage != nil {
		t.sh.onMessage(data)
	}
}

// send writes a command, only while the transport is active.
func (t *transport) send(cmd protocol.Command) error {
	t.mu.Lock()
	c, active := t.ws, t.active
	t.mu.Unlock()
	if !active || c == nil {
		return ErrNotConnected
	}
	return c.Write(t.ctx, websocket.MessageText, protocol.EncodeCommand(cmd))
}
