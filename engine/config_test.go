package engine

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// No endpoint, no engine: neither Defaults nor the zero Config sends
// traffic anywhere, and the error names the field.
func TestNewWithoutAnEndpointNamesIt(t *testing.T) {
	for _, cfg := range []Config{Defaults(), {}, func() Config {
		c := Defaults()
		c.Endpoint.FallbackHosts = []string{"fb.example.com"}
		return c
	}()} {
		_, err := New(cfg)
		var fe *reconnect.FieldError
		if !errors.As(err, &fe) || fe.Field != "Config.Endpoint.Endpoint" {
			t.Errorf("New(%+v) = %v, want a *FieldError naming Config.Endpoint.Endpoint", cfg, err)
		}
	}
}

// Defaults with an endpoint is complete; AblyConfig is Defaults with
// Ably's hosts.
func TestDefaultsAndAblyConfig(t *testing.T) {
	cfg := Defaults()
	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com", FallbackHosts: []string{"rt-b.example.com"}}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if h := e.Hosts(); h.Primary != "rt.example.com" || len(h.Fallbacks) != 1 || h.Fallbacks[0] != "rt-b.example.com" {
		t.Errorf("Hosts() = %+v", h)
	}
	a, err := New(AblyConfig())
	if err != nil {
		t.Fatal(err)
	}
	if h := a.Hosts(); h.Primary != "main.realtime.ably.net" || len(h.Fallbacks) != 5 {
		t.Errorf("AblyConfig: Hosts() = %+v", h)
	}
	ably := AblyConfig()
	ably.Endpoint.Ably = false
	if ably.Timeouts != Defaults().Timeouts || ably.Transports != Defaults().Transports || ably.Policy != Defaults().Policy {
		t.Errorf("AblyConfig() differs from Defaults() beyond Endpoint.Ably and the short circuit: %+v", ably)
	}
	// The short circuit: the proposal's fixed 2 s for Ably's service, as
	// Ably's SDKs; this library's 500 ms with the adaptive rule (k 3,
	// floor 50 ms) by default (docs/decisions.md).
	if ably.ShortCircuit != 2*time.Second || ably.Adaptive.On() {
		t.Errorf("AblyConfig(): short circuit %v, adaptive %+v; want a fixed 2s", ably.ShortCircuit, ably.Adaptive)
	}
	if d := Defaults(); d.ShortCircuit != 500*time.Millisecond || d.Adaptive != (AdaptiveShortCircuit{Multiple: 3, Floor: 50 * time.Millisecond}) {
		t.Errorf("Defaults(): short circuit %v, adaptive %+v; want 500ms with 3 × rtt, floor 50ms", d.ShortCircuit, d.Adaptive)
	}
}

// Every message of Validate names the field, quotes the value and says
// what is expected.
func TestConfigValidateMessages(t *testing.T) {
	own := func(c *Config) { c.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com"} }
	for _, c := range []struct {
		mutate func(*Config)
		want   string
	}{
		{func(c *Config) {}, `reconnect: Config.Endpoint.Endpoint = "": is required: give your service's primary host name, such as "rt.example.com" (for Ably's service, start from AblyConfig)`},
		{func(c *Config) { c.Endpoint.Endpoint = "nonprod:sandbox" }, `reconnect: Config.Endpoint.Endpoint = "nonprod:sandbox": names an Ably routing policy, which needs Config.Endpoint.Ably: otherwise give the host name only, such as "rt.example.com"`},
		{func(c *Config) { c.Endpoint.Endpoint = "https://rt.example.com/" }, `reconnect: Config.Endpoint.Endpoint = "https://rt.example.com/": is a URL: give the host name only, "rt.example.com"`},
		{func(c *Config) { c.Endpoint.Endpoint = "rt.example.com:0" }, `reconnect: Config.Endpoint.Endpoint = "rt.example.com:0": has the port "0": a port is a number from 1 to 65535, written without leading zeros`},
		{func(c *Config) { c.Endpoint = reconnect.EndpointOptions{Ably: true, Endpoint: "rt.example.com:8080"} }, `reconnect: Config.Endpoint.Endpoint = "rt.example.com:8080": holds a port: give the host name only, "rt.example.com"`},
		{func(c *Config) { own(c); c.Endpoint.FallbackHosts = []string{"fb .example.com"} }, `reconnect: Config.Endpoint.FallbackHosts[0] = "fb .example.com": holds ' ' at byte 2: a host name has only ASCII letters, digits, '-', '_' and '.'`},
		{func(c *Config) { own(c); c.Timeouts.DisconnectedRetry = 0 }, `reconnect: Config.Timeouts.DisconnectedRetry = 0s: must be positive: the spec's default is 15s`},
		{func(c *Config) { own(c); c.Timeouts.HTTPMaxRetryCount = -1 }, `reconnect: Config.Timeouts.HTTPMaxRetryCount = -1: must not be negative: the spec's default is 3, and 0 tries no fallback host`},
		{func(c *Config) { own(c); c.ShortCircuit = -time.Second }, `reconnect: Config.ShortCircuit = -1s: must not be negative: 0 means the default, 2s`},
		{func(c *Config) { own(c); c.Transports = reconnect.Availability{} }, `reconnect: Config.Transports = {WebSocket: false, HTTP: false}: must make at least one transport available: set WebSocket, HTTP or both`},
		{func(c *Config) { own(c); c.SlowTimeout = -1 }, `reconnect: Config.SlowTimeout = -1ns: must not be negative: 0 means the default, 4s`},
		{func(c *Config) { own(c); c.GiveUpTimeout = -1 }, `reconnect: Config.GiveUpTimeout = -1ns: must not be negative: 0 means the default, 10s`},
		{func(c *Config) { own(c); c.PreferenceTTL = -1 }, `reconnect: Config.PreferenceTTL = -1ns: must not be negative: 0 means the default, 24h0m0s`},
		{func(c *Config) { own(c); c.Policy = 9 }, `reconnect: Config.Policy = Policy(9): must be PolicyWebSocketFirst, PolicyHTTPFirst or PolicyWebSocketCheck`},
		{func(c *Config) { own(c); c.Flap.Drops = 17 }, `reconnect: Config.Flap.Drops = 17: must be at most MaxFlapDrops (16): 0 means the default, 4, and a negative value turns the guard off`},
		{func(c *Config) { own(c); c.Flap.Window = -1 }, `reconnect: Config.Flap.Window = -1ns: must not be negative: 0 means the default, 5m0s`},
		{func(c *Config) { own(c); c.Flap.Hold = -1 }, `reconnect: Config.Flap.Hold = -1ns: must not be negative: 0 means the default, 10m0s`},
		{func(c *Config) { own(c); c.ReconnectWindow = 2 * time.Minute }, `reconnect: Config.ReconnectWindow = 2m0s: must be between 0 (off) and MaxReconnectWindow, 1m0s`},
		{func(c *Config) {
			own(c)
			c.ReconnectWindow = 50 * time.Second
			c.Timeouts.ConnectionStateTTL = 40 * time.Second
		}, `reconnect: Config.ReconnectWindow = 50s: must be shorter than Timeouts.ConnectionStateTTL, 40s`},
		{func(c *Config) { own(c); c.ImmediateShare = 1 }, `reconnect: Config.ImmediateShare = 1: must be at least 0 and below 1: the share of drops that reconnect at once`},
		{func(c *Config) { own(c); c.RetrySpread = 2 }, `reconnect: Config.RetrySpread = 2: must be between 0 (RTB1's jitter) and 1 (full jitter)`},
		{func(c *Config) { own(c); c.SuspendedSpread = -1 }, `reconnect: Config.SuspendedSpread = -1: must be between 0 (a flat interval) and 1 (full jitter)`},
	} {
		cfg := Defaults()
		c.mutate(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Validate:\n got  %v\n want %s", err, c.want)
		}
		if _, nerr := New(cfg); nerr == nil || nerr.Error() != err.Error() {
			t.Errorf("New: %v, want Validate's %v", nerr, err)
		}
	}
}

// wantFieldError fails t unless cfg.Validate returns a *reconnect.FieldError
// naming field and saying what is wrong; what says which case it was.
func wantFieldError(t *testing.T, cfg Config, field string, what any) {
	t.Helper()
	var fe *reconnect.FieldError
	if err := cfg.Validate(); !errors.As(err, &fe) || fe.Field != field || fe.Problem == "" {
		t.Errorf("%+v: Validate() = %v, want a FieldError for %s", what, err, field)
	}
}
