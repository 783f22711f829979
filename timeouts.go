package reconnect

import (
	"fmt"
	"time"
)

// Timeouts holds the client options that govern retries and fallback, with
// the meaning the features spec gives them. DefaultTimeouts returns the
// spec's defaults; a zero Timeouts is not valid.
type Timeouts struct {
	// DisconnectedRetry is disconnectedRetryTimeout (TO3l1): the RTB1
	// initial timeout of a DISCONNECTED connection. Default 15 s.
	DisconnectedRetry time.Duration
	// SuspendedRetry is suspendedRetryTimeout (TO3l2): the flat interval
	// between retries of a SUSPENDED connection (RTN14e); no backoff, no
	// jitter. Default 30 s.
	SuspendedRetry time.Duration
	// ChannelRetry is channelRetryTimeout (TO3l7): the RTB1 initial timeout
	// of a SUSPENDED channel. Default 15 s.
	ChannelRetry time.Duration
	// ConnectionStateTTL is connectionStateTtl (DF1a): how long a
	// connection may go without CONNECTED before it becomes SUSPENDED.
	// Default 120 s.
	ConnectionStateTTL time.Duration
	// RealtimeRequest is realtimeRequestTimeout (TO3l11): among others the
	// connect timeout of RTN14c. Default 10 s.
	RealtimeRequest time.Duration
	// HTTPOpen is httpOpenTimeout (TO3l3). Default 4 s.
	HTTPOpen time.Duration
	// HTTPRequest is httpRequestTimeout (TO3l4). Default 10 s.
	HTTPRequest time.Duration
	// HTTPMaxRetryCount is httpMaxRetryCount (TO3l5): at most this many
	// fallback hosts are tried after the primary. Default 3. Zero is valid
	// and means no fallback host is ever tried.
	HTTPMaxRetryCount int
	// HTTPMaxRetryDuration is httpMaxRetryDuration (TO3l6): the cap on the
	// total time spent on REST fallback retries. Default 15 s.
	HTTPMaxRetryDuration time.Duration
	// FallbackRetry is fallbackRetryTimeout (TO3l10): how long a fallback
	// host that succeeded stays preferred (RSC15f). Default 10 min.
	FallbackRetry time.Duration
}

// DefaultTimeouts returns the features spec's default values (TO3l*, DF1a).
func DefaultTimeouts() Timeouts {
	return Timeouts{
		DisconnectedRetry:    15 * time.Second,
		SuspendedRetry:       30 * time.Second,
		ChannelRetry:         15 * time.Second,
		ConnectionStateTTL:   120 * time.Second,
		RealtimeRequest:      10 * time.Second,
		HTTPOpen:             4 * time.Second,
		HTTPRequest:          10 * time.Second,
		HTTPMaxRetryCount:    3,
		HTTPMaxRetryDuration: 15 * time.Second,
		FallbackRetry:        10 * time.Minute,
	}
}

// Validate reports the first field of t that is out of range, as a
// *FieldError naming it: every duration must be positive and
// HTTPMaxRetryCount must not be negative. It returns nil for a valid t.
func (t Timeouts) Validate() error {
	durations := [...]struct {
		name string
		v    time.Duration
	}{
		{"DisconnectedRetry", t.DisconnectedRetry},
		{"SuspendedRetry", t.SuspendedRetry},
		{"ChannelRetry", t.ChannelRetry},
		{"ConnectionStateTTL", t.ConnectionStateTTL},
		{"RealtimeRequest", t.RealtimeRequest},
		{"HTTPOpen", t.HTTPOpen},
		{"HTTPRequest", t.HTTPRequest},
		{"HTTPMaxRetryDuration", t.HTTPMaxRetryDuration},
		{"FallbackRetry", t.FallbackRetry},
	}
	for _, d := range durations {
		if d.v <= 0 {
			return &FieldError{Field: "Timeouts." + d.name, Value: d.v.String(), Problem: "must be positive"}
		}
	}
	if t.HTTPMaxRetryCount < 0 {
		return &FieldError{Field: "Timeouts.HTTPMaxRetryCount", Value: fmt.Sprint(t.HTTPMaxRetryCount), Problem: "must not be negative"}
	}
	return nil
}

// FieldError reports a configuration field whose value is out of range.
// Field is the field's Go selector path from the value that was checked:
// "Timeouts.DisconnectedRetry" from Timeouts.Validate,
// "EndpointOptions.FallbackHosts[2]" from ResolveHosts, and
// "Config.Timeouts.DisconnectedRetry" or "Config.Endpoint.Endpoint" from
// Config.Validate (and NewEngine). Value is the offending value as text and
// Problem says what is wrong with it.
type FieldError struct {
	Field   string
	Value   string
	Problem string
}

// Error returns a one-line description, e.g.
// "reconnect: Timeouts.HTTPOpen = -1s: must be positive".
func (e *FieldError) Error() string {
	return "reconnect: " + e.Field + " = " + e.Value + ": " + e.Problem
}
