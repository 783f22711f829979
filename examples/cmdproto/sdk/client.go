// Package sdk is a realtime SDK for the cmdproto protocol (package
// protocol) on package runner: one websocket to "localhost:<port>"-style
// endpoints, CONNECTED as the reply to a connect command, server pings
// with no announced interval (the client-side idle limit,
// engine.Config.IdleLimit, detects a stalled server), capped exponential
// backoff with full jitter between attempts, and the transport notices
// (runner.Notified, runner.CauseCloser) deciding when the transport
// delivers and sends and which close status it sends.
package sdk

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/examples/cmdproto/protocol"
	"github.com/reconnect-go/reconnect/runner"
)

// Options configure a Client.
type Options struct {
	// Endpoints are the server's endpoints as "host:port" (for example
	// "localhost:8080"), the first the primary, the others tried when it
	// fails in a way that qualifies (reconnect.ShouldFallback). The
	// runner's Dialer receives them exactly as given. At least one.
	Endpoints []string
	// Token is sent in the connect command.
	Token string
	// IdleLimit is how long the connection may hear nothing, not even a
	// ping, before it is dropped as stalled (engine.Config.IdleLimit);
	// 0 means 3 s, three of the server's 1 s pings missed.
	IdleLimit time.Duration
	// ConnectTimeout bounds one attempt, the handshake and the connect
	// command's reply (reconnect.Timeouts.Connect); 0 means 5 s.
	ConnectTimeout time.Duration
	// Logger receives every state change; nil means slog.Default().
	Logger *slog.Logger
	// OnMessage receives every event, in order, on a goroutine of the
	// transport's; it must return promptly.
	OnMessage func(data string)
	// OnStateChange, if not nil, receives every state change after it is
	// logged, on a goroutine of the runner's.
	OnStateChange func(runner.StateChange)
}

// The backoff between attempts: capped exponential with full jitter, the
// delay of retry n drawn from [0, min(Cap, Base·2ⁿ)) (AWS's "full
// jitter"), as the Go client this SDK stands for did. RTB1's flat
// 0.5–1 s would hit a struggling server about four times as often.
var backoff = reconnect.FullJitter{Base: 200 * time.Millisecond, Cap: 20 * time.Second}

// ImmediateInterval rate-limits the reconnect at once after a drop: at
// most one per ImmediateInterval, later drops wait for the backoff. One
// network blip recovers at once, while a server that drops every session
// (a restart, an overload) gets jittered retries instead of every client
// back at the same instant.
const ImmediateInterval = 10 * time.Second

// ErrNotConnected is Publish's error when no transport is active.
var ErrNotConnected = errors.New("sdk: not connected")

// Client is one cmdproto connection.
type Client struct {
	r      *runner.Runner
	cancel context.CancelFunc
	sh     *shared
}

// New returns a Client in state INITIALIZED; Connect connects it. An
// invalid option is a *reconnect.FieldError naming it.
func New(o Options) (*Client, error) {
	if len(o.Endpoints) == 0 {
		return nil, &reconnect.FieldError{Field: "Options.Endpoints", Value: "[]", Problem: `must name at least one endpoint, such as "localhost:8080"`}
	}
	if o.IdleLimit < 0 || o.ConnectTimeout < 0 {
		return nil, &reconnect.FieldError{Field: "Options.IdleLimit", Value: o.IdleLimit.String() + ", ConnectTimeout " + o.ConnectTimeout.String(), Problem: "must not be negative: 0 means the default"}
	}
	lg := o.Logger
	if lg == nil {
		lg = slog.Default()
	}
	sh := &shared{log: lg, token: o.Token, onMessage: o.OnMessage}

	cfg := config(o)
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{cancel: cancel, sh: sh}
	r, err := runner.New(ctx, runner.Options{
		Config:            cfg,
		Dialer:            dialer{sh: sh},
		CheckConnectivity: runner.NoConnectivityCheck, // one service: nothing to check before a fallback
		OnStateChange: func(ch runner.StateChange) {
			logChange(lg, ch)
			sh.noteChange()
			if o.OnStateChange != nil {
				o.OnStateChange(ch)
			}
		},
	})
	if err != nil {
		cancel()
		return nil, err
	}
	c.r = r
	return c, nil
}

// config is the engine's configuration for o: websocket only, the
// client-side idle limit, the connect timeout, the backoff and the
// rate-limited immediate reconnect.
func config(o Options) engine.Config {
	cfg := engine.Defaults()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: o.Endpoints[0], FallbackHosts: o.Endpoints[1:]}
	cfg.Transports = reconnect.Availability{WebSocket: true} // websocket only
	cfg.IdleLimit = cmp(o.IdleLimit, 3*time.Second)          // the server announces no interval
	cfg.Timeouts.Connect = cmp(o.ConnectTimeout, 5*time.Second)
	cfg.Retry = backoff.Policy()
	cfg.ImmediateReconnect = engine.ImmediateLimited
	cfg.ImmediateReconnectInterval = ImmediateInterval

	return cfg
}

func cmp(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Connect connects and waits for the first attempt's outcome
// (runner.Runner.WaitConnected): nil once CONNECTED, a
// *runner.ConnectError when it failed (errors.As finds the server's
// *protocol.Error or *CloseError in it), or ctx's error. The runner keeps
// retrying after a failure either way.
func (c *Client) Connect(ctx context.Context) error {
	c.r.Connect()
	return c.r.WaitConnected(ctx)
}

// State returns the connection's state.
func (c *Client) State() engine.State { return c.r.State() }

// Publish sends data on the active transport, or returns ErrNotConnected.
func (c *Client) Publish(data string) error {
	t, ok := c.r.Active().(*transport)
	if !ok {
		return ErrNotConnected
	}
	return t.send(protocol.Command{Cmd: protocol.CmdPublish, Data: data})
}

// Close closes the connection (the close command, then the server's close
// with 1000), stops the runner and waits for the transports' goroutines,
// or for ctx. It returns an error when the server did not confirm the
// close.
func (c *Client) Close(ctx context.Context) error {
	c.sh.unclean.Store(false)
	c.r.Close()
	var err error
	for err == nil {
		ch := c.sh.changes() // before the state: no change is missed
		if s := c.r.State(); s == engine.Closed || s == engine.Failed {
			break
		}
		select {
		case <-ch:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err == nil && c.sh.unclean.Load() {
		err = errors.New("sdk: closed without the server's confirmation")
	}
	c.cancel()
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
	return err
}

func logChange(lg *slog.Logger, ch runner.StateChange) {
	attrs := []any{"from", ch.From, "to", ch.To, "reason", ch.Reason}
	if ch.Failure.Kind != reconnect.FailureNone {
		attrs = append(attrs, "failure", ch.Failure.Error())
	}
	if ch.RetryIn > 0 {
		attrs = append(attrs, "retryIn", ch.RetryIn.Round(time.Millisecond))
	}
	if ch.TransportID != 0 {
		attrs = append(attrs, "endpoint", ch.Host, "id", ch.TransportID)
	}
	lg.Info("state", attrs...)
}
