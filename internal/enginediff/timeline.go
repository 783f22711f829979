package enginediff

// A timeline in the scenario encoding of fixtures/scenarios.json: its
// configuration knobs, draws and steps.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/reconnect-go/reconnect/internal/conform"
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

// Config holds the knobs of a scenario's configuration: the config
// object of fixtures/scenarios.json, as internal/conform reads it (a zero
// or absent field is the default of the file's defaults object; written
// as JSON, only the fields set appear).
type Config conform.ScenarioKnobs

// MarshalJSON writes the set knobs only.
func (c Config) MarshalJSON() ([]byte, error) { return json.Marshal(conform.ScenarioKnobs(c)) }

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
	var k conform.ScenarioKnobs
	if err := d.Decode(&k); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	*c = Config(k)
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
