// Package conform runs the shared fixtures against an implementation in any
// language through a small JSON-lines protocol (see fixtures/README.md,
// "Conformance protocol"), and holds the Go implementation's own adapter.
package conform

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// ProtocolVersion is the version of the adapter protocol.
const ProtocolVersion = 1

// The areas a fixture case belongs to, one per fixture file.
const (
	AreaRTB1      = "rtb1"
	AreaTransport = "transport"
	AreaHosts     = "hosts"
	AreaScenarios = "scenarios"
)

// Areas lists every area, in the order cases are run.
var Areas = []string{AreaRTB1, AreaTransport, AreaHosts, AreaScenarios}

// Case is one request the harness sends and the result it expects.
type Case struct {
	ID       string
	Area     string
	Spec     string
	Function string
	Input    map[string]any
	Expected map[string]any
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

var areaFiles = map[string]string{AreaRTB1: "rtb1.json", AreaTransport: "transport.json", AreaHosts: "hosts.json", AreaScenarios: "scenarios.json"}

// LoadSuite reads the four fixture files from fsys and turns every item into
// cases: an item's inputs are its fields other than id, spec, function,
// _comment and the expected… ones; its expected result is the expected…
// fields with the prefix dropped and the first letter lowered
// (expectedDelayMs → delayMs), as the protocol documents per function.
func LoadSuite(fsys fs.FS) (Suite, error) {
	var s Suite
	for _, area := range Areas {
		data, err := fs.ReadFile(fsys, areaFiles[area])
		if err != nil {
			return s, err
		}
		var file struct {
			Tolerance *struct {
				AbsoluteMs float64 `json:"absoluteMs"`
				Relative   float64 `json:"relative"`
			} `json:"tolerance"`
			Items []map[string]any `json:"items"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			return s, fmt.Errorf("%s: %w", areaFiles[area], err)
		}
		if file.Tolerance != nil {
			s.Tolerance = Tolerance{AbsoluteMs: file.Tolerance.AbsoluteMs, Relative: file.Tolerance.Relative}
		}
		for _, it := range file.Items {
			cs, err := itemCases(area, it)
			if err != nil {
				return s, fmt.Errorf("%s: %w", areaFiles[area], err)
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
	if c.ID == "" || c.Function == "" {
		return nil, fmt.Errorf("an item lacks an id or function: %v", it)
	}
	for k, v := range it {
		switch {
		case k == "id" || k == "spec" || k == "function" || k == "_comment" || k == "reachable":
		case strings.HasPrefix(k, "expected") && k != "expectedCoefficientExact" && !strings.HasSuffix(k, "Ns"):
			name := strings.TrimPrefix(k, "expected")
			c.Expected[strings.ToLower(name[:1])+name[1:]] = v
		case strings.HasPrefix(k, "expected"), k == "utsBandMs":
			// Exact-nanosecond and documentary fields: not asked of adapters.
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
		if _, bad := c.Expected["errorField"]; bad {
			c.Expected = map[string]any{"error": true}
		}
	case "preferredHost":
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
		if r, ok := c.Input["statusRange"].([]any); ok && len(r) == 2 {
			lo, hi := int(r[0].(float64)), int(r[1].(float64))
			delete(c.Input, "statusRange")
			var out []Case
			for st := lo; st <= hi; st++ {
				x := c
				x.ID = fmt.Sprintf("%s@%d", c.ID, st)
				x.Input = clone(c.Input)
				x.Input["status"] = float64(st)
				out = append(out, x)
			}
			return out, nil
		}
	case "scenario":
		var expect []any
		steps, _ := c.Input["steps"].([]any)
		clean := make([]any, 0, len(steps))
		for _, st := range steps {
			m, _ := st.(map[string]any)
			clean = append(clean, map[string]any{"atMs": m["atMs"], "event": m["event"]})
			expect = append(expect, map[string]any{"actions": m["expect"]})
		}
		c.Input["steps"] = clean
		c.Expected = map[string]any{"steps": expect}
	}
	return []Case{c}, nil
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
