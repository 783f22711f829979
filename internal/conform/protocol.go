package conform

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Hello is the first line the harness writes.
type Hello struct {
	Type     string   `json:"type"` // "hello"
	Protocol int      `json:"protocol"`
	Areas    []string `json:"areas"`
	Domains  []string `json:"domains"`
}

// Request is one line the harness writes to the adapter after the hello:
// a case, with its inputs (always an object, perhaps empty).
type Request struct {
	Type     string         `json:"type,omitempty"` // "hello" on the hello line, which Hello writes
	ID       string         `json:"id,omitempty"`
	Area     string         `json:"area,omitempty"`
	Function string         `json:"function,omitempty"`
	Input    map[string]any `json:"input"`
}

// Response is one line the adapter writes back: a hello answer (Type,
// Protocol, Implements, Name, Domain, ExactNs) or the answer to one case
// (ID and Result or Error).
type Response struct {
	Type       string   `json:"type,omitempty"`
	Protocol   int      `json:"protocol,omitempty"`
	Implements []string `json:"implements,omitempty"`
	Name       string   `json:"name,omitempty"`
	Domain     string   `json:"domain,omitempty"`
	// ExactNs, in a hello answer, declares that the adapter answers the
	// exact-nanosecond results (delayNs, lowerNs, upperNs) of the RTB1
	// delays and bounds, as decimal strings compared exactly.
	ExactNs bool           `json:"exactNs,omitempty"`
	ID      string         `json:"id,omitempty"`
	Result  map[string]any `json:"result,omitempty"`
	Error   *AnswerError   `json:"error,omitempty"`
}

// AnswerError is an adapter's error answer: the input field it rejects
// (named as the protocol names inputs, e.g. "endpoint" or
// "fallbackHosts[1]") and a message for people. On the wire it is an
// object {"field","message"}; a bare string is accepted as a message that
// names no field.
type AnswerError struct {
	Field   string `json:"field,omitempty"`
	Message string `json:"message,omitempty"`
}

// UnmarshalJSON accepts an object or a bare string.
func (e *AnswerError) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*e = AnswerError{Message: s}
		return nil
	}
	type plain AnswerError
	var p plain
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("an error answer is a string or an object with field and message: %w", err)
	}
	*e = AnswerError(p)
	return nil
}

// The domains an adapter may declare in its hello.
const (
	// DomainAll (the default) asks for every case, totality decisions
	// included.
	DomainAll = "all"
	// DomainSpec asks only for the cases whose inputs a conforming SDK's
	// own code can produce; the others are reported as outside the
	// declared domain, by decision.
	DomainSpec = "spec"
)

// helloKeys are the keys a hello answer may have.
var helloKeys = []string{"type", "protocol", "implements", "name", "domain", "exactNs"}

// answerKeys are the keys an answer to a case may have.
var answerKeys = []string{"id", "result", "error"}

// unknownKeys returns the keys of the JSON object line outside allowed,
// sorted.
func unknownKeys(line []byte, allowed []string) []string {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return nil
	}
	var out []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// number reads a JSON number or one of "NaN", "Infinity", "-Infinity", the
// protocol's spelling of the numbers JSON cannot hold.
func number(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case string:
		switch x {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
	}
	return 0, fmt.Errorf("not a number: %v", v)
}

// wireNumber is number's inverse: non-finite values as their strings.
func wireNumber(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}
