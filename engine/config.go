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

// Config configures an Engine. Start from Defaults and name your hosts in
// Endpoint, or from AblyConfig for Ably's service: New rejects a Config
// without an endpoint, and a negative duration (see Validate).
type Config struct {
	// Endpoint names the primary and fallback hosts; required (see
	// reconnect.ResolveHosts; AblyConfig sets Endpoint.Ably).
	Endpoint reconnect.EndpointOptions
	// Timeouts are the spec's timeouts the engine and the runner read.
	Timeouts reconnect.Timeouts
	// Transports says which transports exist; at least one must.
	Transports reconnect.Availability
	// Policy chooses the first transport of each attempt.
	Policy Policy
	// ShortCircuit is how long the first websocket has to itself before
	// HTTP starts too; 0 means reconnect.DefaultShortCircuit (2 s).
	ShortCircuit time.Duration
	// SlowTimeout and GiveUpTimeout are PolicyWebSocketCheck's timers; 0
	// means DefaultSlowTimeout (4 s) and DefaultGiveUpTimeout (10 s).
	SlowTimeout, GiveUpTimeout time.Duration
	// Flap is the flapping guard; the zero value means its defaults.
	Flap FlapGuard
	// Preference is the remembered transport to start with, as the SDK
	// persisted it; the zero value remembers nothing.
	Preference reconnect.Preference
	// PreferenceTTL is how long a remembered transport is used; 0 means
	// reconnect.DefaultPreferenceTTL (24 h).
	PreferenceTTL time.Duration
	// RememberTransport makes PolicyWebSocketFirst and PolicyHTTPFirst
	// keep the preference too, as PolicyWebSocketCheck always does.
	RememberTransport bool
	// CanRenewToken says the SDK has a means to renew its token (an API
	// key, an authCallback or an authUrl: RSA4a). Then a token error
	// (reconnect.FailureToken: statusCode 401, code 40140–40149) makes the
	// engine ask for one renewal (ActionRenewToken) and retry at once with
	// the new token (RTN14b, RTN15h2); without it a token error is final:
	// FAILED (RTN15h1, RSA4a2). An SDK that never uses tokens never reports
	// a token error, so this changes nothing for it (docs/engine.md, Token
	// errors).
	CanRenewToken bool
	// Source draws the jitter and the host order; nil means DefaultSource.
	// Engines on several goroutines need one safe for concurrent use.
	Source reconnect.Source

	// The storm-safe options, off at 0 (docs/storm-safe-reconnect.md).
	// ReconnectWindow spreads the reconnect after a drop over
	// reconnect.WindowWait(ReconnectWindow, ImmediateShare, u): at most
	// MaxReconnectWindow and under Timeouts.ConnectionStateTTL.
	ReconnectWindow time.Duration
	ImmediateShare  float64 // in [0, 1): the share that reconnects at once
	RetrySpread     float64 // in [0, 1]: RTB1b's jitter, reconnect.SpreadRetryDelay
	SuspendedSpread float64 // in [0, 1]: SUSPENDED jitter, reconnect.SpreadDelay

	// FirstRetry is the first-retry rule's period (firstretry.go): after a
	// drop whose immediate reconnect failed, the retries within
	// Timeouts.DisconnectedRetry of it wait U[0, FirstRetry) for the first
	// and FirstRetry for each later one, then RTB1 from retry 1. 0 is off
	// (RTB1 as specified: the zero Config and AblyConfig); Defaults sets
	// DefaultFirstRetry (3.5 s). At most Timeouts.DisconnectedRetry.
	FirstRetry time.Duration
}

// Defaults returns the spec's defaults for every field but Endpoint,
// which has none: reconnect.DefaultTimeouts, the 2 s short circuit,
// websocket and HTTP both available and PolicyWebSocketFirst. Name your hosts in
// Config.Endpoint (for example Endpoint: "rt.example.com" and
// FallbackHosts); New rejects the Config until you do.
func Defaults() Config {
	return Config{
		Timeouts:     reconnect.DefaultTimeouts(),
		ShortCircuit: reconnect.DefaultShortCircuit,
		Transports:   reconnect.Availability{WebSocket: true, HTTP: true},
		FirstRetry:   DefaultFirstRetry,
	}
}

// AblyConfig is the preset for Ably's service: Defaults with Ably's
// endpoint rules (Endpoint.Ably), whose hosts are main.realtime.ably.net
// and main.[a-e].fallback.ably-realtime.com; set Endpoint.Endpoint to a
// routing policy id such as "sandbox" for others. Give the runner
// runner.AblyConnectivityCheck with it.
func AblyConfig() Config {
	c := Defaults()
	c.Endpoint.Ably = true
	c.FirstRetry = 0 // RTB1 after a failed immediate reconnect, as Ably's SDKs
	return c
}

// Validate reports the first invalid field of c as a *FieldError naming
// it, its value and what is expected, or nil. A missing endpoint comes
// first.
func (c Config) Validate() error {
	if e := c.Endpoint; !e.Ably && e.Endpoint == "" && e.Environment == "" {
		return &reconnect.FieldError{Field: "Config.Endpoint.Endpoint", Value: `""`, Problem: `is required: give your service's primary host name, such as "rt.example.com" (for Ably's service, start from AblyConfig)`}
	}
	if _, err := reconnect.ResolveHosts(c.Endpoint); err != nil {
		return inConfig(err)
	}
	if err := c.Timeouts.Validate(); err != nil {
		return inConfig(err)
	}
	negative := func(field string, d, def time.Duration) error {
		return &reconnect.FieldError{Field: "Config." + field, Value: d.String(), Problem: "must not be negative: 0 means the default, " + def.String()}
	}
	switch {
	case c.ShortCircuit < 0:
		return negative("ShortCircuit", c.ShortCircuit, reconnect.DefaultShortCircuit)
	case !c.Transports.WebSocket && !c.Transports.HTTP:
		return &reconnect.FieldError{Field: "Config.Transports", Value: "{WebSocket: false, HTTP: false}", Problem: "must make at least one transport available: set WebSocket, HTTP or both"}
	case c.SlowTimeout < 0:
		return negative("SlowTimeout", c.SlowTimeout, DefaultSlowTimeout)
	case c.GiveUpTimeout < 0:
		return negative("GiveUpTimeout", c.GiveUpTimeout, DefaultGiveUpTimeout)
	case c.PreferenceTTL < 0:
		return negative("PreferenceTTL", c.PreferenceTTL, reconnect.DefaultPreferenceTTL)
	case c.Policy >= numPolicies:
		return &reconnect.FieldError{Field: "Config.Policy", Value: c.Policy.String(), Problem: "must be PolicyWebSocketFirst, PolicyHTTPFirst or PolicyWebSocketCheck"}
	}
	if err := c.Flap.validate(); err != nil {
		return err
	}
	if err := c.validateStorm(); err != nil {
		return err
	}
	return c.validateFirstRetry()
}

// inConfig names a nested field's *FieldError by its path from Config:
// Timeouts.X becomes Config.Timeouts.X, and ResolveHosts'
// EndpointOptions.X becomes Config.Endpoint.X, in the field and in the
// message.
func inConfig(err error) error {
	fe := *err.(*reconnect.FieldError)
	if rest, ok := strings.CutPrefix(fe.Field, "EndpointOptions."); ok {
		fe.Field = "Endpoint." + rest
	}
	fe.Field = "Config." + fe.Field
	fe.Problem = strings.ReplaceAll(fe.Problem, "EndpointOptions.", "Config.Endpoint.")
	return &fe
}

// The timers of PolicyWebSocketCheck, as the JavaScript SDK that ships it
// sets them.
const (
	DefaultSlowTimeout   = 4 * time.Second
	DefaultGiveUpTimeout = 10 * time.Second
)
