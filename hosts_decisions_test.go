package reconnect

import "strings"

// The host decisions of ResolveHosts, ShouldFallback and ConnectivityUp
// written as data, with cases on both sides of every boundary. Each
// expectation is spelled out by hand from the rule in its comment, never
// computed by the code under test.

const (
	fieldEndpoint    = "EndpointOptions.Endpoint"
	fieldEnvironment = "EndpointOptions.Environment"
)

// label63 and label64 are labels at and over the 63-byte limit.
var (
	label63 = strings.Repeat("a", 63)
	label64 = strings.Repeat("a", 64)
	// host253 is 63+1+63+1+63+1+61 = 253 bytes; host254 one more.
	host253 = label63 + "." + label63 + "." + label63 + "." + strings.Repeat("b", 61)
	host254 = label63 + "." + label63 + "." + label63 + "." + strings.Repeat("b", 62)
)

// explicitHost is an endpoint that REC1b2 makes a hostname, accepted as the
// primary host with no fallbacks.
func explicitHost(id, endpoint, primary string) endpointCase {
	return endpointCase{id: id, endpoint: endpoint, primary: primary, fallbacks: []string{}}
}

func badEndpoint(id, endpoint string) endpointCase {
	return endpointCase{id: id, endpoint: endpoint, errField: fieldEndpoint}
}

func badFallback(id, host string) endpointCase {
	return endpointCase{id: id, fallbackHosts: []string{"ok.example.com", host}, errField: "EndpointOptions.FallbackHosts[1]"}
}

func goodFallback(id, host, want string) endpointCase {
	return endpointCase{id: id, fallbackHosts: []string{"ok.example.com", host}, primary: "main.realtime.ably.net", fallbacks: []string{"ok.example.com", want}}
}

func policy(id, endpoint, want string) endpointCase {
	return endpointCase{id: id, endpoint: endpoint, primary: want + ".realtime.ably.net", fallbacks: fiveFallbacks(want, ".fallback.ably-realtime.com")}
}

// hostDecisionCases pin the host name rules (see ResolveHosts).
var hostDecisionCases = []endpointCase{
	// Labels: at most 63 bytes; never empty; '-' not first or last.
	explicitHost("host-label-63-bytes", label63+".example.com", label63+".example.com"),
	badEndpoint("invalid-host-label-64-bytes", label64+".example.com"),
	goodFallback("fallback-label-63-bytes", "fb."+label63, "fb."+label63),
	badFallback("invalid-fallback-label-64-bytes", "fb."+label64),
	explicitHost("host-253-bytes", host253, host253),
	badEndpoint("invalid-host-254-bytes", host254),
	goodFallback("fallback-253-bytes", host253, host253),
	badFallback("invalid-fallback-254-bytes", host254),
	badEndpoint("invalid-host-dot", "."),
	badEndpoint("invalid-host-two-dots", ".."),
	badEndpoint("invalid-host-empty-label", "a..b"),
	badEndpoint("invalid-host-leading-dot", ".example.com"),
	badEndpoint("invalid-host-trailing-dot", "example.com."),
	explicitHost("host-one-letter-labels", "a.b", "a.b"),
	badFallback("invalid-fallback-empty-label", "fb..example.com"),
	badEndpoint("invalid-host-label-starts-with-hyphen", "-rt.example.com"),
	badEndpoint("invalid-host-label-ends-with-hyphen", "rt-.example.com"),
	explicitHost("host-hyphen-inside-label", "r-t.example.com", "r-t.example.com"),
	explicitHost("host-underscore", "_rt.example.com", "_rt.example.com"),
	explicitHost("host-punycode", "xn--bcher-kva.example", "xn--bcher-kva.example"),
	// Only ASCII letters, digits, '-', '_' and '.': punctuation, controls
	// and every Unicode space, zero-width or bidi character are rejected.
	badEndpoint("invalid-host-with-tab", "rt.example\t.com"),
	badEndpoint("invalid-host-with-backslash", `rt.example.com\x`),
	badEndpoint("invalid-host-with-question-mark", "rt.example.com?x"),
	badEndpoint("invalid-host-with-hash", "rt.example.com#x"),
	badEndpoint("invalid-host-with-at", "user@rt.example.com"),
	badEndpoint("invalid-host-with-percent", "rt%2eexample.com"),
	badEndpoint("invalid-host-with-star", "*.example.com"),
	badEndpoint("invalid-host-with-comma", "a.example.com,b.example.com"),
	badEndpoint("invalid-host-nul", "rt.example.com\x00"),
	badEndpoint("invalid-host-c0-control", "rt.exa\x1fmple.com"),
	badEndpoint("invalid-host-del", "rt.example.com\x7f"),
	badEndpoint("invalid-host-c1-control", "rt.example.com\u0085"),
	badEndpoint("invalid-host-nbsp", "rt.example.com\u00a0"),
	badEndpoint("invalid-host-line-separator", "rt.example.com\u2028"),
	badEndpoint("invalid-host-paragraph-separator", "rt.example.com\u2029"),
	badEndpoint("invalid-host-ideographic-space", "rt.example.com\u3000"),
	badEndpoint("invalid-host-zero-width-space", "rt.exam\u200bple.com"),
	badEndpoint("invalid-host-zero-width-joiner", "rt.exam\u200dple.com"),
	badEndpoint("invalid-host-left-to-right-mark", "rt.example.com\u200e"),
	badEndpoint("invalid-host-right-to-left-override", "\u202ert.example.com"),
	badEndpoint("invalid-host-bom", "\ufeffrt.example.com"),
	badEndpoint("invalid-host-non-ascii-letter", "rt.b\u00fccher.example"),
	badEndpoint("invalid-host-kelvin-sign", "rt.\u212aexample.com"),
	badEndpoint("invalid-policy-id-kelvin-sign", "\u212acme"),
	badEndpoint("invalid-policy-id-dotless-i", "\u0130cme"),
	badFallback("invalid-fallback-nbsp", "fb.example.com\u00a0"),
	badFallback("invalid-fallback-bom", "\ufefffb.example.com"),
	badFallback("invalid-fallback-nel", "fb.example.com\u0085"),
	// IPv4 addresses; a name whose last label is all digits must be one.
	explicitHost("host-ipv4", "10.0.0.7", "10.0.0.7"),
	badEndpoint("invalid-host-ipv4-octet-256", "10.0.0.256"),
	badEndpoint("invalid-host-ipv4-three-parts", "10.0.7"),
	badEndpoint("invalid-host-ipv4-leading-zero", "10.0.0.07"),
	explicitHost("host-digits-then-letters", "10.0.0.7a", "10.0.0.7a"),
	// ':' only in an IPv6 address: no port on any host form, no brackets,
	// no zone.
	explicitHost("host-ipv6-loopback", "::1", "::1"),
	explicitHost("host-ipv6-documentation", "2001:DB8::1", "2001:db8::1"),
	explicitHost("host-ipv6-mapped-ipv4", "::ffff:10.0.0.7", "::ffff:10.0.0.7"),
	explicitHost("host-ipv6-trailing-double-colon", "1::", "1::"),
	badEndpoint("invalid-host-ipv6-trailing-colon", "0::b:"),
	badEndpoint("invalid-host-ipv6-two-double-colons", "1::2::3"),
	badEndpoint("invalid-host-ipv6-nine-groups", "1:2:3:4:5:6:7:8:9"),
	badEndpoint("invalid-host-port", "rt.example.com:8080"),
	badEndpoint("invalid-host-localhost-port", "localhost:8080"),
	badEndpoint("invalid-host-ipv4-port", "10.0.0.7:8080"),
	badEndpoint("invalid-host-ipv6-brackets", "[::1]"),
	badEndpoint("invalid-host-ipv6-brackets-port", "[::1]:8080"),
	badEndpoint("invalid-host-ipv6-zone", "fe80::1%eth0"),
	badEndpoint("invalid-policy-id-port", "acme:443"),
	badFallback("invalid-fallback-port", "fb.example.com:8080"),
	badFallback("invalid-fallback-localhost-port", "localhost:8080"),
	goodFallback("fallback-ipv6", "::1", "::1"),
	// Case: hosts and policy ids are lowered; duplicates compared lowered.
	explicitHost("host-upper-case", "RT.Example.COM", "rt.example.com"),
	explicitHost("host-localhost-upper-case", "LOCALHOST", "localhost"),
	policy("policy-id-upper-case", "ACME", "acme"),
	{id: "nonprod-upper-case", endpoint: "NonProd:Sandbox", primary: "sandbox.realtime.ably-nonprod.net", fallbacks: fiveFallbacks("sandbox", ".fallback.ably-realtime-nonprod.com")},
	{id: "environment-production-upper-case", environment: "Production", primary: "main.realtime.ably.net", fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")},
	goodFallback("fallback-upper-case", "FB.Example.com", "fb.example.com"),
	{id: "invalid-fallback-duplicate-in-other-case", fallbackHosts: []string{"fb.example.com", "FB.EXAMPLE.COM"}, errField: "EndpointOptions.FallbackHosts[1]"},
	{id: "fallback-is-primary-in-other-case", endpoint: "rt.example.com", fallbackHosts: []string{"RT.example.com"}, primary: "rt.example.com", fallbacks: []string{"rt.example.com"}},
	// Routing policy ids are DNS labels.
	policy("policy-id-one-letter", "a", "a"),
	policy("policy-id-underscore", "a_b", "a_b"),
	policy("policy-id-hyphen-inside", "a-b", "a-b"),
	policy("policy-id-63-bytes", label63, label63),
	badEndpoint("invalid-policy-id-64-bytes", label64),
	badEndpoint("invalid-policy-id-hyphen", "-"),
	badEndpoint("invalid-policy-id-hyphens-around", "-acme-"),
	badEndpoint("invalid-policy-id-ends-with-hyphen", "acme-"),
	badEndpoint("invalid-policy-id-nbsp", "acme\u00a0"),
	badEndpoint("invalid-nonprod-policy-id-hyphen", "nonprod:-x"),
	// An explicit empty fallbackHosts disables fallback whatever the endpoint.
	{id: "nonprod-fallback-hosts-empty", endpoint: "nonprod:sandbox", fallbackHosts: []string{}, primary: "sandbox.realtime.ably-nonprod.net", fallbacks: []string{}},
	// REC1b1: endpoint and environment never combine, whatever the endpoint.
	{id: "invalid-hostname-and-environment", endpoint: "rt.example.com", environment: "acme", errField: fieldEnvironment},
	{id: "invalid-nonprod-and-environment-production", endpoint: "nonprod:sandbox", environment: "production", errField: fieldEnvironment},
	{id: "invalid-environment-hyphen", environment: "-", errField: fieldEnvironment},
	{id: "invalid-environment-64-bytes", environment: label64, errField: fieldEnvironment},
}

// connectivityDecisionAnswers pin which white space around "yes" is
// trimmed: ASCII only.
var connectivityDecisionAnswers = []connectivityAnswer{
	{"yes-tab-vt-ff", 200, "\tyes\v\f", true},
	{"yes-crlf-both-sides", 200, "\r\nyes\r\n", true},
	{"yes-bom", 200, "\ufeffyes", false},
	{"yes-nel", 200, "yes\u0085", false},
	{"yes-nbsp", 200, "\u00a0yes", false},
	{"yes-line-separator", 200, "yes\u2028", false},
	{"yes-ideographic-space", 200, "\u3000yes", false},
	{"yes-zero-width-space", 200, "yes\u200b", false},
	{"yes-nul", 200, "yes\x00", false},
	{"yes-status-200", 200, "yes", true},
	{"yes-status-300", 300, "yes", false},
}

// serverDecisionCases pin the CloudFront rule's matching of the Server
// header: trimmed of spaces and tabs only, ASCII case-insensitive, exact.
var serverDecisionCases = []struct {
	id, kind, server string
	status           int
	fallback         bool
}{
	{"cloudfront-spaces-tabs", "http-status", " \tCloudFront\t ", 403, true},
	{"cloudfront-upper-case", "http-status", "CLOUDFRONT", 403, true},
	{"cloudfront-nbsp", "http-status", "\u00a0CloudFront", 403, false},
	{"cloudfront-nel", "http-status", "CloudFront\u0085", 403, false},
	{"cloudfront-newline", "http-status", "CloudFront\n", 403, false},
	{"cloudfront-with-version", "http-status", "CloudFront/1.0", 403, false},
	{"cloudfront-split", "http-status", "Cloud Front", 403, false},
	{"cloudfront-empty-server", "http-status", "", 403, false},
	{"cloudfront-status-399", "http-status", "CloudFront", 399, false},
	{"cloudfront-status-400", "http-status", "CloudFront", 400, true},
	// The Server header counts only for an HTTP response.
	{"cloudfront-disconnected-403", "disconnected", "CloudFront", 403, false},
	{"cloudfront-disconnected-503", "disconnected", "CloudFront", 503, true},
	{"cloudfront-token-403", "token", "CloudFront", 403, false},
	{"cloudfront-other-403", "other", "CloudFront", 403, false},
	{"cloudfront-none-403", "none", "CloudFront", 403, false},
	{"cloudfront-dns", "dns", "CloudFront", 403, true},
	{"cloudfront-unreachable", "unreachable", "CloudFront", 403, true},
	{"cloudfront-refused", "refused", "CloudFront", 403, true},
	{"cloudfront-timeout", "timeout", "CloudFront", 403, true},
}

// orderDecisionDraws pin the host-order mapping ⌊u·r⌋ against the
// plausible others (rounding, ceiling, reversed, never the last, modulo,
// u·(r−1)): each of those answers at least two of these differently.
var orderDecisionDraws = []struct {
	max   int
	draws []float64
}{
	{3, []float64{0.15, 0.6, 0.85}},
	{3, []float64{0.3, 0.85, 0.15}},
	{3, []float64{0.6, 0.3, 0.99}},
	{5, []float64{0.85, 0.15, 0.6, 0.45, 0.7}},
	{5, []float64{0.05, 0.95, 0.35, 0.55, 0.25}},
	{2, []float64{0.999, 0.001}},
}

// preferredDecisionItems pin the preferred-host decisions a second time each:
// the expiry is exclusive, only a qualifying failure forgets, and a
// zero ttl forgets what was remembered.
func preferredDecisionItems(pr, fb string) []hostsItem {
	other := "main.e.fallback.ably-realtime.com"
	return []hostsItem{
		{ID: "preferred-expires-exactly-at-ttl", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(int64(1000))},
			{AtMs: 999, Op: "first", Expected: fb},
			{AtMs: 1000, Op: "first", Expected: pr},
		}},
		{ID: "preferred-kept-on-token-failure", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(int64(600000))},
			{AtMs: 1000, Op: "failed", Host: fb, FailureKind: "token"},
			{AtMs: 1000, Op: "first", Expected: fb},
			{AtMs: 2000, Op: "failed", Host: fb, FailureKind: "timeout"},
			{AtMs: 2000, Op: "first", Expected: pr},
		}},
		{ID: "preferred-zero-ttl-forgets", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(int64(600000))},
			{AtMs: 1000, Op: "fallbackSucceeded", Host: other, TTLMs: ptr(int64(0))},
			{AtMs: 2000, Op: "first", Expected: pr},
		}},
		{ID: "preferred-negative-ttl-forgets", Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: []cacheStep{
			{AtMs: 0, Op: "fallbackSucceeded", Host: fb, TTLMs: ptr(int64(600000))},
			{AtMs: 1000, Op: "fallbackSucceeded", Host: other, TTLMs: ptr(int64(-5))},
			{AtMs: 1000, Op: "first", Expected: pr},
		}},
	}
}
