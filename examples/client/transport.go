package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/coder/websocket"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/runner"
)

// dialer opens websocket and HTTP transports. Every host name the engine
// asks for is mapped to an address by hosts: a real SDK resolves it (or
// maps it to a proxy) the same way.
type dialer struct {
	hosts map[string]string // host name → address
}

// dial is the one place a connection starts: unknown host names fail as
// DNS failures do, known ones dial their address.
func (d dialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, _ := net.SplitHostPort(addr)
	to, ok := d.hosts[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, to)
}

// client returns an HTTP client that dials through d and remembers the
// last dial error: the websocket library keeps errors only as text, and
// runner.Classify needs the error itself.
func (d dialer) client() (*http.Client, func() error) {
	var mu sync.Mutex
	var last error
	tr := &http.Transport{DisableKeepAlives: true, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.dial(ctx, network, addr)
		mu.Lock()
		last = err
		mu.Unlock()
		return c, err
	}}
	return &http.Client{Transport: tr}, func() error { mu.Lock(); defer mu.Unlock(); return last }
}

// transport is one websocket or HTTP transport.
type transport struct {
	ctx    context.Context
	cancel context.CancelFunc
	report reporter
	kind   reconnect.Transport
	url    string
	hc     *http.Client
	ws     *websocket.Conn // websocket only, once open
	mu     sync.Mutex
}

// Open starts a transport on its own goroutine and returns at once.
func (d dialer) Open(_ context.Context, req runner.OpenRequest, report runner.Reporter) runner.Transport {
	ctx, cancel := context.WithCancel(context.Background())
	hc, lastDialErr := d.client()
	t := &transport{ctx: ctx, cancel: cancel, report: logged{report, req}, kind: req.Kind, url: "http://" + req.Host, hc: hc}
	if req.Kind == reconnect.WebSocket {
		go t.runWebSocket(lastDialErr)
	} else {
		go t.runHTTP()
	}
	return t
}

func (t *transport) runWebSocket(lastDialErr func() error) {
	c, resp, err := websocket.Dial(t.ctx, strings.Replace(t.url, "http", "ws", 1)+"/ws", &websocket.DialOptions{HTTPClient: t.hc})
	if err != nil {
		if dialErr := lastDialErr(); dialErr != nil {
			err = dialErr
		}
		t.report.Failed(runner.Classify(err, resp))
		return
	}
	t.mu.Lock()
	t.ws = c
	t.mu.Unlock()
	t.report.Viable() // the server answered 101 Switching Protocols
	for {
		_, msg, err := c.Read(t.ctx)
		switch {
		case err != nil && websocket.CloseStatus(err) != -1:
			t.report.Closed(runner.CloseStatusFailure(int(websocket.CloseStatus(err))))
			return
		case err != nil:
			t.report.Closed(runner.Classify(err, nil))
			return
		case string(msg) == "CONNECTED":
			t.report.Connected()
		case string(msg) == "CLOSED":
			t.report.Closed(reconnect.Failure{})
			return
		}
	}
}

func (t *transport) runHTTP() {
	body, resp, err := t.request(http.MethodGet, "/comet/connect")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.report.Failed(runner.Classify(err, resp))
		return
	}
	t.report.Viable() // the connect request got a 2xx status
	if body == "CONNECTED" {
		t.report.Connected()
	}
	// A real long-poll transport polls here until the connection ends.
}

// request sends one HTTP request and returns the response's body.
func (t *transport) request(method, path string) (string, *http.Response, error) {
	req, err := http.NewRequestWithContext(t.ctx, method, t.url+path, nil)
	if err != nil {
		return "", nil, err
	}
	resp, err := t.hc.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return string(b), resp, err
}

// RequestClose sends the realtime CLOSE; the transport reports Closed when
// the server's CLOSED arrives.
func (t *transport) RequestClose() {
	if t.kind == reconnect.HTTP {
		go func() {
			if body, _, err := t.request(http.MethodPost, "/comet/close"); err == nil && body == "CLOSED" {
				t.report.Closed(reconnect.Failure{})
			}
		}()
		return
	}
	t.mu.Lock()
	c := t.ws
	t.mu.Unlock()
	if c != nil {
		go c.Write(t.ctx, websocket.MessageText, []byte("CLOSE"))
	}
}

// Close drops the transport at once.
func (t *transport) Close() {
	t.cancel()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ws != nil {
		t.ws.CloseNow()
	}
}

// reporter is what a transport needs of runner.Reporter: an interface of
// the transport's own, so that logged can wrap it (and a test could stand
// in for it).
type reporter interface {
	Viable()
	Connected()
	Failed(reconnect.Failure)
	Closed(reconnect.Failure)
	Fatal(reconnect.Failure)
}

// logged prints how each transport failed or closed, as it reports it.
type logged struct {
	runner.Reporter
	req runner.OpenRequest
}

func (l logged) Failed(f reconnect.Failure) {
	fmt.Printf("  transport %d (%v to %s) failed: %v; another host? %v\n", l.req.ID, l.req.Kind, l.req.Host, f, reconnect.ShouldFallback(f))
	l.Reporter.Failed(f)
}

func (l logged) Closed(f reconnect.Failure) {
	fmt.Printf("  transport %d (%v to %s) closed: %v\n", l.req.ID, l.req.Kind, l.req.Host, f)
	l.Reporter.Closed(f)
}
