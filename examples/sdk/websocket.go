package sdk

import (
	"errors"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect/examples/protocol"
	"github.com/reconnect-go/reconnect/runner"
)

// webSocket is the websocket transport. Dialed (when the reporter has
// it): the TCP connection is up, with the time the dial took, so that the
// engine's adaptive short circuit can follow the round trip. Viable: the
// server answered the upgrade with 101 Switching Protocols. Connected:
// its CONNECTED message arrived.
type webSocket struct {
	*conn
	hc *http.Client

	mu sync.Mutex
	ws *websocket.Conn // once open
}

// run dials, then reads until the socket ends; it is the transport's
// goroutine and the only one that reports.
func (t *webSocket) run() {
	defer t.sh.wg.Done()
	url := "ws://" + t.req.Host + protocol.PathWebSocket + "?mode=" + t.req.Mode.String() + t.sh.tokenQuery()
	ctx := t.ctx
	if d, ok := t.rep.(interface{ Dialed(time.Duration) }); ok {
		start := time.Now()
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{ConnectDone: func(_, _ string, err error) {
			if err == nil {
				d.Dialed(time.Since(start)) // the runner counts the first
			}
		}})
	}
	c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: t.hc})
	if err != nil {
		// The library wraps the dial's error (%w), so Classify finds the
		// *net.DNSError or ECONNREFUSED in it, and the 403 of a proxy that
		// refuses websockets in resp.
		t.end(runner.Classify(err, resp)) // before Viable: Failed
		return
	}
	defer c.CloseNow()
	t.mu.Lock()
	t.ws = c
	t.mu.Unlock()
	t.reportViable()
	for {
		// A cancelled context (Close) makes the library close the socket.
		_, data, err := c.Read(t.ctx)
		if err != nil {
			if st := websocket.CloseStatus(err); st != -1 {
				t.end(runner.CloseStatusFailure(int(st))) // after Viable: Closed
			} else {
				t.end(runner.Classify(err, nil))
			}
			return
		}
		if t.handle(protocol.Parse(string(data))) {
			return
		}
	}
}

func (t *webSocket) open() *websocket.Conn {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.ws
}

func (t *webSocket) send(msg string) error {
	c := t.open()
	if c == nil {
		return errors.New("sdk: the websocket is not open")
	}
	return c.Write(t.ctx, websocket.MessageText, []byte(msg))
}

// RequestClose sends CLOSE on a goroutine of the transport's; the
// server's CLOSED, read by run, ends the transport with a clean Closed.
func (t *webSocket) RequestClose() {
	c := t.open()
	if c == nil {
		return // not open yet: the runner closes it after realtimeRequestTimeout
	}
	t.sh.wg.Add(1)
	go func() {
		defer t.sh.wg.Done()
		c.Write(t.ctx, websocket.MessageText, []byte(protocol.Close))
	}()
}

// CloseFor drops the socket at once (no close handshake) and waits for
// nothing: run sees its context done and reports nothing more. The runner
// calls it in place of Close (runner.CauseCloser), saying why: a real SDK
// picks its close status from it (an idle timeout is not a normal close).
func (t *webSocket) CloseFor(why runner.Cause) {
	t.cancel()
	if c := t.open(); c != nil {
		c.CloseNow()
	}
	t.closeLog(why)
}

// Close is CloseFor without a reason; the runner calls CloseFor instead.
func (t *webSocket) Close() { t.CloseFor(runner.CauseNone) }
