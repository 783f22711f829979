package engine

// Config, its defaults and validation, and the transport policies.

import (
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Policy is how a connection attempt chooses its first transport.
type Policy uint8

const (
	// PolicyWebSocketFirst is the transport-fallback proposal: a websocket
	// on the primary host with a short-circuit timer, then HTTP, then the
	// host fallback flow. The default.
	PolicyWebSocketFirst Policy = iota
	// PolicyHTTPFirst is what the proposal replaced: HTTP first, with host
	// fallback, then an upgrade to a websocket once HTTP is active.
	PolicyHTTPFirst
	// PolicyWebSocketCheck is the connection manager of ably-js 2.28.0,
	// checked against the real SDK timeline by timeline
	// (conformance/ably-js-parity): an attempt starts on the remembered
	// transport (Config.Preference; a remembered HTTP checks the websocket
	// in the background and returns to it when it opens), else the
	// websocket walks the hosts on its own; after Config.SlowTimeout (4 s) a
	// websocket check and an HTTP connectivity check run (the latter down
	// means DISCONNECTED); a failed websocket check stops the websocket
	// walk; after Config.GiveUpTimeout (10 s) HTTP takes over unless the
	// websocket check passed; when the websocket has failed on every host a
	// websocket check runs at once (failed means HTTP now, passed means
	// DISCONNECTED, no answer leaves it to the give-up timer); a transport
	// that opens ends the slow and give-up timers and its own connect
	// timeout; the attempt ends after GiveUpTimeout + realtimeRequestTimeout
	// (TimerAttempt) however many hosts remain; the same runs with websocket
	// as the only transport; and no upgrade follows an active HTTP.
	PolicyWebSocketCheck
	numPolicies
)

// String returns "websocket-first", "http-first" or "websocket-check".
func (p Policy) String() string { return enumName(policyNames[:], int(p), "Policy") }

var policyNames = [numPolicies]string{"websocket-first", "http-first", "websocket-check"}

// Config configures an Engine. Its zero value is not valid: start from
// DefaultConfig.
type Config struct {
	// Timeouts are the retry and fallback timeouts; see Timeouts.Validate.
	Timeouts reconnect.Timeouts
	// ShortCircuit is how long the first websocket has to itself before
	// HTTP starts too; 0 means DefaultShortCircuit. It must not be
	// negative: Validate rejects a negative value (ChooseTransport, which
	// returns no error, treats it as 0).
	ShortCircuit time.Duration
	// Endpoint names the hosts; see ResolveHosts.
	Endpoint reconnect.EndpointOptions
	// Transports says which transports exist; at least one must.
	Transports reconnect.Availability
	// Policy chooses the first transport of each attempt.
	Policy Policy
	// SlowTimeout and GiveUpTimeout are PolicyWebSocketCheck's two timers;
	// 0 means the defaults, DefaultSlowTimeout and DefaultGiveUpTimeout.
	// Other policies ignore them. They must not be negative.
	SlowTimeout, GiveUpTimeout time.Duration
	// Flap is the flapping guard: after websockets that activated keep
	// dropping, prefer HTTP for a while. The zero value means its
	// defaults; see FlapGuard.
	Flap FlapGuard
	// Preference is the remembered transport to start with, as the SDK
	// persisted it (see Preference.MarshalText); the zero value remembers
	// nothing. Engine.Preference returns the current one to persist.
	Preference reconnect.Preference
	// PreferenceTTL is how long a remembered transport is used; 0 means
	// DefaultPreferenceTTL. It must not be negative.
	PreferenceTTL time.Duration
	// RememberTransport makes PolicyWebSocketFirst and PolicyHTTPFirst
	// remember and use the transport preference too; PolicyWebSocketCheck
	// always does, as the SDK it models does.
	RememberTransport bool
	// Source draws the RTB1 jitter and the fallback host order; nil means
	// DefaultSource. The engine calls it only from Step. A Source shared by
	// engines stepped on different goroutines must be safe for concurrent
	// use: DefaultSource is, a *rand.Rand is not (give each engine its own,
	// or guard a shared one with a lock; see the package's Concurrency
	// section).
	Source reconnect.Source

	// The storm-safe options (opt-in; zero keeps the spec's behaviour; see
	// docs/storm-safe-reconnect.md).

	// ReconnectWindow, when positive, spreads the immediate reconnect after
	// an unexpected drop (RTN15a) over a window: the engine enters
	// DISCONNECTED with retryIn = ReconnectWindow × u for one draw u, and
	// reconnects when that retry timer fires (ReasonReconnect, no retry
	// number consumed). At most MaxReconnectWindow (1 m) and shorter than
	// connectionStateTtl.
	ReconnectWindow time.Duration
	// ImmediateShare, with a ReconnectWindow, is the share of drops that
	// still reconnect at once: the window's draw u below ImmediateShare
	// reconnects at once (as RTN15a), any other waits ReconnectWindow ×
	// (u − ImmediateShare) / (1 − ImmediateShare). In [0, 1); ignored
	// without a window.
	ImmediateShare float64
	// RetrySpread, when positive, widens RTB1b's jitter: a DISCONNECTED
	// retry waits SpreadRetryDelay(disconnectedRetryTimeout, n,
	// RetrySpread, u), initial × coefficient × (1 − RetrySpread × u), in
	// place of (1 − 0.2u). In [0, 1]; 0 means RTB1's 0.2, 1 is full jitter.
	RetrySpread float64
	// SuspendedSpread, when positive, jitters SUSPENDED retries:
	// suspendedRetryTimeout × (1 − SuspendedSpread × u) for one draw u per
	// retry, in place of the flat interval of RTN14e. In [0, 1]; 0 keeps it
	// flat.
	SuspendedSpread float64
}

// DefaultConfig returns the spec's defaults: DefaultTimeouts, the 2 s short
// circuit, the default endpoint, websocket and HTTP both available, the
// websocket-first policy and the default source. The default endpoint is
// Ably's: main.realtime.ably.net and its fallback hosts. For your own
// service set Config.Endpoint (for example Endpoint: "rt.example.com" and
// FallbackHosts).
func DefaultConfig() Config {
	return Config{
		Timeouts:     reconnect.DefaultTimeouts(),
		ShortCircuit: reconnect.DefaultShortCircuit,
		Transports:   reconnect.Availability{WebSocket: true, HTTP: true},
	}
}

// AblyConfig is the preset for Ably's service: DefaultConfig, whose
// endpoint is Ably's production hosts.
func AblyConfig() Config { return DefaultConfig() }

// Validate reports the first invalid field of c as a *FieldError, or nil.
func (c Config) Validate() error {
	if err := c.Timeouts.Validate(); err != nil {
		return inConfig(err)
	}
	switch {
	case c.ShortCircuit < 0:
		return &reconnect.FieldError{Field: "Config.ShortCircuit", Value: c.ShortCircuit.String(), Problem: "must not be negative"}
	case !c.Transports.WebSocket && !c.Transports.HTTP:
		return &reconnect.FieldError{Field: "Config.Transports", Value: "{}", Problem: "must make at least one transport available"}
	case c.SlowTimeout < 0:
		return &reconnect.FieldError{Field: "Config.SlowTimeout", Value: c.SlowTimeout.String(), Problem: "must not be negative"}
	case c.GiveUpTimeout < 0:
		return &reconnect.FieldError{Field: "Config.GiveUpTimeout", Value: c.GiveUpTimeout.String(), Problem: "must not be negative"}
	case c.PreferenceTTL < 0:
		return &reconnect.FieldError{Field: "Config.PreferenceTTL", Value: c.PreferenceTTL.String(), Problem: "must not be negative"}
	case c.Policy >= numPolicies:
		return &reconnect.FieldError{Field: "Config.Policy", Value: c.Policy.String(), Problem: "is not a known policy"}
	}
	if err := c.Flap.validate(); err != nil {
		return err
	}
	if _, err := reconnect.ResolveHosts(c.Endpoint); err != nil {
		return inConfig(err)
	}
	return c.validateStorm()
}

// inConfig names a nested field's *FieldError by its path from Config:
// Timeouts.X becomes Config.Timeouts.X, and ResolveHosts'
// EndpointOptions.X becomes Config.Endpoint.X.
func inConfig(err error) error {
	fe := *err.(*reconnect.FieldError)
	if rest, ok := strings.CutPrefix(fe.Field, "EndpointOptions."); ok {
		fe.Field = "Endpoint." + rest
	}
	fe.Field = "Config." + fe.Field
	return &fe
}

// The timers of PolicyWebSocketCheck, as the JavaScript SDK that ships it
// sets them.
const (
	DefaultSlowTimeout   = 4 * time.Second
	DefaultGiveUpTimeout = 10 * time.Second
)
