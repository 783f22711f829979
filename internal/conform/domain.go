package conform

import (
	"math"
	"slices"
	"strings"
)

// The totality decisions: what this package decides for inputs no
// conforming SDK's own code produces. A case whose inputs fall under one
// is outside the spec's domain; an adapter that declares "domain":"spec"
// is not asked it, and the report lists it under the decision's name.
const (
	DecisionAttemptBelowOne  = "an attempt below 1 counts as 1"
	DecisionUOutsideUnit     = "a draw u outside [0, 1] is clamped into it, NaN as 0"
	DecisionInitialNotAbove0 = "an initial delay <= 0 gives 0"
	DecisionSaturation       = "a delay beyond 2^63-1 ns saturates at 9223372036854775807 ns"
	DecisionUnreachable      = "setTransportPending combinations no connection manager produces get the rules' answer"
	DecisionShortCircuitLE0  = "a short-circuit timeout <= 0 means the default 2000 ms"
	DecisionDrawOutsideUnit  = "a host-order draw outside [0, 1) is clamped into it, NaN as 0"
	DecisionOwnHosts         = "outside Ably's preset (ably false) the options name the service's own hosts: one label, or a host and a port"
	DecisionHostValidation   = "endpoint options that cannot name a host are rejected, naming the option"
	DecisionHostCase         = "host names and routing policy ids are case-insensitive: lowered, and compared lowered"
	DecisionBodyUnicode      = "only ASCII white space is trimmed around the connectivity answer"
	DecisionRetryParams      = "retry-family parameters Validate rejects are clamped: a negative duration as 0, the multiplier into {1} or [1.01, 100], the jitter into [0, 1]"
)

// The functions of retry.json.
var (
	retryDelays = []string{"fullJitterDelay", "equalJitterDelay", "grpcDelay", "decorrelatedDelay"}
	retryBounds = []string{"fullJitterBounds", "equalJitterBounds", "grpcBounds", "decorrelatedBounds"}
	retryAll    = slices.Concat(retryDelays, retryBounds)
)

// saturatedMs is 2^63-1 ns in milliseconds, as the fixtures spell it.
const saturatedMs = 9223372036854.775807

// domainRule is one totality decision and the cases it covers.
type domainRule struct {
	decision  string
	functions []string
	applies   func(in, expected map[string]any) bool
}

func numberOr(v any, absent float64) float64 {
	if v == nil {
		return absent
	}
	f, err := number(v)
	if err != nil {
		return absent
	}
	return f
}

// domainRules are checked in order; the first that applies names the
// case's decision.
var domainRules = []domainRule{
	{DecisionAttemptBelowOne, slices.Concat([]string{"backoffCoefficient", "retryDelay", "retryBounds"}, retryAll), func(in, _ map[string]any) bool {
		return !(numberOr(in["attempt"], 1) >= 1)
	}},
	{DecisionUOutsideUnit, slices.Concat([]string{"jitterCoefficient", "retryDelay"}, retryDelays), func(in, _ map[string]any) bool {
		u := numberOr(in["u"], 0)
		return !(u >= 0 && u <= 1)
	}},
	{DecisionInitialNotAbove0, []string{"retryDelay", "retryBounds"}, func(in, _ map[string]any) bool {
		return !(numberOr(in["initialMs"], 1) > 0)
	}},
	{DecisionRetryParams, retryAll, func(in, _ map[string]any) bool {
		base, cap := numberOr(in["baseMs"], 0), numberOr(in["capMs"], 0)
		if !(base > 0 && cap >= base) {
			return true
		}
		if _, grpc := in["multiplier"]; !grpc {
			return false
		}
		m, j := numberOr(in["multiplier"], math.NaN()), numberOr(in["jitter"], 0)
		return !(m == 1 || m >= 1.01 && m <= 100) || !(j >= 0 && j <= 1)
	}},
	{DecisionSaturation, slices.Concat([]string{"retryDelay", "retryBounds"}, retryAll), func(_, ex map[string]any) bool {
		for _, k := range []string{"delayMs", "lowerMs", "upperMs"} {
			if f, ok := ex[k].(float64); ok && f >= saturatedMs {
				return true
			}
		}
		return false
	}},
	{DecisionUnreachable, []string{"decidePending"}, func(in, _ map[string]any) bool {
		return in["reachable"] == false
	}},
	{DecisionShortCircuitLE0, []string{"chooseTransport"}, func(in, _ map[string]any) bool {
		return !(numberOr(in["shortCircuitMs"], 1) > 0)
	}},
	{DecisionDrawOutsideUnit, []string{"hostOrder"}, func(in, _ map[string]any) bool {
		draws, _ := in["draws"].([]any)
		for _, d := range draws {
			u := numberOr(d, -1)
			if !(u >= 0 && u < 1) {
				return true
			}
		}
		return false
	}},
	{DecisionOwnHosts, []string{"resolveHosts"}, func(in, _ map[string]any) bool {
		return in["ably"] == false
	}},
	{DecisionHostValidation, []string{"resolveHosts"}, func(in, ex map[string]any) bool {
		_, isErr := ex["error"]
		return isErr && !invalidAsASet(in)
	}},
	{DecisionHostCase, []string{"resolveHosts"}, func(in, _ map[string]any) bool {
		up := func(v any) bool {
			s, _ := v.(string)
			return strings.ContainsFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })
		}
		hosts, _ := in["fallbackHosts"].([]any)
		return up(in["endpoint"]) || up(in["environment"]) || up(in["restHost"]) || up(in["realtimeHost"]) || slices.ContainsFunc(hosts, up)
	}},
	{DecisionBodyUnicode, []string{"connectivityUp"}, func(in, _ map[string]any) bool {
		s, _ := in["body"].(string)
		return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 })
	}},
}

// outsideDomain returns the totality decision the case checks, or "" for a
// case in the spec's domain.
func outsideDomain(c Case, reachable any) string {
	in := c.Input
	if reachable != nil {
		in = clone(c.Input)
		in["reachable"] = reachable
	}
	for _, r := range domainRules {
		for _, f := range r.functions {
			if f == c.Function && r.applies(in, c.Expected) {
				return r.decision
			}
		}
	}
	return ""
}

// Decisions lists every totality decision's name.
func Decisions() []string {
	out := make([]string, len(domainRules))
	for i, r := range domainRules {
		out[i] = r.decision
	}
	return out
}

// invalidAsASet reports whether resolveHosts options are a set the spec
// itself calls invalid, which every SDK that supports the options
// rejects: endpoint with environment, restHost, realtimeHost or
// fallbackHostsUseDefault (REC1b1), environment with restHost or
// realtimeHost (REC1c1), fallbackHosts with fallbackHostsUseDefault
// (REC2a1).
func invalidAsASet(in map[string]any) bool {
	set := func(k string) bool { s, _ := in[k].(string); return s != "" }
	useDefault := in["fallbackHostsUseDefault"] == true
	_, fallbacks := in["fallbackHosts"]
	return set("endpoint") && (set("environment") || set("restHost") || set("realtimeHost") || useDefault) ||
		set("environment") && (set("restHost") || set("realtimeHost")) ||
		fallbacks && useDefault
}
