package lab

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// DialFunc connects to "name:port"; Server.DialContext is one.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// Reporter receives one transport's events; it has the method set of the
// runner's Reporter, whose documentation says when each is due. A lab
// transport calls it from its own goroutine, one call at a time: Viable,
// ConnectedWith (with the CONNECTED message's details), Activity for
// every later message the server sends (a poll's answer included), then
// at most one of Failed (before viable) or Closed (after it); nothing
// after Close.
type Reporter interface {
	Viable()
	ConnectedWith(engine.Details, reconnect.Failure)
	Activity()
	Failed(reconnect.Failure)
	Closed(reconnect.Failure)
	Fatal(reconnect.Failure)
}

// Conn is one open lab transport.
type Conn interface {
	// RequestClose sends the protocol's CLOSE; the transport reports
	// Closed with a zero Failure when the server's CLOSED arrives.
	RequestClose()
	// Close closes the transport at once (the websocket without a close
	// handshake; the long-poll session with an abort request, bounded by a
	// second) and reports nothing more. It does not block.
	Close()
	// Done is closed once the transport's goroutines have ended.
	Done() <-chan struct{}
}

// Client opens lab transports through Dial. Its methods are safe for
// concurrent use.
type Client struct {
	Dial DialFunc
	// PollTimeout bounds one long poll's wait for the server's answer;
	// 0 means 30 s.
	PollTimeout time.Duration
	// Query, if not empty, is added to the query of every request the
	// transports make ("client=3"), so that a proxy can tell whose
	// request it is. It must be a valid, encoded query.
	Query string
	// OnMessage, if set, receives the text of every application message
	// (Options.Message) a transport receives, from the transport's
	// goroutine, until the transport ends or is closed.
	OnMessage func(text string)
}

// query returns the query parameters to append to a URL that already has
// a query: "" or "&" + Query.
func (c *Client) query() string {
	if c.Query == "" {
		return ""
	}
	return "&" + c.Query
}

// Open opens a transport of kind k to host in mode m; rep receives its
// events. It returns at once; the connection proceeds in the background.
func (c *Client) Open(k reconnect.TransportKind, host string, m reconnect.Mode, rep Reporter) Conn {
	if k == reconnect.WebSocket {
		return c.openWebSocket(host, m, rep)
	}
	return c.openLongPoll(host, m, rep)
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

// lifecycle is what both transports share: the report gate (viable and
// connected at most once, one final event, nothing after Close), the close
// request and the done signal. Only the transport's goroutine reports.
type lifecycle struct {
	rep       Reporter
	onMessage func(string)
	ctx       context.Context // done after Close
	cancel    context.CancelFunc
	closeReq  chan struct{}
	reqOnce   sync.Once
	done      chan struct{}
	viableNow bool
	connected bool
	ended     bool
}

func newLifecycle(rep Reporter) *lifecycle {
	ctx, cancel := context.WithCancel(context.Background())
	return &lifecycle{rep: rep, ctx: ctx, cancel: cancel, closeReq: make(chan struct{}), done: make(chan struct{})}
}

func (l *lifecycle) RequestClose()         { l.reqOnce.Do(func() { close(l.closeReq) }) }
func (l *lifecycle) Close()                { l.cancel() }
func (l *lifecycle) Done() <-chan struct{} { return l.done }

// live reports whether reports still go out.
func (l *lifecycle) live() bool { return !l.ended && l.ctx.Err() == nil }

// message delivers an application message while reports still go out.
func (l *lifecycle) message(text string) {
	if l.live() && l.onMessage != nil {
		l.onMessage(text)
	}
}

func (l *lifecycle) viable() {
	if l.live() && !l.viableNow {
		l.viableNow = true
		l.rep.Viable()
	}
}

// connectedNow reports the CONNECTED message, with its details d. The
// message itself is activity to the engine (RTN23a), so it is not
// reported as Activity too: the runner would count it at its next sample.
func (l *lifecycle) connectedNow(d engine.Details) {
	if l.live() && !l.connected {
		l.viable()
		l.connected = true
		l.rep.ConnectedWith(d, reconnect.Failure{})
	}
}

// activity reports a message received after CONNECTED (RTN23a).
func (l *lifecycle) activity() {
	if l.live() && l.connected {
		l.rep.Activity()
	}
}

// end reports the final event once: Failed before viable, Closed after.
func (l *lifecycle) end(f reconnect.Failure) {
	if !l.live() {
		return
	}
	l.ended = true
	if l.viableNow {
		l.rep.Closed(f)
	} else {
		l.rep.Failed(f)
	}
}
