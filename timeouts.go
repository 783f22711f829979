package reconnect

import (
	"fmt"
	"time"
)

// Timeouts holds the client options the engine and the runner read, with
// the meaning the features spec gives them. DefaultTimeouts returns the
// spec's defaults; a zero Timeouts is not valid. The timeouts of an SDK's
// REST client and channels, which neither reads, are constants below
// (DefaultChannelRetry and others) for the functions that take them.
type Timeouts struct {
	// DisconnectedRetry is disconnectedRetryTimeout (TO3l1): the RTB1
	// initial timeout of a DISCONNECTED connection. Default 15 s.
	DisconnectedRetry time.Duration
	// SuspendedRetry is suspendedRetryTimeout (TO3l2): the flat interval
	// between retries of a SUSPENDED connection (RTN14e); no backoff, no
	// jitter. Default 30 s.
	SuspendedRetry time.Duration
	// ConnectionStateTTL is connectionStateTtl (DF1a): how long a
	// connection may go without CONNECTED before it becomes SUSPENDED.
	// Default 120 s.
	ConnectionStateTTL time.Duration
	// RealtimeRequest is realtimeRequestTimeout (TO3l11). Default 10 s.
	// The spec gives it four jobs, each a field of its own below that
	// defaults to it: Connect, IdleSlack, Closing and Renewal.
	RealtimeRequest time.Duration
	// HTTPRequest is httpRequestTimeout (TO3l4): how long the connectivity
	// check may take. Default 10 s.
	HTTPRequest time.Duration
	// HTTPMaxRetryCount is httpMaxRetryCount (TO3l5): at most this many
	// fallback hosts are tried after the primary by an HTTP request.
	// Default 3. Zero is valid and means no fallback host is ever tried.
	// The engine's realtime host walk ignores it (RTN17j sets no cap)
	// except under engine.PolicyWebSocketCheck, which keeps ably-js's cap.
	HTTPMaxRetryCount int

	// The jobs of realtimeRequestTimeout, each on its own: 0 (the
	// default) means RealtimeRequest, as the spec has it; a value above 0
	// replaces it for that job only (WithDefaults).

	// Connect is the connect timeout of each transport (RTN14c: a
	// transport that has not connected within it is lost with a timeout,
	// the engine's connect timer); it is also what PolicyWebSocketCheck's
	// attempt limit adds to GiveUpTimeout, and how long the runner's Done
	// waits for a Dialer.Open that ignores its context.
	Connect time.Duration
	// IdleSlack is what the idle timer adds to the server's
	// maxIdleInterval (RTN23a: "maxIdleInterval … and the
	// realtimeRequestTimeout"). A client-side idle limit (engine's
	// Config.IdleLimit) is a whole limit and takes no slack.
	IdleSlack time.Duration
	// Closing bounds CLOSING (RTN12b): without the server's CLOSED within
	// it, every transport is disposed and the connection is CLOSED.
	Closing time.Duration
	// Renewal is how long a token renewal may take (RSA4c: "within
	// realtimeRequestTimeout"): the engine's renew-token timer and the
	// context of the runner's Options.RenewToken.
	Renewal time.Duration
}

// WithDefaults returns t with each of Connect, IdleSlack, Closing and
// Renewal that is 0 set to RealtimeRequest, the spec's one timeout for
// all four; the other fields are returned as they are. The engine and
// the runner read the timeouts through it.
func (t Timeouts) WithDefaults() Timeouts {
	for _, d := range [...]*time.Duration{&t.Connect, &t.IdleSlack, &t.Closing, &t.Renewal} {
		if *d == 0 {
			*d = t.RealtimeRequest
		}
	}
	return t
}

// DefaultTimeouts returns the features spec's default values (TO3l*, DF1a).
func DefaultTimeouts() Timeouts {
	return Timeouts{
		DisconnectedRetry:  15 * time.Second,
		SuspendedRetry:     30 * time.Second,
		ConnectionStateTTL: 120 * time.Second,
		RealtimeRequest:    10 * time.Second,
		HTTPRequest:        10 * time.Second,
		HTTPMaxRetryCount:  3,
	}
}

// The spec's defaults for the timeouts of an SDK's REST client and
// channels: neither the engine nor the runner reads them, so they are no
// part of Timeouts. Pass them to the functions that take them.
const (
	// DefaultChannelRetry is channelRetryTimeout (TO3l7): the RTB1 initial
	// timeout of a SUSPENDED channel, RetryDelay's initial for its
	// retries.
	DefaultChannelRetry = 15 * time.Second
	// DefaultFallbackRetry is fallbackRetryTimeout (TO3l10): how long a
	// fallback host that succeeded stays preferred (RSC15f), the ttl of
	// PreferredHost.FallbackSucceeded.
	DefaultFallbackRetry = 10 * time.Minute
	// DefaultHTTPOpen is httpOpenTimeout (TO3l3): how long a REST request
	// may take to open its connection.
	DefaultHTTPOpen = 4 * time.Second
	// DefaultHTTPMaxRetryDuration is httpMaxRetryDuration (TO3l6): the cap
	// on the total time a REST request spends on fallback retries.
	DefaultHTTPMaxRetryDuration = 15 * time.Second
)

// Validate reports the first field of t that is out of range, as a
// *FieldError naming it, its value and the spec's default: every spec
// duration must be positive, HTTPMaxRetryCount must not be negative, and
// Connect, IdleSlack, Closing and Renewal must not be negative (0 means
// RealtimeRequest). It returns nil for a valid t.
func (t Timeouts) Validate() error {
	def := DefaultTimeouts()
	durations := [...]struct {
		name   string
		v, def time.Duration
	}{
		{"DisconnectedRetry", t.DisconnectedRetry, def.DisconnectedRetry},
		{"SuspendedRetry", t.SuspendedRetry, def.SuspendedRetry},
		{"ConnectionStateTTL", t.ConnectionStateTTL, def.ConnectionStateTTL},
		{"RealtimeRequest", t.RealtimeRequest, def.RealtimeRequest},
		{"HTTPRequest", t.HTTPRequest, def.HTTPRequest},
	}
	for _, d := range durations {
		if d.v <= 0 {
			return &FieldError{Field: "Timeouts." + d.name, Value: d.v.String(), Problem: "must be positive: the spec's default is " + d.def.String()}
		}
	}
	if t.HTTPMaxRetryCount < 0 {
		return &FieldError{Field: "Timeouts.HTTPMaxRetryCount", Value: fmt.Sprint(t.HTTPMaxRetryCount), Problem: "must not be negative: the spec's default is 3, and 0 tries no fallback host"}
	}
	jobs := [...]struct {
		name string
		v    time.Duration
	}{{"Connect", t.Connect}, {"IdleSlack", t.IdleSlack}, {"Closing", t.Closing}, {"Renewal", t.Renewal}}
	for _, j := range jobs {
		if j.v < 0 {
			return &FieldError{Field: "Timeouts." + j.name, Value: j.v.String(), Problem: "must not be negative: 0 means RealtimeRequest (realtimeRequestTimeout), the spec's timeout for it"}
		}
	}
	return nil
}

// FieldError reports a configuration field whose value is out of range.
// Field is the field's Go selector path from the value that was checked:
// "Timeouts.DisconnectedRetry" from Timeouts.Validate,
// "EndpointOptions.FallbackHosts[2]" from ResolveHosts,
// "Config.Timeouts.DisconnectedRetry" or "Config.Endpoint.Endpoint" from
// engine's Config.Validate (and engine.New), and
// "Options.CheckConnectivity" from runner.New. Value is the offending value
// as text, a string quoted as in Go. Problem says what is wrong with it
// and what is expected instead, in words a user would use.
type FieldError struct {
	Field   string
	Value   string
	Problem string
}

// Error returns a one-line description, e.g.
// "reconnect: Timeouts.HTTPRequest = -1s: must be positive: the spec's
// default is 10s".
func (e *FieldError) Error() string {
	return "reconnect: " + e.Field + " = " + e.Value + ": " + e.Problem
}
