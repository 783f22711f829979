package reconnect

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Invalid UTF-8 cannot be written in the JSON fixtures; it is rejected
// like every other byte outside ASCII letters, digits, '-', '_' and '.',
// with and without Ably's rules.
func TestResolveHostsRejectsInvalidUTF8(t *testing.T) {
	for _, o := range []EndpointOptions{
		{Endpoint: "rt.example.com\xff"},
		{Endpoint: "\xc3.example.com"},
		{Endpoint: "acme\xff", Ably: true},
		{Environment: "acme\xff", Ably: true},
		{Endpoint: "acme\xff"},
		{FallbackHosts: []string{"fb\xfe.example.com"}, Ably: true},
		{Endpoint: "rt.example.com", FallbackHosts: []string{"fb\xfe.example.com"}},
	} {
		_, err := ResolveHosts(o)
		var fe *FieldError
		if !errors.As(err, &fe) || !strings.Contains(fe.Value, `\x`) {
			t.Errorf("%#v: err = %v, want a *FieldError quoting the bad byte", o, err)
		}
	}
}

// Every message names the option, quotes the value and says what is
// expected, in the words a user would use.
func TestResolveHostsMessages(t *testing.T) {
	const chars = `: a host name has only ASCII letters, digits, '-', '_' and '.' (an internationalised name as its A-label, "xn--…")`
	const policyID = `: is not a routing policy id, which is one label of 1 to 63 ASCII letters, digits, '-' and '_', not starting or ending with '-': `
	for _, c := range []struct {
		o    EndpointOptions
		want string
	}{
		// Without Ably: the options name the hosts, and nothing else.
		{EndpointOptions{}, `EndpointOptions.Endpoint = "": is required: give your service's primary host name, such as "rt.example.com" (Ably's hosts need EndpointOptions.Ably)`},
		{EndpointOptions{FallbackHosts: []string{"fb.example.com"}}, `EndpointOptions.Endpoint = "": is required`},
		{EndpointOptions{Endpoint: "8080"}, `EndpointOptions.Endpoint = "8080": ends in an all-digit label but is not an IPv4 address`},
		{EndpointOptions{Endpoint: "nonprod:sandbox"}, `EndpointOptions.Endpoint = "nonprod:sandbox": names an Ably routing policy, which needs EndpointOptions.Ably: otherwise give the host name only, such as "rt.example.com"`},
		{EndpointOptions{Environment: "acme"}, `EndpointOptions.Environment = "acme": is Ably's deprecated option and needs EndpointOptions.Ably: give your primary host name in Endpoint`},
		{EndpointOptions{Endpoint: "rt.example.com", Environment: "acme"}, `EndpointOptions.Environment = "acme": is Ably's deprecated option`},
		{EndpointOptions{RestHost: "rest.example.com"}, `EndpointOptions.RestHost = "rest.example.com": is Ably's deprecated option and needs EndpointOptions.Ably: give your primary host name in Endpoint`},
		{EndpointOptions{Endpoint: "rt.example.com", RealtimeHost: "rt.example.com"}, `EndpointOptions.RealtimeHost = "rt.example.com": is Ably's deprecated option and needs EndpointOptions.Ably`},
		{EndpointOptions{Endpoint: "rt.example.com", FallbackHostsUseDefault: true}, `EndpointOptions.FallbackHostsUseDefault = true: is Ably's deprecated option and needs EndpointOptions.Ably: list your fallback hosts in FallbackHosts`},
		// More than a host: a URL, a scheme, a port, a path, brackets, a zone.
		{EndpointOptions{Endpoint: "https://rt.example.com"}, `EndpointOptions.Endpoint = "https://rt.example.com": is a URL: give the host name only, "rt.example.com"`},
		{EndpointOptions{Endpoint: "wss://RT.example.com:8443/realtime?v=3"}, `is a URL: give the host and port only, "RT.example.com:8443"`},
		{EndpointOptions{Ably: true, Endpoint: "wss://RT.example.com:8443/realtime?v=3"}, `is a URL: give the host name only, "RT.example.com"`},
		{EndpointOptions{Endpoint: "https://user@rt.example.com/"}, `is a URL: give the host name only, "rt.example.com"`},
		{EndpointOptions{Endpoint: "https://[::1]:443/"}, `is a URL: give the host and port only, "[::1]:443"`},
		{EndpointOptions{Ably: true, Endpoint: "https://[::1]:443/"}, `is a URL: give the host name only, "::1"`},
		{EndpointOptions{Endpoint: "https://[::1]:0/"}, `is a URL: give the host name only, "::1"`},
		{EndpointOptions{Endpoint: "https://"}, `EndpointOptions.Endpoint = "https://": is a URL: give the host name only, or the host and a port ("rt.example.com:8443"), without a scheme or a path`},
		{EndpointOptions{Ably: true, Endpoint: "https://"}, `EndpointOptions.Endpoint = "https://": is a URL: give the host name only, without a scheme, a port or a path`},
		{EndpointOptions{Endpoint: "rt.example.com/path"}, `EndpointOptions.Endpoint = "rt.example.com/path": holds a path: give the host name only, "rt.example.com"`},
		{EndpointOptions{Ably: true, Endpoint: "example.com:8080"}, `EndpointOptions.Endpoint = "example.com:8080": holds a port: give the host name only, "example.com"`},
		{EndpointOptions{Ably: true, Endpoint: "[::1]:8080"}, `EndpointOptions.Endpoint = "[::1]:8080": holds brackets: give the host name only, "::1"`},
		// Without Ably, a host may carry a port, 1 to 65535.
		{EndpointOptions{Endpoint: "example.com:0"}, `EndpointOptions.Endpoint = "example.com:0": has the port "0": a port is a number from 1 to 65535, written without leading zeros`},
		{EndpointOptions{Endpoint: "example.com:08080"}, `has the port "08080": a port is a number from 1 to 65535, written without leading zeros`},
		{EndpointOptions{Endpoint: "example.com:65536"}, `has the port "65536"`},
		{EndpointOptions{Endpoint: "rt example.com:80"}, `EndpointOptions.Endpoint = "rt example.com:80": holds ' ' at byte 2` + chars},
		{EndpointOptions{Endpoint: "[10.0.0.7]:80"}, `EndpointOptions.Endpoint = "[10.0.0.7]:80": holds brackets around "10.0.0.7", which is not an IPv6 address: brackets go around an IPv6 address only, as in "[::1]:8080"`},
		{EndpointOptions{Endpoint: "rt.example.com:80:80"}, `holds ':' but is not an IPv6 address: give the host name only, or the host and a port ("rt.example.com:8443"), without a scheme or a path`},
		{EndpointOptions{Endpoint: "[::1]"}, `holds brackets: give the host name only, "::1"`},
		{EndpointOptions{Endpoint: "fe80::1%eth0"}, `EndpointOptions.Endpoint = "fe80::1%eth0": holds an IPv6 zone: give the host name only, "fe80::1"`},
		{EndpointOptions{Ably: true, Endpoint: "wss:rt.example.com"}, `EndpointOptions.Endpoint = "wss:rt.example.com": holds ':' but is not an IPv6 address: give the host name only, without a scheme, a port or a path`},
		{EndpointOptions{Endpoint: "1:2:3"}, `holds ':' but is not an IPv6 address: give the host name only`},
		// A ':' with no port after it, or no host before it, is no port.
		{EndpointOptions{Endpoint: "rt.example.com:"}, `EndpointOptions.Endpoint = "rt.example.com:": holds ':' but is not an IPv6 address: give the host name only, "rt.example.com"`},
		{EndpointOptions{Ably: true, Endpoint: ":443"}, `EndpointOptions.Endpoint = ":443": holds ':' but is not an IPv6 address: give the host name only, without a scheme, a port or a path`},
		{EndpointOptions{Ably: true, Endpoint: "rt.example.com", FallbackHosts: []string{"fb.example.com:443"}}, `EndpointOptions.FallbackHosts[0] = "fb.example.com:443": holds a port: give the host name only, "fb.example.com"`},
		{EndpointOptions{Endpoint: "rt.example.com", FallbackHosts: []string{"fb.example.com:0"}}, `EndpointOptions.FallbackHosts[0] = "fb.example.com:0": has the port "0"`},
		// Characters, with '.' among the allowed ones, and labels.
		{EndpointOptions{Endpoint: "rt.example .com"}, `EndpointOptions.Endpoint = "rt.example .com": holds ' ' at byte 10` + chars},
		{EndpointOptions{Endpoint: "rt.example.com\u00a0"}, `holds '\u00a0' at byte 14` + chars},
		{EndpointOptions{Endpoint: "rt.example.com\xff"}, `holds invalid UTF-8 "\xff" at byte 14` + chars},
		{EndpointOptions{Endpoint: "a..b"}, `EndpointOptions.Endpoint = "a..b": has two dots in a row: each label between dots is 1 to 63 bytes`},
		{EndpointOptions{Endpoint: ".example.com"}, `EndpointOptions.Endpoint = ".example.com": starts with '.': give the name without it`},
		{EndpointOptions{Endpoint: "example.com."}, `EndpointOptions.Endpoint = "example.com.": ends with '.': give the name without the final dot`},
		{EndpointOptions{Endpoint: "-acme-.example.com"}, `EndpointOptions.Endpoint = "-acme-.example.com": has the label "-acme-", which starts or ends with '-': a label starts and ends with a letter, a digit or '_'`},
		{EndpointOptions{Endpoint: strings.Repeat("a", 64) + ".com"}, `has a label of 64 bytes: each label between dots is at most 63 bytes`},
		{EndpointOptions{Endpoint: strings.Repeat("a.", 127)}, `is 254 bytes long: a host name is at most 253 bytes`},
		{EndpointOptions{Endpoint: "1.2.3.256"}, `EndpointOptions.Endpoint = "1.2.3.256": ends in an all-digit label but is not an IPv4 address: give four numbers from 0 to 255, such as "10.0.0.7", or a name whose last label is not all digits`},
		// Fallback hosts.
		{EndpointOptions{Endpoint: "rt.example.com", FallbackHosts: []string{""}}, `EndpointOptions.FallbackHosts[0] = "": is empty: give a host name, such as "rt.example.com"`},
		{EndpointOptions{Endpoint: "rt.example.com", FallbackHosts: []string{"a.example.com", "b.example.com", "A.example.com"}}, `EndpointOptions.FallbackHosts[2] = "A.example.com": repeats FallbackHosts[0] (compared in lower case): list each host once`},
		// With Ably: routing policy ids.
		{EndpointOptions{Ably: true, Endpoint: "acme", Environment: "acme"}, `EndpointOptions.Environment = "acme": cannot be combined with Endpoint (REC1b1): give one of them; Environment is deprecated, and Endpoint takes the same routing policy id`},
		// With Ably: the deprecated options that cannot be combined
		// (REC1b1, REC1c1, REC2a1), and their hosts.
		{EndpointOptions{Ably: true, Endpoint: "acme", RestHost: "rest.example.com"}, `EndpointOptions.RestHost = "rest.example.com": cannot be combined with Endpoint (REC1b1): give one of them; RestHost is deprecated, and Endpoint takes the same host name`},
		{EndpointOptions{Ably: true, Endpoint: "acme", RealtimeHost: "rt.example.com"}, `EndpointOptions.RealtimeHost = "rt.example.com": cannot be combined with Endpoint (REC1b1): give one of them; RealtimeHost is deprecated`},
		{EndpointOptions{Ably: true, Endpoint: "acme", FallbackHostsUseDefault: true}, `EndpointOptions.FallbackHostsUseDefault = true: cannot be combined with Endpoint (REC1b1): give one of them`},
		{EndpointOptions{Ably: true, Environment: "acme", RestHost: "rest.example.com"}, `EndpointOptions.RestHost = "rest.example.com": cannot be combined with Environment (REC1c1): give one of them; both are deprecated, and Endpoint replaces them`},
		{EndpointOptions{Ably: true, Environment: "acme", RealtimeHost: "rt.example.com"}, `EndpointOptions.RealtimeHost = "rt.example.com": cannot be combined with Environment (REC1c1)`},
		{EndpointOptions{Ably: true, FallbackHosts: []string{}, FallbackHostsUseDefault: true}, `EndpointOptions.FallbackHostsUseDefault = true: cannot be combined with FallbackHosts, even an empty one (REC2a1): give one of them; FallbackHostsUseDefault is deprecated, and FallbackHosts can list the default hosts`},
		{EndpointOptions{Ably: true, RestHost: "rest.example.com:8080"}, `EndpointOptions.RestHost = "rest.example.com:8080": holds a port: give the host name only, "rest.example.com"`},
		{EndpointOptions{Ably: true, RestHost: "rest.example.com", RealtimeHost: "rt example.com"}, `EndpointOptions.RealtimeHost = "rt example.com": holds ' ' at byte 2` + chars},
		{EndpointOptions{Ably: true, Endpoint: "ac me"}, `EndpointOptions.Endpoint = "ac me"` + policyID + `it holds ' ' at byte 2`},
		{EndpointOptions{Ably: true, Endpoint: "nonprod:a b"}, `EndpointOptions.Endpoint = "nonprod:a b"` + policyID + `it holds ' ' at byte 9`},
		{EndpointOptions{Ably: true, Endpoint: "nonprod:"}, `EndpointOptions.Endpoint = "nonprod:"` + policyID + `it is empty (give one, such as "nonprod:sandbox")`},
		{EndpointOptions{Ably: true, Endpoint: "-acme-"}, policyID + `it starts or ends with '-'`},
		{EndpointOptions{Ably: true, Environment: strings.Repeat("a", 64)}, `EndpointOptions.Environment = "` + strings.Repeat("a", 64) + `"` + policyID + `it is 64 bytes long`},
		{EndpointOptions{Ably: true, Endpoint: "https://rt.example.com"}, `is a URL: give the host name only, "rt.example.com"`},
		{EndpointOptions{Ably: true, Endpoint: "localhost:8080"}, `holds a port: give the host name only, "localhost"`},
		{EndpointOptions{Ably: true, Endpoint: "rt.example .com"}, `holds ' ' at byte 10` + chars},
	} {
		_, err := ResolveHosts(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%#v:\n got  %v\n want it to contain %s", c.o, err, c.want)
		}
	}
}

// Without Ably, every fixture case written for Ably's rules (REC1/REC2)
// whose endpoint is a host gives the same hosts or names the same option;
// every case that relies on Ably's rules (no endpoint, "nonprod:", an
// environment, a restHost, a realtimeHost, fallbackHostsUseDefault) is
// refused, naming Endpoint or the deprecated option; a routing policy id
// is one host, itself. No host of Ably's is ever returned. Cases with a
// port (refused by Ably's preset) are the own-hosts items' business.
func TestFixtureHostsWithoutAblyNameYourHostsOnly(t *testing.T) {
	var f hostsFile
	loadFixture(t, "hosts.json", &f)
	portForm := regexp.MustCompile(`^(\[[^\]]*\]|[^:\[\]]+):[0-9]+$`)
	n, words := 0, 0
	for _, it := range f.Items {
		if it.Function != "resolveHosts" || !it.ably() {
			continue
		}
		o := it.options(false)
		if portForm.MatchString(o.Endpoint) || slices.ContainsFunc(o.FallbackHosts, portForm.MatchString) {
			continue
		}
		h, err := ResolveHosts(o)
		lower := strings.ToLower(o.Endpoint)
		legacy := o.Environment != "" || o.RestHost != "" || o.RealtimeHost != "" || o.FallbackHostsUseDefault
		word := !strings.ContainsAny(lower, ".:/?#[]") && lower != "localhost"
		var fe *FieldError
		switch {
		case legacy || o.Endpoint == "" || strings.HasPrefix(lower, "nonprod:"):
			want := "EndpointOptions.Endpoint"
			switch { // Ably's deprecated options, in the order they are refused
			case o.Environment != "":
				want = "EndpointOptions.Environment"
			case o.RestHost != "":
				want = "EndpointOptions.RestHost"
			case o.RealtimeHost != "":
				want = "EndpointOptions.RealtimeHost"
			case o.FallbackHostsUseDefault:
				want = "EndpointOptions.FallbackHostsUseDefault"
			}
			if !errors.As(err, &fe) || fe.Field != want {
				t.Errorf("%s: %#v: err = %v, want a *FieldError naming %s", it.ID, o, err, want)
			}
		case word && (it.ExpectedErrorField == fieldEndpoint || allDigits(o.Endpoint)):
			// An invalid routing policy id is an invalid label; an
			// all-digit one is a valid id but no host name.
			if !errors.As(err, &fe) || fe.Field != fieldEndpoint {
				t.Errorf("%s: err = %v, want a *FieldError naming %s", it.ID, err, fieldEndpoint)
			}
		case word && it.ExpectedErrorField == "":
			words++
			want := []string{}
			if o.FallbackHosts != nil {
				want = *it.ExpectedFallbacks
			}
			if err != nil || h.Primary != asciiLower(o.Endpoint) || !slices.Equal(h.Fallbacks, want) {
				t.Errorf("%s: ResolveHosts = %+v, %v; want the word itself, %s, and fallbacks %v", it.ID, h, err, asciiLower(o.Endpoint), want)
			}
		case it.ExpectedErrorField != "":
			if !errors.As(err, &fe) || fe.Field != it.ExpectedErrorField {
				t.Errorf("%s: err = %v, want a *FieldError naming %s", it.ID, err, it.ExpectedErrorField)
			}
		default:
			n++
			if err != nil || h.Primary != it.ExpectedPrimary || !slices.Equal(h.Fallbacks, *it.ExpectedFallbacks) || h.Fallbacks == nil {
				t.Errorf("%s: ResolveHosts = %+v, %v; want %s %v", it.ID, h, err, it.ExpectedPrimary, *it.ExpectedFallbacks)
			}
		}
		for _, x := range append([]string{h.Primary}, h.Fallbacks...) {
			if strings.Contains(x, "ably") && !strings.Contains(lower, "ably") && !slices.ContainsFunc(o.FallbackHosts, func(s string) bool { return strings.Contains(strings.ToLower(s), "ably") }) {
				t.Errorf("%s: %#v resolves to Ably's host %s", it.ID, o, x)
			}
		}
	}
	if n < 50 || words < 20 {
		t.Errorf("only %d fixture cases resolved hosts without Ably, %d of them words", n, words)
	}
}

// The hint in "give the host name only, …" (or, without Ably, "give the
// host and port only, …") is a host ResolveHosts accepts as the primary.
func TestResolveHostsHintIsAValidHost(t *testing.T) {
	for _, ably := range []bool{true, false} {
		for _, in := range []string{"https://rt.example.com", "wss://RT.example.com:8443/x", "example.com:8080", "[::1]:80", "[fe80::1%25eth0]:80", "fe80::1%eth0", "rt.example.com/p", "http://10.0.0.7:80", "https://a@b.example.com", "rt.example.com:8443/p", "https://[::1]:443/"} {
			_, err := ResolveHosts(EndpointOptions{Endpoint: in, Ably: ably})
			if !ably && err == nil && (in == "example.com:8080" || in == "[::1]:80") {
				continue // a host and a port, without Ably's preset
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("%q (Ably %t): err = %v", in, ably, err)
			}
			_, hint, ok := strings.Cut(fe.Problem, "give the host name only, ")
			if !ok && !ably {
				_, hint, ok = strings.Cut(fe.Problem, "give the host and port only, ")
			}
			host, qerr := strconv.Unquote(hint)
			if !ok || qerr != nil {
				t.Errorf("%q (Ably %t): %v: no quoted host name to give", in, ably, err)
				continue
			}
			if h, err := ResolveHosts(EndpointOptions{Endpoint: host, Ably: ably}); err != nil || h.Primary != asciiLower(host) {
				t.Errorf("%q (Ably %t): the hint %q is not a host: %v", in, ably, host, err)
			}
		}
	}
}

// A fallback host may be the primary host under another name or the same
// one (REC2a2: "the set of fallback domains is given by the value of the
// fallbackHosts option"); it is kept in its place, lowered, and the host
// order tries it as a fallback like any other. A fallback host listed
// twice is still refused.
func TestResolveHostsAcceptsAFallbackEqualToThePrimary(t *testing.T) {
	for _, c := range []struct {
		o    EndpointOptions
		want Hosts
	}{
		{EndpointOptions{Endpoint: "localhost", FallbackHosts: []string{"localhost"}}, Hosts{Primary: "localhost", Fallbacks: []string{"localhost"}}},
		{EndpointOptions{Ably: true, Endpoint: "localhost", FallbackHosts: []string{"localhost"}}, Hosts{Primary: "localhost", Fallbacks: []string{"localhost"}}},
		{EndpointOptions{Endpoint: "rt.example.com", FallbackHosts: []string{"RT.example.com", "b.example.com"}}, Hosts{Primary: "rt.example.com", Fallbacks: []string{"rt.example.com", "b.example.com"}}},
		{EndpointOptions{Ably: true, Endpoint: "acme", FallbackHosts: []string{"ACME.realtime.ably.net"}}, Hosts{Primary: "acme.realtime.ably.net", Fallbacks: []string{"acme.realtime.ably.net"}}},
		{EndpointOptions{Ably: true, RestHost: "main.a.fallback.ably-realtime.com", FallbackHostsUseDefault: true}, Hosts{Primary: "main.a.fallback.ably-realtime.com", Fallbacks: fiveFallbacks("main", ".fallback.ably-realtime.com")}},
	} {
		h, err := ResolveHosts(c.o)
		if err != nil || h.Primary != c.want.Primary || !slices.Equal(h.Fallbacks, c.want.Fallbacks) {
			t.Errorf("%#v: ResolveHosts = %+v, %v; want %+v", c.o, h, err, c.want)
		}
		order := AppendHostOrder(nil, h, len(h.Fallbacks), &pinnedSource{})
		if len(order) != 1+len(h.Fallbacks) || order[0] != h.Primary || !slices.Contains(order[1:], h.Primary) {
			t.Errorf("%#v: order %v: want the primary first and again as a fallback", c.o, order)
		}
	}
	_, err := ResolveHosts(EndpointOptions{Endpoint: "localhost", FallbackHosts: []string{"localhost", "LOCALHOST"}})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "EndpointOptions.FallbackHosts[1]" {
		t.Errorf("a fallback host listed twice: err = %v, want a *FieldError naming EndpointOptions.FallbackHosts[1]", err)
	}
}
