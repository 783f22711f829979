package reconnect

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
)

// Boundary generators for hosts.json. Each is driven by a rule written as
// data below (an alphabet, a bound, a table of written forms with the
// answer the grammar gives them); the expectations come from those rules,
// never from ResolveHosts, ShouldFallback, ConnectivityUp, AppendHostOrder
// or PreferredHost.

// ---- Host names -----------------------------------------------------------

// ipv4Octets are written forms of one IPv4 octet and whether the grammar
// admits them: a decimal 0–255 without a leading zero. Every form is all
// digits (or empty), so a name made of them ends in an all-digit label and
// must be an IPv4 address.
var ipv4Octets = []struct {
	form string
	ok   bool
}{
	{"0", true}, {"9", true}, {"10", true}, {"99", true}, {"100", true}, {"199", true},
	{"200", true}, {"249", true}, {"250", true}, {"255", true},
	{"256", false}, {"260", false}, {"300", false}, {"999", false}, {"1000", false},
	{"00", false}, {"01", false}, {"007", false}, {"010", false}, {"0255", false}, {"", false},
}

// ipv6Groups are eight distinct groups, one to four hex digits, both cases.
var ipv6Groups = []string{"2001", "DB8", "0", "a", "ffff", "00aB", "1", "fe80"}

// ipv6Form is one written IPv6 form and whether the grammar admits it.
type ipv6Form struct {
	form string
	ok   bool
	why  string
}

// ipv6Forms writes every compression of the eight groups (a "::" standing
// for one to eight groups is admitted, for none it is not), the same with
// the last two groups written as an IPv4 address, and the malformed forms
// the decisions name.
func ipv6Forms() []ipv6Form {
	var out []ipv6Form
	join := func(g []string) string { return strings.Join(g, ":") }
	compress := func(g []string, i, j int) string { return join(g[:i]) + "::" + join(g[j:]) }
	for _, v4 := range []bool{false, true} {
		g := ipv6Groups
		n := 8
		tail := ""
		if v4 {
			n = 6
			g = ipv6Groups[:6]
			tail = "10.0.0.7"
		}
		with := func(s string) string {
			if !v4 {
				return s
			}
			if strings.HasSuffix(s, "::") {
				return s + tail
			}
			return s + ":" + tail
		}
		out = append(out, ipv6Form{with(join(g)), true, "all groups"})
		for i := 0; i <= n; i++ {
			for j := i + 1; j <= n; j++ {
				out = append(out, ipv6Form{with(compress(g, i, j)), true, fmt.Sprintf(`"::" for groups %d to %d`, i, j-1)})
			}
			// "::" for no group at all.
			out = append(out, ipv6Form{with(compress(g, i, i)), false, fmt.Sprintf(`"::" for no group, at %d`, i)})
		}
		out = append(out,
			ipv6Form{with(join(g[:n-1])), false, "one group short"},
			ipv6Form{with(join(append([]string{"1"}, g...))), false, "one group too many"},
		)
	}
	return append(out, []ipv6Form{
		{"::", true, "all zero"}, {"::1", true, "loopback"}, {"1::", true, "trailing ::"},
		{"::ffff:10.0.0.7", true, "IPv4-mapped"}, {"64:ff9b::192.0.2.33", true, "NAT64"}, {"::10.0.0.7", true, "IPv4-compatible"},
		{"0000:0000:0000:0000:0000:0000:0000:0001", true, "four-digit groups"},
		{"FE80::1", true, "upper case"}, {"2001:DB8::A:B", true, "upper case"},
		{"12345::1", false, "five hex digits"}, {"::fffff", false, "five hex digits"}, {"00000::", false, "five hex digits"},
		{":1::2", false, "a leading single ':'"}, {"1::2:", false, "a trailing single ':'"}, {":::", false, "three colons"},
		{"1:::2", false, "three colons"}, {"1::2::3", false, `two "::"`}, {"::1::", false, `two "::"`},
		{"1:2:3:4:5:6:7:8:9", false, "nine groups"}, {"g::1", false, "not hex"}, {"::1x", false, "not hex"},
		{"[::1]", false, "brackets"}, {"[2001:db8::1]", false, "brackets"}, {"[::1]:8080", false, "brackets and port"},
		{"fe80::1%eth0", false, "zone"}, {"fe80::1%25eth0", false, "zone, URL-escaped"}, {"::1%1", false, "numeric zone"},
		{"::ffff:10.0.0.256", false, "bad IPv4 tail"}, {"::ffff:10.0.0.07", false, "IPv4 tail with a leading zero"},
		{"::ffff:10.0.7", false, "three-part IPv4 tail"}, {"10.0.0.7::1", false, "IPv4 not last"}, {"::ffff:10.0.0.7:1", false, "IPv4 not last"},
		{"1:2:3:4:5:6:7:10.0.0.7", false, "IPv4 tail after seven groups"}, {"1:2:3:4:5:10.0.0.7", false, "IPv4 tail after five groups"},
		{" ::1", false, "leading space"}, {"::1 ", false, "trailing space"}, {"::1\n", false, "trailing newline"},
	}...)
}

// hostNameRule decides a name that contains no ':' by the decisions'
// grammar, spelled out byte by byte: at most 253 bytes; labels of 1–63
// bytes from the alphabet below, not starting or ending with '-'; a name
// whose last label is all digits must be four decimal octets 0–255
// without leading zeros.
const hostNameAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

func hostNameRule(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if len(l) < 1 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if !strings.Contains(hostNameAlphabet, l[i:i+1]) {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	if strings.Trim(last, "0123456789") != "" {
		return true
	}
	if len(labels) != 4 {
		return false
	}
	for _, l := range labels {
		n, err := strconv.Atoi(l)
		if err != nil || strings.Trim(l, "0123456789") != "" || n > 255 || len(l) > 1 && l[0] == '0' {
			return false
		}
	}
	return true
}

// lowerASCII lowers the ASCII letters A–Z only.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// hostFormCases turns written forms into an endpoint case (when REC1b2
// makes the endpoint a host name: it holds '.' or ':') and a fallback-host
// case each.
func hostFormCases(prefix string, i int, form string, ok bool, why string) []endpointCase {
	id := fmt.Sprintf("%s-%d", prefix, i)
	comment := fmt.Sprintf("%q: %s", form, why)
	var out []endpointCase
	if strings.ContainsAny(lowerASCII(form), ".:") && !strings.HasPrefix(lowerASCII(form), "nonprod:") {
		c := badEndpoint("invalid-"+id, form)
		if ok {
			c = explicitHost(id, form, lowerASCII(form))
		}
		c.comment = comment
		out = append(out, c)
	}
	c := badFallback("invalid-fallback-"+id, form)
	if ok {
		c = goodFallback("fallback-"+id, form, lowerASCII(form))
	}
	c.comment = comment
	return append(out, c)
}

func ipv4FormCases() []endpointCase {
	var out []endpointCase
	n := 0
	for _, o := range ipv4Octets {
		for pos := range 4 {
			parts := []string{"192", "0", "2", "1"}
			parts[pos] = o.form
			form := strings.Join(parts, ".")
			if hostNameRule(form) != o.ok {
				panic("the IPv4 octet table and the name rule disagree on " + form)
			}
			n++
			out = append(out, hostFormCases("gen-ipv4", n, form, o.ok, fmt.Sprintf("octet %d written %q", pos+1, o.form))...)
		}
	}
	for _, f := range []string{"192.0.2", "192.0", "192.0.2.1.5", "192.0.2.1.", ".192.0.2.1", "192..2.1", "0x7f.0.0.1", "example.123", "a.0", "rt.example.255", "1.2.3.4.example", "192.0.2.1a", "123.example"} {
		n++
		out = append(out, hostFormCases("gen-ipv4", n, f, hostNameRule(f), "dotted form")...)
	}
	return out
}

func ipv6FormCases() []endpointCase {
	var out []endpointCase
	for i, f := range ipv6Forms() {
		out = append(out, hostFormCases("gen-ipv6", i+1, f.form, f.ok, f.why)...)
	}
	return out
}

// labelLengthCases put a label of 1, 62, 63 and 64 bytes first, in the
// middle and last, and names of 252–255 bytes.
func labelLengthCases() []endpointCase {
	var out []endpointCase
	n := 0
	for _, l := range []int{1, 62, 63, 64} {
		label := strings.Repeat("x", l)
		for _, form := range []string{label + ".example.com", "rt." + label + ".com", "rt.example." + label} {
			n++
			out = append(out, hostFormCases("gen-label", n, form, hostNameRule(form), fmt.Sprintf("a %d-byte label", l))...)
		}
	}
	for _, total := range []int{252, 253, 254, 255} {
		// Labels of 63 bytes and a last one making up the total.
		var labels []string
		left := total
		for left > 64 {
			labels = append(labels, strings.Repeat("y", 63))
			left -= 64
		}
		labels = append(labels, strings.Repeat("z", left))
		form := strings.Join(labels, ".")
		n++
		out = append(out, hostFormCases("gen-name", n, form, hostNameRule(form), fmt.Sprintf("a %d-byte name", len(form)))...)
	}
	for _, form := range []string{"-.example.com", "a-.example.com", "-a.example.com", "a-b.example.com", "a--b.example.com", "xn--a.example.com",
		"_.example.com", "_a.example.com", "a_.example.com", "a.b-", "a.-b", "a.b_", "a.b.c.d.e.f.g.h", "A.B", "a.B-C"} {
		n++
		out = append(out, hostFormCases("gen-hyphen", n, form, hostNameRule(form), "hyphens and underscores")...)
	}
	return out
}

// optionForms are the five ways an option names a host or a routing policy,
// with the hosts a valid value gives.
var optionForms = []struct {
	name, value string
	make        func(v string) endpointCase
	primary     string
	fallbacks   []string
}{
	{"endpoint-host", "rt.example.com", func(v string) endpointCase { return endpointCase{endpoint: v} }, "rt.example.com", []string{}},
	{"endpoint-policy", "acme", func(v string) endpointCase { return endpointCase{endpoint: v} }, "acme.realtime.ably.net", fiveFallbacks("acme", ".fallback.ably-realtime.com")},
	{"endpoint-nonprod", "nonprod:acme", func(v string) endpointCase { return endpointCase{endpoint: v} }, "acme.realtime.ably-nonprod.net", fiveFallbacks("acme", ".fallback.ably-realtime-nonprod.com")},
	{"environment", "acme", func(v string) endpointCase { return endpointCase{environment: v} }, "acme.realtime.ably.net", fiveFallbacks("acme", ".fallback.ably-realtime.com")},
	{"fallback-host", "fb.example.com", func(v string) endpointCase { return endpointCase{fallbackHosts: []string{v}} }, "main.realtime.ably.net", []string{"fb.example.com"}},
	{"rest-host", "rest.example.com", func(v string) endpointCase { return endpointCase{restHost: v} }, "rest.example.com", []string{}},
	{"realtime-host", "rt.example.com", func(v string) endpointCase { return endpointCase{realtimeHost: v} }, "rt.example.com", []string{}},
}

// optionField is the error field of an option form.
func optionField(name string) string {
	switch name {
	case "environment":
		return fieldEnvironment
	case "fallback-host":
		return "EndpointOptions.FallbackHosts[0]"
	case "rest-host":
		return fieldRestHost
	case "realtime-host":
		return fieldRealtimeHost
	}
	return fieldEndpoint
}

// spaces are the white-space characters tried around every option: none
// is trimmed, so each makes the option invalid.
var spaces = []struct{ name, s string }{
	{"space", " "}, {"tab", "\t"}, {"lf", "\n"}, {"cr", "\r"}, {"vt", "\v"}, {"ff", "\f"}, {"crlf", "\r\n"},
	{"nbsp", "\u00a0"}, {"nel", "\u0085"}, {"ogham-space", "\u1680"}, {"en-quad", "\u2000"}, {"line-separator", "\u2028"},
	{"narrow-nbsp", "\u202f"}, {"ideographic-space", "\u3000"}, {"bom", "\ufeff"}, {"zero-width-space", "\u200b"},
}

// optionSpaceCases put every white space before, after and around every
// option: rejected, naming the option. A white-space-only option is
// rejected too, except the empty string, which is the option not given.
func optionSpaceCases() []endpointCase {
	var out []endpointCase
	for _, o := range optionForms {
		for _, sp := range spaces {
			for _, at := range []struct{ name, before, after string }{{"before", sp.s, ""}, {"after", "", sp.s}, {"around", sp.s, sp.s}} {
				c := o.make(at.before + o.value + at.after)
				c.id = fmt.Sprintf("invalid-%s-%s-%s", o.name, sp.name, at.name)
				c.errField = optionField(o.name)
				out = append(out, c)
			}
		}
		c := o.make(" ")
		c.id = fmt.Sprintf("invalid-%s-blank", o.name)
		c.errField = optionField(o.name)
		if o.name != "endpoint-host" && o.name != "endpoint-nonprod" {
			out = append(out, c)
		}
	}
	out = append(out,
		endpointCase{id: "empty-endpoint-is-absent", endpoint: "", endpointSet: true, primary: "main.realtime.ably.net", fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")},
		endpointCase{id: "empty-environment-is-absent", environment: "", environmentSet: true, primary: "main.realtime.ably.net", fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")},
		endpointCase{id: "empty-endpoint-and-environment-are-absent", endpointSet: true, environmentSet: true, primary: "main.realtime.ably.net", fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")},
		endpointCase{id: "empty-endpoint-with-environment", endpointSet: true, environment: "acme", primary: "acme.realtime.ably.net", fallbacks: fiveFallbacks("acme", ".fallback.ably-realtime.com")},
		endpointCase{id: "empty-environment-with-endpoint", endpoint: "acme", environmentSet: true, primary: "acme.realtime.ably.net", fallbacks: fiveFallbacks("acme", ".fallback.ably-realtime.com")},
	)
	return out
}

// upperAlphabet holds every ASCII upper-case letter.
const upperAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// optionCaseCases write every option in upper case and mixed case (each
// ASCII letter upper-cased once), which lowers to the same hosts; a
// non-ASCII letter whose Unicode lower case is ASCII (U+212A KELVIN SIGN)
// is rejected, as is the long s (U+017F, whose upper case is 'S').
func optionCaseCases() []endpointCase {
	var out []endpointCase
	for _, o := range optionForms {
		valueOf := func(id string) string {
			switch o.name {
			case "endpoint-host", "rest-host", "realtime-host":
				return id + ".example.com"
			case "endpoint-nonprod":
				return "nonprod:" + id
			case "fallback-host":
				return "fb." + id
			}
			return id
		}
		hostsOf := func(id string) (string, []string) {
			switch o.name {
			case "endpoint-host", "rest-host", "realtime-host":
				return id + ".example.com", []string{}
			case "endpoint-nonprod":
				return id + ".realtime.ably-nonprod.net", fiveFallbacks(id, ".fallback.ably-realtime-nonprod.com")
			case "fallback-host":
				return "main.realtime.ably.net", []string{"fb." + id}
			}
			return id + ".realtime.ably.net", fiveFallbacks(id, ".fallback.ably-realtime.com")
		}
		for i, id := range []string{upperAlphabet, "Acme", "aCME", "IO", "iI"} {
			c := o.make(valueOf(id))
			c.id = fmt.Sprintf("%s-case-%d", o.name, i+1)
			c.primary, c.fallbacks = hostsOf(lowerASCII(id))
			out = append(out, c)
		}
		for i, id := range []string{"\u212acme", "ac\u212ae", "\u017fcme", "\u0130o"} {
			c := o.make(valueOf(id))
			c.id = fmt.Sprintf("invalid-%s-unicode-case-%d", o.name, i+1)
			c.errField = optionField(o.name)
			out = append(out, c)
		}
	}
	for i, p := range []string{"NONPROD:", "NonProd:", "nonPROD:", "Nonprod:"} {
		out = append(out, endpointCase{id: fmt.Sprintf("nonprod-prefix-case-%d", i+1), endpoint: p + "Sandbox",
			primary: "sandbox.realtime.ably-nonprod.net", fallbacks: fiveFallbacks("sandbox", ".fallback.ably-realtime-nonprod.com")})
	}
	for i, p := range []string{"PRODUCTION", "pRODUCTION", "ProductioN"} {
		out = append(out, endpointCase{id: fmt.Sprintf("environment-production-case-%d", i+1), environment: p,
			primary: "main.realtime.ably.net", fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")})
	}
	out = append(out,
		endpointCase{id: "invalid-environment-production-kelvin", environment: "production\u212a", errField: fieldEnvironment},
		endpointCase{id: "invalid-fallback-duplicate-upper-case-first", fallbackHosts: []string{"FB.EXAMPLE.COM", "fb.example.com"}, errField: "EndpointOptions.FallbackHosts[1]"},
		endpointCase{id: "invalid-fallback-duplicate-mixed-case", fallbackHosts: []string{"a.example.com", "Fb.Example.Com", "fB.eXAMPLE.cOM"}, errField: "EndpointOptions.FallbackHosts[2]"},
		endpointCase{id: "fallback-is-derived-primary-in-other-case", endpoint: "acme", fallbackHosts: []string{"ACME.realtime.ably.net"}, primary: "acme.realtime.ably.net", fallbacks: []string{"acme.realtime.ably.net"}},
		endpointCase{id: "invalid-fallback-ipv6-duplicate-in-other-case", fallbackHosts: []string{"fe80::a", "FE80::A"}, errField: "EndpointOptions.FallbackHosts[1]"},
	)
	return out
}

// generatedHostCases are every generated resolveHosts case.
func generatedHostCases() []endpointCase {
	var out []endpointCase
	for _, g := range [][]endpointCase{ipv4FormCases(), ipv6FormCases(), labelLengthCases(), optionSpaceCases(), optionCaseCases()} {
		out = append(out, g...)
	}
	return out
}

// ---- Qualifying failures ------------------------------------------------------

// serverVariants are the Server header values crossed with every failure
// kind and status; cloudFront says whether the CloudFront rule reads it as
// CloudFront (trimmed of spaces and tabs, then ASCII case-insensitively
// equal to "CloudFront").
var serverVariants = []struct {
	name, server string
	cloudFront   bool
}{
	{"none", "", false}, {"cloudfront", "CloudFront", true}, {"cloudfront-lower", "cloudfront", true}, {"cloudfront-upper", "CLOUDFRONT", true},
	{"cloudfront-ows", " \tCloudFront\t ", true}, {"cloudfront-trailing-space", "CloudFront ", true}, {"cloudfront-leading-tab", "\tcloudfront", true},
	{"cloudfront-version", "CloudFront/1.0", false}, {"amazoncloudfront", "AmazonCloudFront", false}, {"nginx", "nginx", false},
	{"cloudfront-nbsp", "\u00a0CloudFront", false}, {"cloudfront-crlf", "CloudFront\r\n", false}, {"cloudfront-lf", "CloudFront\n", false},
}

// qualifyingByRule is the qualifying-failure rule read from the tables
// above: the kind's own rule, or CloudFront for an http-status ≥ 400.
func qualifyingByRule(kind string, status int, cloudFront bool) bool {
	q := qualifying[kind]
	return q.always || (q.lo <= status && status <= q.hi) || (q.cloudFront && cloudFront && status >= 400)
}

// qualifyingItems cross every failure kind with statuses (for
// http-status and disconnected every status 100–599, or 300–599 for the
// Server header variants other than none and CloudFront; the bounds for
// the other kinds) and the Server header variants, in ranges of equal
// answer.
func qualifyingItems() []hostsItem {
	var out []hostsItem
	for _, kind := range []string{"http-status", "disconnected", "dns", "unreachable", "refused", "timeout", "token", "other", "none"} {
		for _, sv := range serverVariants {
			if kind == "disconnected" && !slices.Contains([]string{"none", "cloudfront", "cloudfront-ows", "nginx"}, sv.name) {
				continue
			}
			item := func(id string, status *int, rng []int, want bool) hostsItem {
				return hostsItem{ID: id, Spec: "RSC15l/RTN17f1", Function: "shouldFallback", FailureKind: kind, Status: status, StatusRange: rng,
					Server: sv.server, ExpectedFallback: ptr(want)}
			}
			out = append(out, item(fmt.Sprintf("fallback-x-%s-server-%s-status-0", kind, sv.name), ptr(0), nil, qualifyingByRule(kind, 0, sv.cloudFront)))
			if kind != "http-status" && kind != "disconnected" {
				for _, s := range []int{100, 399, 400, 403, 499, 500, 503, 504, 505, 599} {
					out = append(out, item(fmt.Sprintf("fallback-x-%s-server-%s-status-%d", kind, sv.name, s), ptr(s), nil, qualifyingByRule(kind, s, sv.cloudFront)))
				}
				continue
			}
			// Every status 100–599 with no Server header and with
			// CloudFront; from 300 (a hundred below the rule's 400) for
			// the other variants.
			first := 100
			if sv.name != "none" && sv.name != "cloudfront" {
				first = 300
			}
			lo := first
			for s := first; s <= 600; s++ {
				if s == 600 || qualifyingByRule(kind, s, sv.cloudFront) != qualifyingByRule(kind, lo, sv.cloudFront) {
					out = append(out, item(fmt.Sprintf("fallback-x-%s-server-%s-%d-%d", kind, sv.name, lo, s-1), nil, []int{lo, s - 1}, qualifyingByRule(kind, lo, sv.cloudFront)))
					lo = s
				}
			}
		}
	}
	return out
}

// ---- Connectivity ------------------------------------------------------------

// connectivitySpace is the white space trimmed around the connectivity answer.
const connectivitySpace = " \t\n\v\f\r"

// connectivityStatuses are the bounds of 2xx and their neighbours.
var connectivityStatuses = []int{100, 101, 199, 200, 201, 202, 204, 206, 207, 226, 250, 298, 299, 300, 301, 302, 304, 399, 400, 404, 500, 503, 599}

// connectivityBodies are bodies written around "yes"; connectivityRule
// decides them.
func connectivityBodies() []struct{ name, body string } {
	out := []struct{ name, body string }{{"yes", "yes"}, {"yes-lf", "yes\n"}, {"yes-spaces", " yes "}, {"yes-tab-crlf", "\tyes\r\n"}, {"no", "no"}}
	for c := 0; c < 0x80; c++ {
		if c >= 0x21 && c != 0x7f {
			continue
		}
		s := string(rune(c))
		out = append(out,
			struct{ name, body string }{fmt.Sprintf("c%02x-before", c), s + "yes"},
			struct{ name, body string }{fmt.Sprintf("c%02x-after", c), "yes" + s},
			struct{ name, body string }{fmt.Sprintf("c%02x-around", c), s + s + "yes" + s + s})
	}
	for _, sp := range spaces {
		out = append(out,
			struct{ name, body string }{sp.name + "-before", sp.s + "yes"},
			struct{ name, body string }{sp.name + "-after", "yes" + sp.s},
			struct{ name, body string }{sp.name + "-around", sp.s + "yes" + sp.s})
	}
	for i, y := range []string{"YES", "Yes", "yEs", "yeS", "YEs", "yES", "YeS"} {
		out = append(out, struct{ name, body string }{fmt.Sprintf("case-%d", i+1), y})
	}
	for i, b := range []string{"yes\nno", "yes\r\nno", "yes\n\n", "yes\nyes", "no\nyes", "yes yes", "yesyes", "ye s", "yes.", "\"yes\"", "y", "ye", "yess", "\ufeffyes\n", "\ufeff yes", "yes\x00\n"} {
		out = append(out, struct{ name, body string }{fmt.Sprintf("text-%d", i+1), b})
	}
	return out
}

// connectivityRule: a 2xx status and a body that, with ASCII white space
// trimmed from both ends, is exactly "yes".
func connectivityRule(status int, body string) bool {
	return 200 <= status && status <= 299 && strings.Trim(body, connectivitySpace) == "yes"
}

func connectivityItems() []hostsItem {
	var out []hostsItem
	add := func(id string, status int, body string) {
		out = append(out, hostsItem{ID: id, Spec: "RTN17j", Function: "connectivityUp", Status: ptr(status), Body: body, ExpectedUp: ptr(connectivityRule(status, body))})
	}
	bodies := connectivityBodies()
	for _, s := range connectivityStatuses {
		for _, b := range bodies[:5] {
			add(fmt.Sprintf("connectivity-x-status-%d-%s", s, b.name), s, b.body)
		}
	}
	for _, b := range bodies[5:] {
		add("connectivity-x-body-"+b.name, 200, b.body)
		add("connectivity-x-body-"+b.name+"-status-299", 299, b.body)
	}
	return out
}

// ---- Host order ------------------------------------------------------------------

// drawNumbers writes draws as JSON numbers, or the strings "NaN",
// "Infinity" and "-Infinity".
func drawNumbers(draws []float64) []json.RawMessage {
	var out []json.RawMessage
	for _, d := range draws {
		out = append(out, floatNumber(d))
	}
	return out
}

// orderItems: draws at and just below every boundary j/r of ⌊u·r⌋ at
// every pick, draws outside [0, 1), missing draws (0), and every
// maxFallbacks from −5 to past the list's length.
func orderItems(five []string) []hostsItem {
	var out []hostsItem
	add := func(id string, max int, draws []float64) {
		out = append(out, hostsItem{ID: id, Spec: "RSC15a/RTN17", Function: "hostOrder",
			Primary: "main.realtime.ably.net", Fallbacks: five, MaxFallbacks: ptr(max), Draws: drawNumbers(draws),
			ExpectedOrder: oracleOrder("main.realtime.ably.net", five, max, draws)})
	}
	for pick := range 5 {
		r := 5 - pick
		for j := 1; j < r; j++ {
			at := float64(j) / float64(r)
			for _, u := range []struct {
				name string
				u    float64
			}{{"at", at}, {"below", math.Nextafter(at, 0)}} {
				// Only draws whose product u·r floors the same in exact
				// and in double arithmetic: the rule is ⌊u·r⌋ either way.
				exact := new(big.Rat).Mul(new(big.Rat).SetFloat64(u.u), big.NewRat(int64(r), 1))
				fl := new(big.Int).Quo(exact.Num(), exact.Denom())
				if fl.Int64() != int64(math.Floor(u.u*float64(r))) {
					continue
				}
				draws := []float64{0.999, 0.999, 0.999, 0.999, 0.999}
				draws[pick] = u.u
				add(fmt.Sprintf("order-x-pick%d-%s-%d-of-%d", pick+1, u.name, j, r), 5, draws)
			}
		}
	}
	for i, d := range [][]float64{
		{-1e9, -1, -0.5}, {-1e-300, 0.5, -2}, {1, 0, 1}, {1.5, 2, 1e9}, {math.Inf(1), math.Inf(-1), math.NaN()},
		{math.NaN(), math.NaN(), math.NaN()}, {0.999999999999, 1, 0.5}, {math.Nextafter(1, 0), math.Nextafter(1, 0), math.Nextafter(1, 0)},
	} {
		add(fmt.Sprintf("order-x-outside-%d", i+1), 3, d)
	}
	for i, d := range [][]float64{nil, {0.9}, {0.9, 0.9}, {0.5}} {
		add(fmt.Sprintf("order-x-missing-draws-%d", i+1), 3, d)
	}
	for _, max := range []int{-5, -1, 0, 1, 2, 3, 4, 5, 6, 9} {
		name := fmt.Sprint(max)
		if max < 0 {
			name = fmt.Sprintf("minus%d", -max)
		}
		add("order-x-max-"+name, max, []float64{0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7})
		add("order-x-max-"+name+"-short-draws", max, []float64{0.3})
	}
	return out
}

// ---- Preferred host ------------------------------------------------------------

// preferredItems: every failure kind × status on the preferred host
// (forgotten exactly when the failure qualifies) and on another host
// (kept); successes again on the same host (a new ttl from then); times
// past 2^31 ms; expiry inside a second; negative ttls.
func preferredItems(pr, fb string) []hostsItem {
	var out []hostsItem
	other := "main.a.fallback.ably-realtime.com"
	item := func(id string, steps ...cacheStep) {
		out = append(out, hostsItem{ID: id, Spec: "RSC15f", Function: "preferredHost", Primary: pr, Steps: steps})
	}
	firstAt := func(at int64, want string) cacheStep { return cacheStep{AtMs: at, Op: "first", Expected: want} }
	success := func(at int64, host string, ttl int64) cacheStep {
		return cacheStep{AtMs: at, Op: "fallbackSucceeded", Host: host, TTLMs: ptr(ttl)}
	}
	for _, kind := range []string{"dns", "unreachable", "refused", "timeout", "http-status", "disconnected", "token", "other", "none"} {
		for _, s := range []int{0, 400, 403, 404, 499, 500, 501, 503, 504, 505, 599} {
			want := fb
			if qualifyingByRule(kind, s, false) {
				want = pr
			}
			item(fmt.Sprintf("preferred-x-%s-%d-on-preferred", kind, s), success(0, fb, 600000),
				cacheStep{AtMs: 1000, Op: "failed", Host: fb, FailureKind: kind, Status: s}, firstAt(1000, want), firstAt(2000, want))
			if s == 503 || s == 0 {
				item(fmt.Sprintf("preferred-x-%s-%d-on-other", kind, s), success(0, fb, 600000),
					cacheStep{AtMs: 1000, Op: "failed", Host: other, FailureKind: kind, Status: s}, firstAt(1000, fb),
					cacheStep{AtMs: 1000, Op: "failed", Host: pr, FailureKind: kind, Status: s}, firstAt(2000, fb))
			}
		}
	}
	item("preferred-x-success-again-renews", success(0, fb, 1000), success(500, fb, 1000), firstAt(1200, fb), firstAt(1499, fb), firstAt(1500, pr))
	item("preferred-x-success-again-new-ttl", success(0, fb, 600000), success(1000, fb, 2000), firstAt(2999, fb), firstAt(3000, pr))
	item("preferred-x-success-again-longer", success(0, fb, 1000), success(999, fb, 600000), firstAt(1000, fb), firstAt(600998, fb), firstAt(600999, pr))
	const epoch = int64(1767225600000) // 2026-01-01, past 2^31 and 2^32 ms
	item("preferred-x-epoch-times", success(epoch, fb, 600000), firstAt(epoch, fb), firstAt(epoch+599999, fb), firstAt(epoch+600000, pr))
	item("preferred-x-epoch-times-short-ttl", success(epoch+123, fb, 1), firstAt(epoch+123, fb), firstAt(epoch+124, pr))
	item("preferred-x-expiry-inside-second", success(1500, fb, 1000), firstAt(2000, fb), firstAt(2400, fb), firstAt(2499, fb), firstAt(2500, pr))
	item("preferred-x-expiry-one-ms", success(0, fb, 1), firstAt(0, fb), firstAt(1, pr))
	item("preferred-x-expiry-before-second", success(2200, fb, 700), firstAt(2800, fb), firstAt(2899, fb), firstAt(2900, pr))
	for _, ttl := range []int64{-1, -1000, -600000} {
		item(fmt.Sprintf("preferred-x-negative-ttl-%d", -ttl), success(0, fb, 600000), success(1000, other, ttl), firstAt(1000, pr), firstAt(1001, pr), firstAt(1500, pr))
	}
	return out
}
