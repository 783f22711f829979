// Package conform runs the shared fixtures against an implementation in any
// language through a small JSON-lines protocol (see fixtures/README.md,
// "Conformance protocol"), and holds the Go implementation's own adapter.
package conform

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ProtocolVersion is the version of the adapter protocol.
const ProtocolVersion = 1

// The areas a fixture case belongs to, one per fixture file.
const (
	AreaRTB1       = "rtb1"
	AreaTransport  = "transport"
	AreaHosts      = "hosts"
	AreaScenarios  = "scenarios"
	AreaPreference = "preference"
	AreaRetry      = "retry"
)

// Areas lists every area, in the order cases are run.
var Areas = []string{AreaRTB1, AreaTransport, AreaHosts, AreaScenarios, AreaPreference, AreaRetry}

// Case is one request the harness sends and the result it expects.
type Case struct {
	ID       string
	Area     string
	Spec     string
	Function string
	Input    map[string]any
	Expected map[string]any
	// ExactNs holds the exact-nanosecond results (delayNs, lowerNs,
	// upperNs: decimal strings) of the fixture item, compared exactly. An
	// adapter that declares "exactNs" in its hello must answer them; one
	// that does not may, and what it answers is checked.
	ExactNs map[string]any
	// Outside names the totality decision the case checks when its inputs
	// are outside the spec's domain (no conforming SDK's own code produces
	// them); empty for a case in the spec's domain.
	Outside string
}

// Tolerance is how numeric results in milliseconds and coefficients are
// compared (from rtb1.json).
type Tolerance struct {
	AbsoluteMs float64
	Relative   float64
}

// Suite is every case of the fixtures, with the tolerance to compare by.
type Suite struct {
	Cases     []Case
	Tolerance Tolerance
}

var areaFiles = map[string]string{AreaRTB1: "rtb1.json", AreaTransport: "transport.json", AreaHosts: "hosts.json", AreaScenarios: "scenarios.json", AreaPreference: "preference.json", AreaRetry: "retry.json"}

// LoadSuite reads the four fixture files from fsys and turns every item into
// cases: an item's inputs are its fields other than id, spec, function,
// _comment and the expected… ones; its expected result is the expected…
// fields with the prefix dropped and the first letter lowered
// (expectedDelayMs → delayMs), as the protocol documents per function.
// AreaFiles returns the fixture file of every area, in the order of Areas.
func AreaFiles() []string {
	out := make([]string, len(Areas))
	for i, a := range Areas {
		out[i] = areaFiles[a]
	}
	return out
}

func LoadSuite(fsys fs.FS) (Suite, error) {
	var s Suite
	for _, area := range Areas {
		data, err := fs.ReadFile(fsys, areaFiles[area])
		if err != nil {
			return s, err
		}
		if len(data) > maxFixture {
			return s, fmt.Errorf("%s: larger than %d bytes", areaFiles[area], maxFixture)
		}
		var file struct {
			Tolerance *struct {
				AbsoluteMs float64 `json:"absoluteMs"`
				Relative   float64 `json:"relative"`
			} `json:"tolerance"`
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			return s, fmt.Errorf("%s: %w", areaFiles[area], err)
		}
		if file.Tolerance != nil {
			s.Tolerance = Tolerance{AbsoluteMs: file.Tolerance.AbsoluteMs, Relative: file.Tolerance.Relative}
		}
		for i, raw := range file.Items {
			var it map[string]any
			if err := json.Unmarshal(raw, &it); err != nil || it == nil {
				return s, fmt.Errorf("%s: item %d: not a JSON object", areaFiles[area], i)
			}
			cs, err := itemCases(area, it)
			if err != nil {
				id, _ := it["id"].(string)
				return s, fmt.Errorf("%s: item %d (id %s): %w", areaFiles[area], i, strconv.Quote(id), err)
			}
			if len(s.Cases)+len(cs) > maxCases {
				return s, fmt.Errorf("%s: item %d: more than %d cases in all", areaFiles[area], i, maxCases)
			}
			s.Cases = append(s.Cases, cs...)
		}
	}
	return s, nil
}

func itemCases(area string, it map[string]any) ([]Case, error) {
	c := Case{Area: area, Input: map[string]any{}, Expected: map[string]any{}}
	c.ID, _ = it["id"].(string)
	c.Spec, _ = it["spec"].(string)
	c.Function, _ = it["function"].(string)
	if area == AreaScenarios {
		c.Function = "scenario"
	}
	switch {
	case c.ID == "":
		return nil, errors.New(`"id" is missing or not a non-empty string`)
	case c.Function == "":
		return nil, errors.New(`"function" is missing or not a non-empty string`)
	}
	for k, v := range it {
		switch {
		case k == "id" || k == "spec" || k == "function" || k == "_comment" || k == "reachable":
		case k == "rows" && area == AreaScenarios:
			// Documentary: the rows of docs/engine.md the scenario pins.
		case k == "uts":
			// Documentary: the specification's tests the item translates.
		case k == "expected":
			return nil, errors.New(`a key "expected" names no result`)
		case strings.HasPrefix(k, "expected") && k != "expectedCoefficientExact":
			name := strings.TrimPrefix(k, "expected")
			name = strings.ToLower(name[:1]) + name[1:]
			if strings.HasSuffix(k, "Ns") {
				if c.ExactNs == nil {
					c.ExactNs = map[string]any{}
				}
				c.ExactNs[name] = v
				continue
			}
			c.Expected[name] = v
		case strings.HasPrefix(k, "expected"), k == "utsBandMs":
			// Documentary fields: not asked of adapters.
		default:
			c.Input[k] = v
		}
	}
	switch c.Function {
	case "resolveHosts":
		if set, _ := c.Input["fallbackHostsSet"].(bool); set && c.Input["fallbackHosts"] == nil {
			c.Input["fallbackHosts"] = []any{}
		}
		delete(c.Input, "fallbackHostsSet")
		if f, bad := c.Expected["errorField"]; bad {
			field, ok := f.(string)
			if !ok {
				return nil, errors.New(`"expectedErrorField" is not a string`)
			}
			c.Expected = map[string]any{"error": map[string]any{"field": ProtocolField(field)}}
		}
	case "preferredHost":
		if _, ok := c.Input["steps"].([]any); !ok {
			return nil, errors.New(`"steps" is missing or not a list`)
		}
		var firsts []any
		steps, _ := c.Input["steps"].([]any)
		clean := make([]any, 0, len(steps))
		for _, st := range steps {
			m, _ := st.(map[string]any)
			cp := map[string]any{}
			for k, v := range m {
				if k == "expectedFirst" {
					firsts = append(firsts, v)
				} else {
					cp[k] = v
				}
			}
			clean = append(clean, cp)
		}
		c.Input["steps"] = clean
		c.Expected = map[string]any{"first": firsts}
	case "shouldFallback":
		if rv, ok := c.Input["statusRange"]; ok {
			lo, hi, err := statusRange(rv)
			if err != nil {
				return nil, err
			}
			delete(c.Input, "statusRange")
			var out []Case
			for st := lo; st <= hi; st++ {
				x := c
				x.ID = fmt.Sprintf("%s@%d", c.ID, st)
				x.Input = clone(c.Input)
				x.Input["status"] = float64(st)
				x.Outside = outsideDomain(x, nil)
				out = append(out, x)
			}
			return out, nil
		}
	case "scenario":
		var expect []any
		steps, ok := c.Input["steps"].([]any)
		if !ok {
			return nil, errors.New(`"steps" is missing or not a list`)
		}
		clean := make([]any, 0, len(steps))
		for j, st := range steps {
			m, ok := st.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("step %d is not an object", j)
			}
			clean = append(clean, map[string]any{"atMs": m["atMs"], "event": m["event"]})
			expect = append(expect, map[string]any{"actions": m["expect"]})
		}
		c.Input["steps"] = clean
		c.Expected = map[string]any{"steps": expect}
	}
	c.Outside = outsideDomain(c, it["reachable"])
	return []Case{c}, nil
}

// Bounds on what --fixtures may ask the harness to hold.
const (
	maxFixture = 32 << 20 // bytes of one fixture file
	maxCases   = 100_000  // cases in all
	maxRange   = 1000     // statuses in one statusRange
)

// statusRange reads a statusRange [lo, hi] of whole numbers, at most
// maxRange wide.
func statusRange(v any) (lo, hi int, err error) {
	r, ok := v.([]any)
	bad := func() (int, int, error) {
		return 0, 0, fmt.Errorf(`"statusRange" is %s; want [lo, hi], whole numbers with lo ≤ hi and at most %d statuses`, string(rawJSON(v)), maxRange)
	}
	if !ok || len(r) != 2 {
		return bad()
	}
	a, ok1 := r[0].(float64)
	b, ok2 := r[1].(float64)
	if !ok1 || !ok2 || a != math.Trunc(a) || b != math.Trunc(b) || a > b || b-a >= maxRange || math.Abs(a) > 1e9 || math.Abs(b) > 1e9 {
		return bad()
	}
	return int(a), int(b), nil
}

// ProtocolField turns a Go field path of EndpointOptions into the name the
// protocol gives that input: "EndpointOptions.FallbackHosts[1]" →
// "fallbackHosts[1]".
func ProtocolField(goField string) string {
	f := strings.TrimPrefix(goField, "EndpointOptions.")
	if f == "" {
		return f
	}
	return strings.ToLower(f[:1]) + f[1:]
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// SpecOrder sorts spec point names for the report.
func SpecOrder(specs []string) []string {
	out := slices.Clone(specs)
	slices.Sort(out)
	return slices.Compact(out)
}
