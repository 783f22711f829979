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
	// HTTP starts too (the adaptive rule's ceiling); 0 means
	// reconnect.DefaultShortCircuit (the proposal's 2 s). Defaults sets
	// DefaultShortCircuit (500 ms), AblyConfig 2 s.
	ShortCircuit time.Duration
	// Adaptive brings the short circuit forward to a multiple of the
	// websocket's observed dial round trip (EventTransportDialed), with
	// ShortCircuit as the ceiling; the zero value is off (see
	// AdaptiveShortCircuit).
	Adaptive AdaptiveShortCircuit
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
	// IdleLimit is the client-side idle limit: how long the active
	// transport may go without activity (EventActivity) when the server
	// announces no maxIdleInterval (0 or left out of CONNECTED); then it
	// is lost as a drop with reconnect.FailureTimeout, as RTN23a's idle
	// timer does. A maxIdleInterval from the server wins (RTN21: its
	// connectionDetails override the options), with Timeouts.IdleSlack
	// added to it; IdleLimit is a whole limit and takes no slack. 0 (the
	// default) means off: a server that announces nothing is never timed
	// out, as the spec has it. Not negative.
	IdleLimit time.Duration
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

	// Retry selects the DISCONNECTED retry delay: the zero value is RTB1
	// from Timeouts.DisconnectedRetry (the spec, unchanged; Retry.Base
	// must then be 0); another family (reconnect.FullJitter{…}.Policy(),
	// DefaultGRPCBackoff().Policy(), …) replaces it, its attempt being the
	// retry number, which resets on CONNECTED and SUSPENDED as RTB1's
	// does. SUSPENDED retries stay flat (RTN14e). docs/retry-policies.md.
	Retry reconnect.RetryPolicy
	// ImmediateReconnect says what a drop does: ImmediateOn (RTN15a, the
	// default), ImmediateOff or ImmediateLimited, the last at most once
	// per ImmediateReconnectInterval (from 1 s to 1 h; 0 otherwise).
	ImmediateReconnect         ImmediateReconnect
	ImmediateReconnectInterval time.Duration
	// FirstRetry is the first-retry rule's period (firstretry.go): after a
	// drop whose immediate reconnect failed, the retries within
	// Timeouts.DisconnectedRetry of it wait U[0, FirstRetry) for the first
	// and FirstRetry for each later one, then RTB1 from retry 1. 0 is off
	// (RTB1 as specified: the zero Config and AblyConfig); Defaults sets
	// DefaultFirstRetry (3.5 s). At most Timeouts.DisconnectedRetry.
	FirstRetry time.Duration
}

// DefaultShortCircuit is the short circuit Defaults sets: 500 ms, the top
// of the band of docs/short-circuit.md (250 ms to 500 ms for the default
// mix of networks), which the adaptive short circuit
// (DefaultAdaptiveShortCircuit) brings forward to three observed round
// trips, at least 50 ms. It is not reconnect.DefaultShortCircuit, the
// transport-fallback proposal's 2 s, which AblyConfig keeps and a Config
// with ShortCircuit 0 gets (docs/decisions.md, the default short circuit).
const DefaultShortCircuit = 500 * time.Millisecond

// Defaults returns this library's defaults for every field but Endpoint,
// which has none: reconnect.DefaultTimeouts, websocket and HTTP both
// available, PolicyWebSocketFirst, and a short circuit of
// DefaultShortCircuit (500 ms) with the adaptive short circuit on
// (DefaultAdaptiveShortCircuit: three observed dial round trips, at least
// 50 ms), where the proposal's placeholder was a fixed 2 s. Name your
// hosts in Config.Endpoint (for example Endpoint: "rt.example.com" and
// FallbackHosts); New rejects the Config until you do.
func Defaults() Config {
	return Config{
		Timeouts:     reconnect.DefaultTimeouts(),
		ShortCircuit: DefaultShortCircuit,
		Adaptive:     DefaultAdaptiveShortCircuit(),
		Transports:   reconnect.Availability{WebSocket: true, HTTP: true},
		FirstRetry:   DefaultFirstRetry,
	}
}

// AblyConfig is the preset for Ably's service: Defaults with Ably's
// endpoint rules (Endpoint.Ably), whose hosts are main.realtime.ably.net
// and main.[a-e].fallback.ably-realtime.com, and the short circuit of the
// transport-fallback proposal Ably's SDKs follow: a fixed
// reconnect.DefaultShortCircuit (2 s), the adaptive rule off. Set
// Endpoint.Endpoint to a routing policy id such as "sandbox" for others.
// Give the runner runner.AblyConnectivityCheck with it.
func AblyConfig() Config {
	c := Defaults()
	c.Endpoint.Ably = true
	c.ShortCircuit = reconnect.DefaultShortCircuit
	c.Adaptive = AdaptiveShortCircuit{}
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
	case c.IdleLimit < 0:
		return &reconnect.FieldError{Field: "Config.IdleLimit", Value: c.IdleLimit.String(), Problem: "must not be negative: 0 means no client-side idle limit"}
	case c.Policy >= numPolicies:
		return &reconnect.FieldError{Field: "Config.Policy", Value: c.Policy.String(), Problem: "must be PolicyWebSocketFirst, PolicyHTTPFirst or PolicyWebSocketCheck"}
	}
	if err := c.Flap.validate(); err != nil {
		return err
	}
	if err := c.Adaptive.Validate(); err != nil {
		return err
	}
	if err := c.validateStorm(); err != nil {
		return err
	}
	if err := c.validateRetry(); err != nil {
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
