package enginediff

// A timeline in the scenario encoding of fixtures/scenarios.json: its
// configuration knobs, draws and steps.

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Timeline is one scenario of fixtures/scenarios.json without its
// expectations: a configuration, the draws the engine's source returns in
// order, and the events.
type Timeline struct {
	ID      string    `json:"id,omitempty"`
	Comment string    `json:"_comment,omitempty"`
	Config  Config    `json:"config"`
	Draws   []float64 `json:"draws"`
	Steps   []Step    `json:"steps"`
}

// Step is one event of a timeline: the time it happened, in whole
// milliseconds from the timeline's start, and the event in the scenario
// grammar ("connect", "failed T2 refused", "timer connect T1", …).
type Step struct {
	AtMs  int64  `json:"atMs"`
	Event string `json:"event"`
	// origin is 1 + the index of the step in the timeline a minimisation
	// started from (0 outside one), and event0 its event there: the IDs
	// event0 names are those the steps of that timeline gave out, renamed
	// in Event once earlier steps are gone.
	origin int
	event0 string
}

// Config holds the knobs of a scenario's configuration (the fields of
// fixtures/scenarios.json's config that the scenarios use); a zero or
// absent field is the default of the file's defaults object.
type Config struct {
	Policy               string `json:"policy,omitempty"`
	Endpoint             string `json:"endpoint,omitempty"`
	FallbackHosts        *[]string
	WebSocket            *bool   `json:"webSocket,omitempty"`
	HTTP                 *bool   `json:"http,omitempty"`
	ShortCircuitMs       int64   `json:"shortCircuitMs,omitempty"`
	ConnectionStateTTLMs int64   `json:"connectionStateTtlMs,omitempty"`
	Preference           string  `json:"preference,omitempty"`
	RememberTransport    bool    `json:"rememberTransport,omitempty"`
	ReconnectWindowMs    int64   `json:"reconnectWindowMs,omitempty"`
	ImmediateShare       float64 `json:"immediateShare,omitempty"`
	RetrySpread          float64 `json:"retrySpread,omitempty"`
	SuspendedSpread      float64 `json:"suspendedSpread,omitempty"`
	CanRenewToken        bool    `json:"canRenewToken,omitempty"`
}

// configJSON is Config as JSON writes it: fallbackHosts is present (even
// empty, which disables fallback) exactly when it is set.
type configJSON struct {
	Policy               string    `json:"policy,omitempty"`
	Endpoint             string    `json:"endpoint,omitempty"`
	FallbackHosts        *[]string `json:"fallbackHosts,omitempty"`
	WebSocket            *bool     `json:"webSocket,omitempty"`
	HTTP                 *bool     `json:"http,omitempty"`
	ShortCircuitMs       int64     `json:"shortCircuitMs,omitempty"`
	ConnectionStateTTLMs int64     `json:"connectionStateTtlMs,omitempty"`
	Preference           string    `json:"preference,omitempty"`
	RememberTransport    bool      `json:"rememberTransport,omitempty"`
	ReconnectWindowMs    int64     `json:"reconnectWindowMs,omitempty"`
	ImmediateShare       float64   `json:"immediateShare,omitempty"`
	RetrySpread          float64   `json:"retrySpread,omitempty"`
	SuspendedSpread      float64   `json:"suspendedSpread,omitempty"`
	CanRenewToken        bool      `json:"canRenewToken,omitempty"`
}

// MarshalJSON writes the set knobs only.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(configJSON(c)) }

// text is the configuration's JSON, for comparing two.
func (c Config) text() []byte {
	b, _ := c.MarshalJSON()
	return b
}

// UnmarshalJSON reads a scenario's config; unknown fields are an error, so
// that a knob this package does not vary is not silently dropped.
func (c *Config) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.DisallowUnknownFields()
	var j configJSON
	if err := d.Decode(&j); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	*c = Config(j)
	return nil
}

// JSON is the timeline on one line, in the scenario encoding.
func (tl Timeline) JSON() string {
	b, err := json.Marshal(tl)
	if err != nil {
		return fmt.Sprintf("(unencodable timeline: %v)", err)
	}
	return string(b)
}

// clone returns a deep copy of tl.
func (tl Timeline) clone() Timeline {
	c := tl
	c.Draws = append([]float64(nil), tl.Draws...)
	c.Steps = append([]Step(nil), tl.Steps...)
	if tl.Config.FallbackHosts != nil {
		h := append([]string{}, (*tl.Config.FallbackHosts)...)
		c.Config.FallbackHosts = &h
	}
	return c
}
