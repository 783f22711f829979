package reconnect

import (
	"fmt"
	"strings"
)

// The endpoints of a service of one's own (EndpointOptions.Ably false),
// written as data for hosts.json: a single-label primary host, a host with
// a port, and Ably's preset still refusing the same names. Every
// expectation comes from the rules below (hostNameRule and the tables'
// answers), never from ResolveHosts.

// ownPortHosts are hosts written before ":port", and whether the rule
// admits them there: a host name by hostNameRule (one label included) or
// an IPv6 address in brackets.
var ownPortHosts = []struct {
	form string
	ok   bool
}{
	{"rt.example.com", true}, {"realtime", true}, {"localhost", true}, {"10.0.0.7", true}, {"_svc", true}, {"RT.Example.COM", true},
	{"[::1]", true}, {"[2001:DB8::a]", true}, {"[::ffff:10.0.0.7]", true},
	{"[fe80::1%25eth0]", false}, {"[10.0.0.7]", false}, {"[rt.example.com]", false}, {"[]", false}, {"[::1", false},
	{"8080", false}, {"rt-", false}, {"rt..example.com", false}, {"rt example.com", false}, {"", false}, {"a:b", false},
}

// ownPorts are written ports, and whether the rule admits them: a decimal
// number from 1 to 65535 without leading zeros.
var ownPorts = []struct {
	form string
	ok   bool
}{
	{"1", true}, {"80", true}, {"443", true}, {"8443", true}, {"65535", true},
	{"0", false}, {"00", false}, {"080", false}, {"08443", false}, {"65536", false}, {"99999", false}, {"100000", false},
	{"", false}, {"http", false}, {" 80", false}, {"80 ", false}, {"-1", false}, {"+80", false}, {"8_0", false}, {"80/", false},
}

// ownLabels are one-label primary hosts; hostNameRule decides them (all
// digits is no host: a name whose last label is all digits must be an IPv4
// address).
var ownLabels = []string{
	"realtime", "rt", "a", "_", "_svc", "r-t", "r_t", "RealTime", "REALTIME", "xn--bcher-kva", "rt1", "1rt",
	strings.Repeat("x", 63), strings.Repeat("x", 64), "-rt", "rt-", "-", "123", "0", "rt!", "rt.", ".rt", "r t", "rt\u00a0",
	"localhost", "sandbox", "production", "main", "nonprod",
}

// policyIDRule is the routing policy id rule of Ably's preset: one label of
// 1 to 63 ASCII letters, digits, '-' and '_', not starting or ending with
// '-' (all digits included).
func policyIDRule(id string) bool {
	if len(id) < 1 || len(id) > 63 || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !strings.Contains(hostNameAlphabet, id[i:i+1]) {
			return false
		}
	}
	return true
}

func ownHost(id, endpoint, primary string, fallbacks ...string) endpointCase {
	return endpointCase{id: id, own: true, endpoint: endpoint, primary: primary, fallbacks: append([]string{}, fallbacks...)}
}

func ownBad(id, endpoint, field string) endpointCase {
	return endpointCase{id: id, own: true, endpoint: endpoint, errField: field}
}

// ownHostCases are the resolveHosts cases without Ably's preset, and
// Ably's preset for the same names.
func ownHostCases() []endpointCase {
	fb0 := "EndpointOptions.FallbackHosts[0]"
	out := []endpointCase{
		ownHost("own-single-label", "realtime", "realtime"),
		ownHost("own-localhost", "localhost", "localhost"),
		ownHost("own-host-name", "rt.example.com", "rt.example.com"),
		ownHost("own-port", "rt.example.com:8443", "rt.example.com:8443"),
		ownHost("own-single-label-port", "realtime:8080", "realtime:8080"),
		ownHost("own-localhost-port", "localhost:8080", "localhost:8080"),
		ownHost("own-ipv4-port", "10.0.0.7:8080", "10.0.0.7:8080"),
		ownHost("own-ipv6-port", "[::1]:8080", "[::1]:8080"),
		ownHost("own-ipv6", "::1", "::1"),
		ownHost("own-ipv6-not-a-port", "::1:8080", "::1:8080"),
		ownHost("own-upper-case-port", "RT.Example.com:8443", "rt.example.com:8443"),
		ownHost("own-nonprod-port", "nonprod:8443", "nonprod:8443"),
		{id: "own-fallbacks-labels-and-ports", own: true, endpoint: "realtime", fallbackHosts: []string{"realtime-b", "realtime-c:8443", "[::1]:9000", "10.0.0.8"},
			primary: "realtime", fallbacks: []string{"realtime-b", "realtime-c:8443", "[::1]:9000", "10.0.0.8"}},
		{id: "own-fallbacks-empty", own: true, endpoint: "realtime", fallbackHosts: []string{}, primary: "realtime", fallbacks: []string{}},
		{id: "own-fallback-same-host-other-port", own: true, endpoint: "rt:8443", fallbackHosts: []string{"rt:8444", "rt"}, primary: "rt:8443", fallbacks: []string{"rt:8444", "rt"}},
		{id: "own-fallback-is-primary-with-port", own: true, endpoint: "rt:8443", fallbackHosts: []string{"RT:8443"}, primary: "rt:8443", fallbacks: []string{"rt:8443"}},
		{id: "invalid-own-fallback-duplicate-port", own: true, endpoint: "rt", fallbackHosts: []string{"fb:8443", "FB:8443"}, errField: "EndpointOptions.FallbackHosts[1]"},
		{id: "invalid-own-fallback-bad-port", own: true, endpoint: "rt", fallbackHosts: []string{"fb:8443", "fb:0"}, errField: "EndpointOptions.FallbackHosts[1]"},
		{id: "invalid-own-endpoint-before-fallbacks", own: true, endpoint: "rt:0", fallbackHosts: []string{"fb:0"}, errField: fieldEndpoint},
		ownBad("invalid-own-empty", "", fieldEndpoint),
		{id: "invalid-own-empty-with-fallbacks", own: true, endpointSet: true, fallbackHosts: []string{"fb.example.com"}, errField: fieldEndpoint},
		ownBad("invalid-own-nonprod", "nonprod:acme", fieldEndpoint),
		ownBad("invalid-own-nonprod-empty", "nonprod:", fieldEndpoint),
		ownBad("invalid-own-url", "wss://rt.example.com:8443/", fieldEndpoint),
		ownBad("invalid-own-scheme", "wss:rt.example.com", fieldEndpoint),
		ownBad("invalid-own-path", "rt.example.com:8443/realtime", fieldEndpoint),
		ownBad("invalid-own-ipv6-brackets-no-port", "[::1]", fieldEndpoint),
		ownBad("invalid-own-ipv6-zone", "fe80::1%eth0", fieldEndpoint),
		ownBad("invalid-own-two-ports", "rt.example.com:80:80", fieldEndpoint),
		ownBad("invalid-own-port-only", ":8443", fieldEndpoint),
		{id: "invalid-own-environment", own: true, endpoint: "realtime", environment: "acme", errField: fieldEnvironment},
		{id: "invalid-own-environment-alone", own: true, environment: "acme", errField: fieldEnvironment},
		{id: "invalid-own-rest-host", own: true, endpoint: "realtime", restHost: "rest.example.com", errField: fieldRestHost},
		{id: "invalid-own-realtime-host", own: true, endpoint: "realtime", realtimeHost: "rt.example.com", errField: fieldRealtimeHost},
		{id: "invalid-own-use-default", own: true, endpoint: "realtime", useDefault: true, errField: "EndpointOptions.FallbackHostsUseDefault"},
		{id: "invalid-own-environment-before-rest-host", own: true, environment: "acme", restHost: "rest.example.com", errField: fieldEnvironment},
		// Ably's preset, unchanged: a port is never part of a host, and a
		// single label is a routing policy id.
		badEndpoint("ably-refuses-port", "rt.example.com:8443"),
		badEndpoint("ably-refuses-ipv6-port", "[::1]:8080"),
		badEndpoint("ably-refuses-localhost-port", "localhost:8080"),
		{id: "ably-refuses-fallback-port", endpoint: "rt.example.com", fallbackHosts: []string{"fb.example.com:8443"}, errField: fb0},
		policy("ably-single-label-is-policy", "realtime", "realtime"),
		{id: "ably-nonprod-digits-is-policy", endpoint: "nonprod:8443", primary: "8443.realtime.ably-nonprod.net", fallbacks: fiveFallbacks("8443", ".fallback.ably-realtime-nonprod.com")},
	}
	n := 0
	for _, h := range ownPortHosts {
		for _, p := range ownPorts {
			n++
			form := h.form + ":" + p.form
			ok := h.ok && p.ok
			comment := fmt.Sprintf("%q: the host %q (%s), the port %q (%s)", form, h.form, okWord(h.ok), p.form, okWord(p.ok))
			c := ownBad(fmt.Sprintf("invalid-own-gen-port-%d", n), form, fieldEndpoint)
			f := endpointCase{id: fmt.Sprintf("invalid-own-gen-fallback-port-%d", n), own: true, endpoint: "rt.example.com", fallbackHosts: []string{form}, errField: fb0}
			if ok {
				c = ownHost(fmt.Sprintf("own-gen-port-%d", n), form, lowerASCII(form))
				f = endpointCase{id: fmt.Sprintf("own-gen-fallback-port-%d", n), own: true, endpoint: "rt.example.com", fallbackHosts: []string{form},
					primary: "rt.example.com", fallbacks: []string{lowerASCII(form)}}
			}
			c.comment, f.comment = comment, comment
			out = append(out, c, f)
			if ok { // what the own hosts accept, Ably's preset refuses
				a := badEndpoint(fmt.Sprintf("invalid-ably-gen-port-%d", n), form)
				a.comment = comment + "; Ably's preset takes no port"
				out = append(out, a)
			}
		}
	}
	for i, l := range ownLabels {
		c := ownBad(fmt.Sprintf("invalid-own-gen-label-%d", i+1), l, fieldEndpoint)
		if hostNameRule(l) {
			c = ownHost(fmt.Sprintf("own-gen-label-%d", i+1), l, lowerASCII(l))
		}
		c.comment = fmt.Sprintf("%q: one label", l)
		a := badEndpoint(fmt.Sprintf("invalid-ably-gen-label-%d", i+1), l)
		switch low := lowerASCII(l); {
		case low == "localhost":
			a = explicitHost(fmt.Sprintf("ably-gen-label-%d", i+1), l, low)
		case policyIDRule(l):
			a = policy(fmt.Sprintf("ably-gen-label-%d", i+1), l, low)
		case strings.Contains(l, "."):
			a.comment = "a host name with an empty label"
		}
		if a.comment == "" {
			a.comment = fmt.Sprintf("%q: one label, a routing policy id under Ably's preset", l)
		}
		out = append(out, c, a)
	}
	return out
}

func okWord(ok bool) string {
	if ok {
		return "valid"
	}
	return "invalid"
}
