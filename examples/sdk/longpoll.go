package sdk

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/examples/protocol"
	"github.com/reconnect-go/reconnect/runner"
)

// pollTimeout bounds one poll on the client's side: longer than the
// server holds a poll (20 s), so that only a server gone silent meets it.
const pollTimeout = 30 * time.Second

// longPoll is the HTTP long-poll transport: a connect request, then one
// poll at a time, each answered as soon as the server has a message; each
// message sent is a request of its own. Viable: the connect request got a
// 2xx status. Connected: a CONNECTED line arrived in a response body (the
// connect request's own, with this server).
type longPoll struct {
	*conn
	tr   *http.Transport // its own, so that Close drops its connections
	hc   *http.Client
	base string // "http://host"

	mu      sync.Mutex
	session string // once the connect request has answered
}

func newLongPoll(c *conn, dial func(context.Context, string, string) (net.Conn, error)) *longPoll {
	tr := &http.Transport{DialContext: dial, MaxIdleConnsPerHost: 2}
	return &longPoll{conn: c, tr: tr, hc: &http.Client{Transport: tr}, base: "http://" + c.req.Host}
}

// run makes the connect request, then polls until the session ends; it is
// the transport's goroutine and the only one that reports.
func (t *longPoll) run() {
	defer t.sh.wg.Done()
	defer t.tr.CloseIdleConnections()
	resp, err := t.do(http.MethodGet, protocol.PathConnect+"?mode="+t.req.Mode.String()+t.sh.tokenQuery(), "", 0)
	if err != nil || resp.StatusCode/100 != 2 {
		t.end(runner.Classify(err, resp)) // before Viable: Failed
		closeBody(resp)
		return
	}
	t.reportViable()
	// The session is known before the body is read: the CONNECTED in it
	// lets the runner ask for a close (RequestClose), whose CLOSE needs
	// the session, at once.
	id := resp.Header.Get(protocol.HeaderSession)
	t.mu.Lock()
	t.session = id
	t.mu.Unlock()
	if t.read(resp) {
		return
	}
	if id == "" {
		t.end(reconnect.Failure{Kind: reconnect.FailureOther}) // after Viable: Closed
		return
	}
	for {
		resp, err := t.do(http.MethodGet, protocol.PathRecv+"?session="+id, "", pollTimeout)
		switch {
		case err != nil:
			t.end(runner.Classify(err, nil)) // the connection was cut, or the server went silent
			return
		case resp.StatusCode == http.StatusNoContent:
			closeBody(resp) // nothing this time: poll again
			if t.ctx.Err() == nil {
				t.rep.Activity() // the server answered: the transport is alive
			}
		case resp.StatusCode == http.StatusOK:
			if t.read(resp) {
				return
			}
		default:
			t.end(runner.Classify(nil, resp)) // 404: the server no longer knows the session
			closeBody(resp)
			return
		}
	}
}

// read handles each line of a response body and reports whether one ended
// the transport.
func (t *longPoll) read(resp *http.Response) (ended bool) {
	defer closeBody(resp)
	sc := bufio.NewScanner(io.LimitReader(resp.Body, 1<<20))
	for sc.Scan() {
		if sc.Text() != "" && t.handle(protocol.Parse(sc.Text())) {
			return true
		}
	}
	if err := sc.Err(); err != nil {
		t.end(runner.Classify(err, nil))
		return true
	}
	return false
}

// do sends one request in the transport's context, bounded by timeout
// when it is not 0.
func (t *longPoll) do(method, path, body string, timeout time.Duration) (*http.Response, error) {
	ctx, cancel := t.ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(t.ctx, timeout)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.base+path, strings.NewReader(body))
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = cancelOnClose{resp.Body, cancel}
	return resp, nil
}

func (t *longPoll) send(msg string) error {
	t.mu.Lock()
	id := t.session
	t.mu.Unlock()
	if id == "" {
		return errors.New("sdk: the long-poll session is not open")
	}
	resp, err := t.do(http.MethodPost, protocol.PathSend+"?session="+id, msg, pollTimeout)
	if err != nil {
		return err
	}
	closeBody(resp)
	if resp.StatusCode != http.StatusNoContent {
		return errors.New("sdk: send answered " + resp.Status)
	}
	return nil
}

// RequestClose sends CLOSE on a goroutine of the transport's; the
// server's CLOSED arrives in a poll, and run ends the transport with a
// clean Closed.
func (t *longPoll) RequestClose() {
	t.sh.wg.Add(1)
	go func() {
		defer t.sh.wg.Done()
		_ = t.send(protocol.Close)
	}()
}

// CloseFor aborts every request at once and waits for nothing: run sees
// its context done and reports nothing more. The runner calls it in place
// of Close (runner.CauseCloser), saying why. (A real SDK also tells the
// server, so that it frees the session before it expires.)
func (t *longPoll) CloseFor(why runner.Cause) {
	t.cancel()
	t.tr.CloseIdleConnections()
	t.closeLog(why)
}

// Close is CloseFor without a reason; the runner calls CloseFor instead.
func (t *longPoll) Close() { t.CloseFor(runner.CauseNone) }

// cancelOnClose ends a request's context once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

func closeBody(resp *http.Response) {
	if resp != nil {
		resp.Body.Close()
	}
}
