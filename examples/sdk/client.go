package sdk

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/examples/protocol"
	"github.com/reconnect-go/reconnect/runner"
)

// Options configure a Client.
type Options struct {
	// Endpoint is the primary host, FallbackHosts the hosts tried, in
	// random order, when the primary fails in a way that qualifies
	// (reconnect.ShouldFallback). Both are your service's, never a
	// default: the engine would otherwise resolve a vendor's hosts. A
	// host may carry a port ("rt.example.com:8443", "realtime:8080",
	// "127.0.0.1:9000") and may be one label ("realtime"); the dialer
	// receives it exactly as written here.
	Endpoint      string
	FallbackHosts []string
	// Resolve, if not nil, maps a host (without its port) to the address
	// to dial, "ip:port": a proxy, a service registry, a test's listeners;
	// ok false fails the dial as an unknown host does (FailureDNS). nil
	// dials the host as configured (port 80 when it names none) through
	// the system's DNS.
	Resolve func(host string) (addr string, ok bool)
	// ConnectivityCheckURL is the URL the runner GETs before it tries a
	// fallback host (RTN17j): the internet is up when it answers "yes"
	// (reconnect.ConnectivityUp). Required; its host goes through Resolve.
	ConnectivityCheckURL string
	// Logger receives every state change (Info; Warn for DISCONNECTED,
	// SUSPENDED and FAILED with a failure) and how each transport ended
	// (Debug). nil means slog.Default().
	Logger *slog.Logger
	// OnMessage, if not nil, receives every message, on the goroutine of
	// the transport that brought it: it must return promptly.
	OnMessage func(Message)
	// OnStateChange, if not nil, receives every state change after it is
	// logged, on a goroutine of the runner's.
	OnStateChange func(runner.StateChange)
	// Token is the token the connect requests carry (query "token"), and
	// RenewToken, if not nil, obtains a new one after a token error
	// (RTN14b, RTN15h): the runner calls it once, on a goroutine of its
	// own, bounded by realtimeRequestTimeout, and connects again at once
	// with the token it returned. An error fails the renewal (a
	// *runner.StatusError with Status 403 makes the connection FAILED,
	// RSA4d). Without RenewToken a token error makes the connection
	// FAILED (RTN15h1).
	Token      string
	RenewToken func(ctx context.Context) (string, error)
	// RealtimeRequestTimeout is realtimeRequestTimeout (TO3l11): how long
	// a transport may take to connect, and what the idle timer adds to
	// the server's maxIdleInterval (RTN23a); 0 means the spec's 10 s.
	RealtimeRequestTimeout time.Duration
	// Inline sets runner.Options.Inline: this package's code keeps its
	// three promises (no lock held across a call into the runner, a Close
	// that waits for nothing, an Open that returns at once); OnMessage and
	// OnStateChange must keep them too.
	Inline bool
}

// Message is one message the server sent, with the transport and host it
// came through.
type Message struct {
	Data      string
	Transport reconnect.TransportKind
	Host      string
}

// ErrNotConnected is Publish's error when there is no active transport to
// send on. A real SDK queues the message until CONNECTED instead.
var ErrNotConnected = errors.New("sdk: not connected")

// Client is one realtime connection.
type Client struct {
	r      *runner.Runner
	cancel context.CancelFunc
	sh     *shared
	idle   []*http.Client // the clients shared by all transports: Close drops their idle connections

	mu      sync.Mutex
	state   engine.State
	changed chan struct{} // closed and replaced at each state change
}

// shared is what the Client's transports share with it.
type shared struct {
	log       *slog.Logger
	onMessage func(Message)
	wg        sync.WaitGroup // every goroutine of every transport
	// uncleanClose: a transport was deactivated for a close requested
	// before the server's CLOSED reached it (conn.Deactivated).
	uncleanClose atomic.Bool
	// token is the token the next connect requests carry.
	token atomic.Pointer[string]
}

// tokenQuery is the query parameter carrying the token, "&token=…", or
// "" without one.
func (sh *shared) tokenQuery() string {
	if p := sh.token.Load(); p != nil && *p != "" {
		return "&token=" + url.QueryEscape(*p)
	}
	return ""
}

// New returns a Client in state INITIALIZED; call Connect to connect. It
// returns a *reconnect.FieldError for an invalid option, naming it.
func New(o Options) (*Client, error) {
	if o.Endpoint == "" {
		return nil, &reconnect.FieldError{Field: "Options.Endpoint", Value: `""`, Problem: "is required: your service's primary host name"}
	}
	if o.ConnectivityCheckURL == "" {
		return nil, &reconnect.FieldError{Field: "Options.ConnectivityCheckURL", Value: `""`, Problem: "is required: a URL of yours that answers \"yes\""}
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.Default()
	}
	c := &Client{sh: &shared{log: lg, onMessage: o.OnMessage}, changed: make(chan struct{})}
	c.sh.token.Store(&o.Token)
	d := newDialer(o.Resolve, c.sh)
	check := &http.Client{Transport: &http.Transport{DialContext: d.dialContext}}
	c.idle = []*http.Client{check, d.ws}

	cfg := engine.Defaults() // the spec's timings; no host of anyone else's
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: o.Endpoint, FallbackHosts: o.FallbackHosts}
	if o.RealtimeRequestTimeout != 0 {
		cfg.Timeouts.RealtimeRequest = o.RealtimeRequestTimeout // runner.New checks it
	}
	var renew func(context.Context) error
	if o.RenewToken != nil {
		renew = func(ctx context.Context) error {
			tok, err := o.RenewToken(ctx)
			if err != nil {
				lg.Warn("token renewal failed", "error", err)
				return err
			}
			c.sh.token.Store(&tok) // the next transports carry it
			lg.Info("token renewed")
			return nil
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	r, err := runner.New(ctx, runner.Options{
		RenewToken:        renew,
		Config:            cfg,
		Dialer:            d,
		CheckConnectivity: runner.HTTPConnectivityCheck(check, o.ConnectivityCheckURL),
		OnStateChange: func(ch runner.StateChange) {
			c.logChange(ch)
			c.noteChange(ch)
			if o.OnStateChange != nil {
				o.OnStateChange(ch)
			}
		},
		Inline: o.Inline,
	})
	if err != nil {
		cancel()
		return nil, err
	}
	c.r, c.cancel = r, cancel
	return c, nil
}

// Connect connects, or reconnects a closed connection, and returns the
// first attempt's outcome (runner.Runner.WaitConnected): nil once
// CONNECTED, a *runner.ConnectError when the attempt failed (its Failure
// carries the transport's own error: errors.Is and errors.As see it), or
// ctx's error. The runner keeps retrying after a failure either way.
func (c *Client) Connect(ctx context.Context) error {
	c.r.Connect()
	return c.r.WaitConnected(ctx)
}

// State returns the connection's state.
func (c *Client) State() engine.State { return c.r.State() }

// Publish sends one message (one line of text) on the active transport.
// It returns ErrNotConnected when there is none: not CONNECTED, or for the
// moment the runner takes to close a transport it replaces.
func (c *Client) Publish(data string) error {
	if strings.ContainsAny(data, "\r\n") {
		return errors.New("sdk: a message is one line: it holds a line break")
	}
	s, ok := c.r.Active().(sender)
	if !ok {
		return ErrNotConnected
	}
	return s.send(protocol.Format(protocol.Msg{Kind: protocol.Message, Data: data}))
}

// Close closes the connection cleanly (CLOSE, then the server's CLOSED:
// RTN12), stops the runner and waits for every goroutine of the Client's
// to end, or for ctx. It returns an error when the connection went
// CLOSING but the server never confirmed the close (the runner then gave
// up after realtimeRequestTimeout), or when ctx ended first.
func (c *Client) Close(ctx context.Context) error {
	c.sh.uncleanClose.Store(false)
	c.r.Close()
	err := c.await(ctx, engine.Closed, engine.Failed)
	if err == nil && c.sh.uncleanClose.Load() {
		err = errors.New("sdk: closed without the server's CLOSED")
	}
	c.cancel() // stops the runner: it closes every transport left
	select {
	case <-c.r.Done():
	case <-ctx.Done():
		return ctx.Err()
	}
	ended := make(chan struct{})
	go func() { c.sh.wg.Wait(); close(ended) }()
	select {
	case <-ended:
	case <-ctx.Done():
		return ctx.Err()
	}
	for _, hc := range c.idle {
		hc.CloseIdleConnections()
	}
	return err
}

// await waits for the connection to reach one of states, or for ctx.
func (c *Client) await(ctx context.Context, states ...engine.State) error {
	for {
		c.mu.Lock()
		s, changed := c.state, c.changed
		c.mu.Unlock()
		for _, want := range states {
			if s == want {
				return nil
			}
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (c *Client) noteChange(ch runner.StateChange) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state = ch.To
	close(c.changed)
	c.changed = make(chan struct{})
}

// logChange logs one state change. An UPDATE (RTN4h: no change of
// state; the upgrade websocket taking over from HTTP, say) is logged as
// "update".
func (c *Client) logChange(ch runner.StateChange) {
	msg, level := "state", slog.LevelInfo
	if ch.Update {
		msg = "update"
	}
	attrs := []any{"from", ch.From, "to", ch.To, "reason", ch.Reason}
	if ch.Failure.Kind != reconnect.FailureNone {
		attrs = append(attrs, "failure", ch.Failure.String())
		if ch.To == engine.Disconnected || ch.To == engine.Suspended || ch.To == engine.Failed {
			level = slog.LevelWarn
		}
	}
	if ch.RetryIn > 0 {
		attrs = append(attrs, "retryIn", ch.RetryIn)
	}
	if ch.TransportID != 0 { // the transport the change concerns: the one that connected, dropped, timed out
		attrs = append(attrs, "transport", ch.TransportKind, "id", ch.TransportID, "host", ch.Host)
	}
	if ch.Missed > 0 {
		attrs = append(attrs, "missed", ch.Missed)
	}
	c.sh.log.Log(context.Background(), level, msg, attrs...)
}
