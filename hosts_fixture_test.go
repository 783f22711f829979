package reconnect

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// ---- The oracle: REC1/REC2, RSC15l/RTN17f and RTN17j written as data ------

// endpointCase is one endpoint derivation, with the expected hosts spelled
// out from the spec's text (REC1b2–REC1b4, REC1c, REC2a2, REC2c1–REC2c5).
type endpointCase struct {
	id, endpoint, environment string
	// restHost, realtimeHost and useDefault are Ably's deprecated
	// options (REC1b1, REC1c1, REC1d, REC2a1, REC2b); empty and false
	// mean not set.
	restHost, realtimeHost string
	useDefault             bool
	fallbackHosts          []string // nil: not set
	primary                string
	fallbacks              []string
	errField               string // non-empty: the option the error must name
	comment                string
	// endpointSet and environmentSet send the option even when it is
	// the empty string.
	endpointSet, environmentSet bool
	// own resolves the options without Ably's preset
	// (EndpointOptions.Ably false): the service's own hosts.
	own bool
}

func fiveFallbacks(prefix, suffix string) []string {
	var out []string
	for _, l := range "abcde" {
		out = append(out, prefix+"."+string(l)+suffix)
	}
	return out
}

var endpointCases = []endpointCase{
	{id: "default", primary: "main.realtime.ably.net", fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")},
	{id: "policy-id", endpoint: "acme", primary: "acme.realtime.ably.net", fallbacks: fiveFallbacks("acme", ".fallback.ably-realtime.com")},
	{id: "nonprod-policy-id", endpoint: "nonprod:sandbox", primary: "sandbox.realtime.ably-nonprod.net", fallbacks: fiveFallbacks("sandbox", ".fallback.ably-realtime-nonprod.com")},
	{id: "explicit-hostname", endpoint: "rt.example.com", primary: "rt.example.com", fallbacks: []string{}},
	{id: "explicit-ipv4", endpoint: "10.0.0.7", primary: "10.0.0.7", fallbacks: []string{}},
	{id: "explicit-ipv6", endpoint: "::1", primary: "::1", fallbacks: []string{}},
	{id: "explicit-localhost", endpoint: "localhost", primary: "localhost", fallbacks: []string{}},
	{id: "explicit-fallback-hosts", endpoint: "acme", fallbackHosts: []string{"fb1.example.com", "fb2.example.com"}, primary: "acme.realtime.ably.net", fallbacks: []string{"fb1.example.com", "fb2.example.com"}},
	{id: "explicit-fallback-hosts-empty", fallbackHosts: []string{}, primary: "main.realtime.ably.net", fallbacks: []string{}},
	{id: "hostname-with-fallback-hosts", endpoint: "rt.example.com", fallbackHosts: []string{"fb.example.com"}, primary: "rt.example.com", fallbacks: []string{"fb.example.com"}},
	{id: "environment", environment: "acme", primary: "acme.realtime.ably.net", fallbacks: fiveFallbacks("acme", ".fallback.ably-realtime.com")},
	{id: "environment-production", environment: "production", primary: "main.realtime.ably.net", fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")},
	{id: "invalid-endpoint-and-environment", endpoint: "acme", environment: "acme", errField: "EndpointOptions.Environment"},
	{id: "invalid-empty-nonprod-id", endpoint: "nonprod:", errField: "EndpointOptions.Endpoint"},
	{id: "invalid-policy-id-with-space", endpoint: "ac me", errField: "EndpointOptions.Endpoint"},
	{id: "invalid-host-with-space", endpoint: "rt.example .com", errField: "EndpointOptions.Endpoint"},
	{id: "invalid-host-with-slash", endpoint: "rt.example.com/path", errField: "EndpointOptions.Endpoint"},
	{id: "invalid-host-too-long", endpoint: strings.Repeat("a", 250) + ".com", errField: "EndpointOptions.Endpoint"},
	{id: "invalid-environment-id", environment: "acme!", errField: "EndpointOptions.Environment"},
	{id: "invalid-empty-fallback-host", fallbackHosts: []string{"fb.example.com", ""}, errField: "EndpointOptions.FallbackHosts[1]"},
	{id: "invalid-fallback-host-with-space", fallbackHosts: []string{"fb example.com"}, errField: "EndpointOptions.FallbackHosts[0]"},
	{id: "invalid-duplicate-fallback-host", fallbackHosts: []string{"fb.example.com", "fb.example.com"}, errField: "EndpointOptions.FallbackHosts[1]"},
	{id: "fallback-host-is-primary", endpoint: "rt.example.com", fallbackHosts: []string{"rt.example.com"}, primary: "rt.example.com", fallbacks: []string{"rt.example.com"},
		comment: "REC2a2: the fallback hosts are the option's value, the primary's name included"},
}

// qualifying is the list of qualifying failures (RSC15l, RTN17f) as data: a kind
// qualifies always, never, or for a status range; CloudFront widens
// http-status to every status from 400.
var qualifying = map[string]struct {
	always, cloudFront bool
	lo, hi             int // qualifying status range, lo > hi for none
}{
	"dns":          {always: true},
	"unreachable":  {always: true},
	"refused":      {always: true},
	"timeout":      {always: true},
	"http-status":  {lo: 500, hi: 504, cloudFront: true},
	"disconnected": {lo: 500, hi: 504},
	"token":        {lo: 1, hi: 0},
	"other":        {lo: 1, hi: 0},
	"none":         {lo: 1, hi: 0},
}

func oracleQualifies(kind string, status int, server string) bool {
	q := qualifying[kind]
	return q.always || (q.lo <= status && status <= q.hi) || (q.cloudFront && server == "CloudFront" && status >= 400)
}

// connectivityAnswers: the decided rule (2xx, trimmed body exactly
// "yes"), one expectation per case.
type connectivityAnswer struct {
	id     string
	status int
	body   string
	up     bool
}

var connectivityAnswers = []connectivityAnswer{
	{"yes", 200, "yes", true},
	{"yes-newline", 200, "yes\n", true},
	{"yes-spaces", 200, " yes ", true},
	{"yes-crlf", 200, "yes\r\n", true},
	{"upper-case", 200, "YES", false},
	{"yes-please", 200, "yes please", false},
	{"html-wrapped", 200, "<html>yes</html>", false},
	{"empty", 200, "", false},
	{"no", 200, "no", false},
	{"yes-status-500", 500, "yes", false},
	{"yes-status-204", 204, "yes", true},
	{"yes-status-299", 299, "yes", true},
	{"yes-status-302", 302, "yes", false},
	{"yes-status-199", 199, "yes", false},
}

// oracleOrder decodes pinned draws into a host order the way the spec'd rule
// reads: the draws form a Lehmer code over the fallbacks in their given
// order (draw k picks the ⌊u·r⌋-th of the r not yet picked).
func oracleOrder(primary string, fallbacks []string, maxFallbacks int, draws []float64) []string {
	out := []string{primary}
	left := slices.Clone(fallbacks)
	for k := 0; k < maxFallbacks && len(left) > 0; k++ {
		u := 0.0 // a missing draw counts as 0
		if k < len(draws) {
			u = draws[k]
		}
		if !(u >= 0) {
			u = 0
		}
		idx := len(left) - 1
		if u < 1 {
			idx = min(int(math.Floor(u*float64(len(left)))), len(left)-1)
		}
		out = append(out, left[idx])
		left = slices.Delete(left, idx, idx+1)
	}
	return out
}

// ---- The fixture file ----------------------------------------------------

type hostsFile struct {
	Comment       string            `json:"_comment"`
	Spec          string            `json:"spec"`
	FormatVersion int               `json:"formatVersion"`
	Units         map[string]string `json:"units"`
	Decisions     []string          `json:"decisions"`
	Items         []hostsItem       `json:"items"`
}

type cacheStep struct {
	AtMs        int64  `json:"atMs"`
	Op          string `json:"op"`
	Host        string `json:"host,omitempty"`
	TTLMs       *int64 `json:"ttlMs,omitempty"`
	FailureKind string `json:"failureKind,omitempty"`
	Status      int    `json:"status,omitempty"`
	Expected    string `json:"expectedFirst,omitempty"`
}

type hostsItem struct {
	ID       string `json:"id"`
	Spec     string `json:"spec"`
	Function string `json:"function"`
	Comment  string `json:"_comment,omitempty"`
	// UTS lists the Universal Test Specification tests the item
	// translates (hosts_uts_test.go), each <file>#<id>.
	UTS []string `json:"uts,omitempty"`

	// Ably false resolves the options without Ably's preset (the
	// service's own hosts); left out means Ably's rules, REC1/REC2.
	Ably          *bool    `json:"ably,omitempty"`
	Endpoint      *string  `json:"endpoint,omitempty"`
	Environment   *string  `json:"environment,omitempty"`
	FallbackHosts []string `json:"fallbackHosts,omitempty"`
	FallbacksSet  *bool    `json:"fallbackHostsSet,omitempty"`
	// RestHost, RealtimeHost and FallbackHostsUseDefault are Ably's
	// deprecated options; left out means not set.
	RestHost                *string `json:"restHost,omitempty"`
	RealtimeHost            *string `json:"realtimeHost,omitempty"`
	FallbackHostsUseDefault bool    `json:"fallbackHostsUseDefault,omitempty"`

	FailureKind string `json:"failureKind,omitempty"`
	Status      *int   `json:"status,omitempty"`
	StatusRange []int  `json:"statusRange,omitempty"`
	Server      string `json:"server,omitempty"`

	Body string `json:"body,omitempty"`

	Primary      string            `json:"primary,omitempty"`
	Fallbacks    []string          `json:"fallbacks,omitempty"`
	MaxFallbacks *int              `json:"maxFallbacks,omitempty"`
	Draws        []json.RawMessage `json:"draws,omitempty"`

	Steps []cacheStep `json:"steps,omitempty"`

	ExpectedPrimary    string    `json:"expectedPrimary,omitempty"`
	ExpectedFallbacks  *[]string `json:"expectedFallbacks,omitempty"`
	ExpectedErrorField string    `json:"expectedErrorField,omitempty"`
	ExpectedFallback   *bool     `json:"expectedFallback,omitempty"`
	ExpectedUp         *bool     `json:"expectedUp,omitempty"`
	ExpectedOrder      []string  `json:"expectedOrder,omitempty"`
}

// ably reports whether a resolveHosts item runs Ably's preset: every item
// but those with "ably": false.
func (it hostsItem) ably() bool { return it.Ably == nil || *it.Ably }

// options are the EndpointOptions a resolveHosts item gives, with ably
// as EndpointOptions.Ably.
func (it hostsItem) options(ably bool) EndpointOptions {
	o := EndpointOptions{Ably: ably}
	if it.Endpoint != nil {
		o.Endpoint = *it.Endpoint
	}
	if it.Environment != nil {
		o.Environment = *it.Environment
	}
	if it.RestHost != nil {
		o.RestHost = *it.RestHost
	}
	if it.RealtimeHost != nil {
		o.RealtimeHost = *it.RealtimeHost
	}
	o.FallbackHostsUseDefault = it.FallbackHostsUseDefault
	if *it.FallbacksSet {
		o.FallbackHosts = append([]string{}, it.FallbackHosts...)
	}
	return o
}

func buildHostsFixture() hostsFile {
	f := hostsFile{
		Comment: "Host fallback: endpoint derivation, qualifying failures, the connectivity answer, host order for pinned draws " +
			"and the preferred-host cache. Generated from the rules written as data (go test -run Fixture -update); do not edit by hand.",
		Spec:          "RTN17/RSC15/REC",
		FormatVersion: 1,
		Units:         map[string]string{"time": "milliseconds, as JSON integers"},
		Decisions: []string{
			"fallbackHostsSet=false means the option is not set (fallbacks derived); true with an empty list disables fallback",
			"the deprecated environment option 'production' means the default routing policy 'main'",
			"a refused connection qualifies as 'host unreachable' (RSC15l1)",
			"the CloudFront rule (RSC15l4) applies to http-status failures only; it matches a Server header that, trimmed of spaces and tabs (HTTP optional white space), equals 'CloudFront' in ASCII case-insensitive comparison",
			"connectivity is up only for a 2xx status whose body, trimmed of ASCII white space (space, tab, LF, VT, FF, CR), is exactly 'yes'; a BOM, NBSP, NEL or any other Unicode space is not trimmed",
			"host names (an explicit endpoint, REC1b2, or a fallback host) are DNS names or IP addresses: at most 253 bytes; labels of 1 to 63 bytes of ASCII letters, digits, '-' and '_', not starting or ending with '-'; no empty label (so no leading or trailing dot); a name whose last label is all digits must be an IPv4 address; ':' only in an IPv6 address without brackets or zone; internationalised names as A-labels. Being ASCII, bytes, characters and UTF-16 units count the same",
			"under Ably's preset a port is never part of a host: 'example.com:8080', 'localhost:8080' and '[::1]:8080' are rejected alike, naming the option",
			"ably false (the service's own hosts, not Ably's preset): endpoint is required and is the primary host, fallbackHosts (nil or empty: none) the fallback hosts; environment, restHost, realtimeHost and fallbackHostsUseDefault are refused, naming the first of them given (in that order, before endpoint); an empty endpoint is refused, then an endpoint 'nonprod:…' that is not a host and a port; a host is a host name as above, one label included ('realtime'; all digits is no host), or an IPv6 address, optionally followed by ':port', an IPv6 address then in brackets ('rt.example.com:8443', 'realtime:8080', '[::1]:8080'); a port is a decimal number from 1 to 65535 without leading zeros; '[::1]' without a port, '::1' with a port outside brackets ('::1:8080' is an IPv6 address), a URL or a path are refused; hosts are returned lowered, port included, and fallback hosts compared whole ('rt:8443' and 'rt:8444' are two hosts)",
			"host names and routing policy ids are case-insensitive: they are returned in lower case and duplicate fallback hosts are found after lowering; 'nonprod:' and 'production' match in any case",
			"a routing policy id (endpoint, nonprod:id or environment) is one DNS label, as above ('-' and '-acme-' are rejected)",
			"an error names the option as the protocol names inputs: endpoint, environment or fallbackHosts[i]",
			"host order: primary first; then draw k (u clamped into [0,1), NaN as 0) picks index floor(u*r) of the r fallbacks not yet picked, in their given order; at most maxFallbacks",
			"preferred host: remembered until at+ttl (exclusive), forgotten on a qualifying failure on that host; a success of a request sent to the preferred host does not extend or revive it",
			"white space around an option (endpoint, environment, a fallback host), ASCII or Unicode, is never trimmed: the option is rejected, naming it; an empty endpoint or environment is the option not given",
			"IPv6: groups of 1 to 4 hex digits in either case; '::' stands for one or more zero groups, never for none, and appears at most once; the last 32 bits may be written as an IPv4 address, with that address's rules",
			"host order: a missing draw counts as 0; no pinned draw lies where rounding u*r in double precision changes its floor",
			"preferred host: a qualifying failure (the shouldFallback rules, with no Server header) on the preferred host forgets it, any other failure or a failure on another host does not; fallbackSucceeded (a request that fell back from the primary host succeeded) remembers its host from then, also when it is the host already preferred",
			"a fallback host equal to the primary host (in any case) is accepted and kept in its place, lowered (REC2a2: 'the set of fallback domains is given by the value of the fallbackHosts option'); the host order tries it as a fallback like any other; a fallback host listed twice is rejected",
			"the deprecated options (REC1b1, REC1c1, REC2a1): endpoint with environment, restHost, realtimeHost or fallbackHostsUseDefault, environment with restHost or realtimeHost, and fallbackHosts (even []) with fallbackHostsUseDefault are rejected, naming the deprecated option (for endpoint, the first of environment, restHost, realtimeHost, fallbackHostsUseDefault; for environment, the first of restHost, realtimeHost); an empty restHost or realtimeHost and fallbackHostsUseDefault false are the option not given",
			"restHost, else realtimeHost, is the primary host (REC1d1, REC1d2), for realtime connections too (REC1 names one primary domain), with no fallback hosts (REC2c6); each is a host name as above, where a word without a dot is a host; both are validated when both are given; fallbackHostsUseDefault makes the fallback hosts main.[a-e].fallback.ably-realtime.com whatever names the primary (REC2b)",
		},
	}
	for _, c := range slices.Concat(endpointCases, hostDecisionCases, legacyHostCases, generatedHostCases(), ownHostCases()) {
		it := hostsItem{ID: "endpoint-" + c.id, Spec: "REC1/REC2", Function: "resolveHosts", Comment: c.comment,
			ExpectedPrimary: c.primary, ExpectedFallbacks: &c.fallbacks, ExpectedErrorField: c.errField}
		if c.own {
			it.Spec, it.Ably = "own hosts", ptr(false)
		}
		if c.endpoint != "" || c.endpointSet {
			it.Endpoint = ptr(c.endpoint)
		}
		if c.environment != "" || c.environmentSet {
			it.Environment = ptr(c.environment)
		}
		if c.restHost != "" {
			it.RestHost = ptr(c.restHost)
		}
		if c.realtimeHost != "" {
			it.RealtimeHost = ptr(c.realtimeHost)
		}
		it.FallbackHostsUseDefault = c.useDefault
		it.FallbacksSet = ptr(c.fallbackHosts != nil)
		it.FallbackHosts = c.fallbackHosts
		if c.errField != "" {
			it.ExpectedFallbacks = nil
		}
		f.Items = append(f.Items, it)
	}
	// Qualifying failures: every kind, and every HTTP status 400–599 in
	// ranges of equal answer.
	for _, kind := range []string{"dns", "unreachable", "refused", "timeout", "token", "other"} {
		f.Items = append(f.Items, hostsItem{ID: "fallback-" + kind, Spec: "RSC15l", Function: "shouldFallback",
			FailureKind: kind, Status: ptr(0), ExpectedFallback: ptr(oracleQualifies(kind, 0, ""))})
	}
	for _, kind := range []string{"http-status", "disconnected"} {
		for _, server := range []string{"", "CloudFront"} {
			if kind == "disconnected" && server != "" {
				continue
			}
			lo := 400
			for s := 400; s <= 600; s++ {
				if s == 600 || oracleQualifies(kind, s, server) != oracleQualifies(kind, lo, server) {
					id := fmt.Sprintf("fallback-%s-%d-%d", kind, lo, s-1)
					if server != "" {
						id = fmt.Sprintf("fallback-%s-cloudfront-%d-%d", kind, lo, s-1)
					}
					f.Items = append(f.Items, hostsItem{ID: id, Spec: "RSC15l/RTN17f1", Function: "shouldFallback",
						FailureKind: kind, StatusRange: []int{lo, s - 1}, Server: server, ExpectedFallback: ptr(oracleQualifies(kind, lo, server))})
					lo = s
				}
			}
		}
	}
	for _, s := range []int{200, 399, 408, 499, 500, 504, 505} {
		f.Items = append(f.Items, hostsItem{ID: fmt.Sprintf("fallback-http-status-%d-server-cloudfront-lower-case", s), Spec: "RSC15l4",
			Function: "shouldFallback", FailureKind: "http-status", Status: ptr(s), Server: "cloudfront",
			ExpectedFallback: ptr(oracleQualifies("http-status", s, "CloudFront"))})
	}
	for _, c := range serverDecisionCases {
		f.Items = append(f.Items, hostsItem{ID: "fallback-" + c.id, Spec: "RSC15l4", Function: "shouldFallback",
			FailureKind: c.kind, Status: ptr(c.status), Server: c.server, ExpectedFallback: ptr(c.fallback)})
	}
	f.Items = append(f.Items, qualifyingItems()...)
	for _, c := range append(slices.Clone(connectivityAnswers), connectivityDecisionAnswers...) {
		f.Items = append(f.Items, hostsItem{ID: "connectivity-" + c.id, Spec: "RTN17j", Function: "connectivityUp",
			Status: ptr(c.status), Body: c.body, ExpectedUp: ptr(c.up)})
	}
	f.Items = append(f.Items, connectivityItems()...)
	// Host orders for pinned draws.
	five := fiveFallbacks("main", ".fallback.ably-realtime.com")
	orders := []struct {
		max   int
		draws []float64
	}{
		{3, []float64{0, 0, 0}}, {3, []float64{0.99, 0.99, 0.99}}, {3, []float64{0.5, 0.5, 0.5}},
		{3, []float64{0.2, 0.9, 0.4}}, {5, []float64{0.7, 0.1, 0.6, 0.3, 0.8}}, {0, nil}, {9, []float64{0.9, 0.9, 0.9, 0.9, 0.9}},
		{3, []float64{1, 1, 1}}, {2, []float64{-0.5, 0.4}},
	}
	for i, c := range append(orders, orderDecisionDraws...) {
		f.Items = append(f.Items, hostsItem{ID: fmt.Sprintf("order-%d", i+1), Spec: "RSC15a/RTN17", Function: "hostOrder",
			Primary: "main.realtime.ably.net", Fallbacks: five, MaxFallbacks: ptr(c.max), Draws: drawNumbers(c.draws),
			ExpectedOrder: oracleOrder("main.realtime.ably.net", five, c.max, c.draws)})
	}
	f.Items = append(f.Items, orderItems(five)...)
	// The preferred-host cache: a timeline.
	ttl := int64(600000)
	fb := "main.c.fallback.ably-realtime.com"
	pr := "main.realtime.ably.net"
	f.Items = append(f.Items,
		hostsItem{ID: "preferred-expires", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "first", Expected: pr},
			{AtMs: 1000, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(ttl)},
			{AtMs: 1000, Op: "first", Expected: fb},
			{AtMs: 600999, Op: "first", Expected: fb},
			{AtMs: 601000, Op: "first", Expected: pr},
			{AtMs: 700000, Op: "first", Expected: pr},
		}},
		hostsItem{ID: "preferred-forgotten-on-qualifying-failure", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(ttl)},
			{AtMs: 5000, Op: "failed", Host: fb, FailureKind: "http-status", Status: 404},
			{AtMs: 5000, Op: "first", Expected: fb},
			{AtMs: 6000, Op: "failed", Host: "main.a.fallback.ably-realtime.com", FailureKind: "timeout"},
			{AtMs: 6000, Op: "first", Expected: fb},
			{AtMs: 7000, Op: "failed", Host: fb, FailureKind: "http-status", Status: 503},
			{AtMs: 7000, Op: "first", Expected: pr},
		}},
		hostsItem{ID: "preferred-replaced-by-newer-fallback", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(ttl)},
			{AtMs: 10000, Op: "fallbackSucceeded", Host: "main.e.fallback.ably-realtime.com", TTLMs: ptr(ttl)},
			{AtMs: 605000, Op: "first", Expected: "main.e.fallback.ably-realtime.com"},
			{AtMs: 610000, Op: "first", Expected: pr},
		}},
		hostsItem{ID: "preferred-zero-ttl-remembers-nothing", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(int64(0))},
			{AtMs: 0, Op: "first", Expected: pr},
		}},
	)
	f.Items = append(f.Items, preferredDecisionItems(pr, fb)...)
	f.Items = append(f.Items, preferredItems(pr, fb)...)
	f.Items = append(f.Items, utsHostsItems()...)
	return f
}

func TestFixtureHostsMatchesOracle(t *testing.T) {
	f := buildHostsFixture()
	seen := map[string]bool{}
	for _, it := range f.Items {
		if seen[it.ID] {
			t.Errorf("id %s used twice", it.ID)
		}
		seen[it.ID] = true
	}
	checkGolden(t, "hosts.json", f)
}

var failureKinds = map[string]FailureKind{
	"none": FailureNone, "other": FailureOther, "dns": FailureDNS, "unreachable": FailureUnreachable, "refused": FailureRefused,
	"timeout": FailureTimeout, "http-status": FailureHTTPStatus, "disconnected": FailureDisconnected, "token": FailureToken,
}

func TestFixtureHostsAgainstFunctions(t *testing.T) {
	var f hostsFile
	loadFixture(t, "hosts.json", &f)
	for _, it := range f.Items {
		switch it.Function {
		case "resolveHosts":
			o := it.options(it.ably()) // REC1/REC2 (Ably's preset), or the service's own hosts
			h, err := ResolveHosts(o)
			if it.ExpectedErrorField != "" {
				fe, ok := err.(*FieldError)
				if !ok || fe.Field != it.ExpectedErrorField {
					t.Errorf("%s: err = %v, want a *FieldError naming %s", it.ID, err, it.ExpectedErrorField)
				}
				continue
			}
			if err != nil || h.Primary != it.ExpectedPrimary || !slices.Equal(h.Fallbacks, *it.ExpectedFallbacks) || h.Fallbacks == nil {
				t.Errorf("%s: ResolveHosts = %+v, %v; want %s %v", it.ID, h, err, it.ExpectedPrimary, it.ExpectedFallbacks)
			}
		case "shouldFallback":
			lo, hi := 0, 0
			if it.Status != nil {
				lo, hi = *it.Status, *it.Status
			} else {
				lo, hi = it.StatusRange[0], it.StatusRange[1]
			}
			for s := lo; s <= hi; s++ {
				fl := Failure{Kind: failureKinds[it.FailureKind], Status: s, Server: it.Server}
				if got := ShouldFallback(fl); got != *it.ExpectedFallback {
					t.Errorf("%s: ShouldFallback(%+v) = %t", it.ID, fl, got)
				}
			}
		case "connectivityUp":
			if got := ConnectivityUp(*it.Status, []byte(it.Body)); got != *it.ExpectedUp {
				t.Errorf("%s: ConnectivityUp(%d, %q) = %t", it.ID, *it.Status, it.Body, got)
			}
		case "hostOrder":
			var draws []float64
			for _, d := range it.Draws {
				draws = append(draws, parseFloatNumber(t, d))
			}
			src := &pinnedSource{draws: draws}
			got := AppendHostOrder(nil, Hosts{Primary: it.Primary, Fallbacks: it.Fallbacks}, *it.MaxFallbacks, src)
			if !slices.Equal(got, it.ExpectedOrder) {
				t.Errorf("%s: order %v, want %v", it.ID, got, it.ExpectedOrder)
			}
		case "preferredHost":
			var p PreferredHost
			t0 := time.Unix(1_700_000_000, 0)
			for i, s := range it.Steps {
				at := t0.Add(time.Duration(s.AtMs) * time.Millisecond)
				switch s.Op {
				case "fallbackSucceeded":
					p.FallbackSucceeded(s.Host, at, time.Duration(*s.TTLMs)*time.Millisecond)
				case "failed":
					p.Failed(s.Host, Failure{Kind: failureKinds[s.FailureKind], Status: s.Status})
				case "first":
					if got := p.First(it.Primary, at); got != s.Expected {
						t.Errorf("%s step %d: First at %d ms = %s, want %s", it.ID, i, s.AtMs, got, s.Expected)
					}
				default:
					t.Errorf("%s: unknown op %q", it.ID, s.Op)
				}
			}
		default:
			t.Errorf("%s: unknown function %q", it.ID, it.Function)
		}
	}
}
