package lab

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/reconnect-go/reconnect"
)

// DialFunc connects to "name:port"; Server.DialContext is one.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Report receives a transport's events: EventTransportViable,
// EventTransportConnected, then at most one of EventTransportFailed
// (before CONNECTED) or EventTransportClosed (after it, or after Close),
// with the Failure that caused it (zero for a close asked for by Close).
// It is called from the transport's own goroutine, one call at a time.
type Report func(kind reconnect.EventKind, f reconnect.Failure)

// Conn is one open transport.
type Conn interface {
	// Close closes the transport: a websocket close handshake, or the
	// long-poll session's close request. It does not block; the transport
	// reports EventTransportClosed with a zero Failure when done, unless it
	// had already failed or closed. Calling it again does nothing.
	Close()
	// Done is closed once the transport's goroutines have ended.
	Done() <-chan struct{}
}

// Client opens lab transports through Dial. Its zero value is not usable;
// its methods are safe for concurrent use.
type Client struct {
	Dial DialFunc
	// PollTimeout bounds one long poll's wait for the server's answer;
	// 0 means 30 s.
	PollTimeout time.Duration
}

// Open opens a transport of kind k to host in mode m; report receives its
// events. It returns at once; the connection proceeds in the background.
func (c *Client) Open(k reconnect.Transport, host string, m reconnect.Mode, report Report) Conn {
	if k == reconnect.WebSocket {
		return c.openWebSocket(host, m, report)
	}
	return c.openLongPoll(host, m, report)
}

// CheckConnectivity GETs url and reports whether the answer says the
// internet is up (reconnect.ConnectivityUp); a failed request is down.
func (c *Client) CheckConnectivity(ctx context.Context, url string) bool {
	hc := &http.Client{Transport: &http.Transport{DialContext: c.Dial, DisableKeepAlives: true}}
	defer hc.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := hc.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	return err == nil && reconnect.ConnectivityUp(resp.StatusCode, body)
}

// classify turns a connect error (and the response, if any) into the
// Failure the engine's host-fallback rules read.
func classify(err error, resp *http.Response) reconnect.Failure {
	var dns *net.DNSError
	var ne net.Error
	switch {
	case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols && resp.StatusCode != http.StatusOK:
		return reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: resp.StatusCode, Server: resp.Header.Get("Server")}
	case errors.As(err, &dns):
		return reconnect.Failure{Kind: reconnect.FailureDNS}
	case errors.Is(err, syscall.ECONNREFUSED):
		return reconnect.Failure{Kind: reconnect.FailureRefused}
	case errors.As(err, &ne) && ne.Timeout():
		return reconnect.Failure{Kind: reconnect.FailureTimeout}
	}
	return reconnect.Failure{Kind: reconnect.FailureUnreachable}
}

// lifecycle is what both transports share: the report gate (viable and
// connected at most once, one final event), the close request and the
// done signal.
type lifecycle struct {
	report    Report
	ctx       context.Context
	cancel    context.CancelFunc
	closeReq  chan struct{}
	closeOnce sync.Once
	done      chan struct{}
	connected bool
	ended     bool
}

func newLifecycle(report Report) *lifecycle {
	ctx, cancel := context.WithCancel(context.Background())
	return &lifecycle{report: report, ctx: ctx, cancel: cancel, closeReq: make(chan struct{}), done: make(chan struct{})}
}

func (l *lifecycle) Close()                { l.closeOnce.Do(func() { close(l.closeReq) }) }
func (l *lifecycle) Done() <-chan struct{} { return l.done }

// closing reports whether Close was called.
func (l *lifecycle) closing() bool {
	select {
	case <-l.closeReq:
		return true
	default:
		return false
	}
}

func (l *lifecycle) viable() {
	if !l.ended {
		l.report(reconnect.EventTransportViable, reconnect.Failure{})
	}
}

func (l *lifecycle) connectedNow() {
	if !l.ended && !l.connected {
		l.connected = true
		l.report(reconnect.EventTransportConnected, reconnect.Failure{})
	}
}

// end reports the final event once: closed after Close or CONNECTED,
// failed before.
func (l *lifecycle) end(f reconnect.Failure) {
	if l.ended {
		return
	}
	l.ended = true
	switch {
	case l.closing():
		l.report(reconnect.EventTransportClosed, reconnect.Failure{})
	case l.connected:
		l.report(reconnect.EventTransportClosed, f)
	default:
		l.report(reconnect.EventTransportFailed, f)
	}
}
