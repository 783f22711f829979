package reconnect

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ResolveHosts derives the primary and fallback hosts from the endpoint
// options. Without Ably, the options name the hosts as the SDK names them,
// and nothing else:
//
//	Endpoint               FallbackHosts             primary               fallbacks
//	"rt.example.com"       nil or empty              rt.example.com        none
//	"rt.example.com"       ["rt-b.example.com"]      rt.example.com        rt-b.example.com
//	"realtime"             ["realtime-b"]            realtime              realtime-b
//	"rt.example.com:8443"  ["[::1]:8080"]            rt.example.com:8443   [::1]:8080
//	""                     anything                  an error: Endpoint is required
//	"nonprod:acme"         anything                  an error: a routing policy needs Ably
//
// There a host (Endpoint or a fallback host) may be one label (a
// docker-compose or Kubernetes service name) and may carry a port, 1 to
// 65535 without leading zeros, after ':' ("realtime:8080"), an IPv6
// address then in brackets ("[::1]:8080"; "::1:8080" is an IPv6
// address). The host is returned as given, port included, lowered: what
// the engine's open action and the runner's OpenRequest.Host carry.
//
// With Ably set, Ably's endpoint rules apply (REC1, REC2), the preset for
// Ably's service:
//
//	Endpoint              primary                          fallbacks
//	""                    main.realtime.ably.net           main.[a-e].fallback.ably-realtime.com
//	"acme"                acme.realtime.ably.net           acme.[a-e].fallback.ably-realtime.com
//	"nonprod:acme"        acme.realtime.ably-nonprod.net   acme.[a-e].fallback.ably-realtime-nonprod.com
//	"rt.example.com"      rt.example.com                   none
//	Environment "acme"    as Endpoint "acme"
//	RestHost "rest.x.io"  rest.x.io                        none (REC1d1, REC2c6)
//	RealtimeHost "rt.x.io", no RestHost: rt.x.io           none (REC1d2, REC2c6)
//	RestHost and RealtimeHost: the RestHost (REC1d1), for realtime too
//
// and a FallbackHosts that is not nil replaces the derived fallback hosts
// (REC2a2), as FallbackHostsUseDefault replaces them by the default five,
// main.[a-e].fallback.ably-realtime.com (REC2b). A fallback host may
// equal the primary host: REC2a2 says "the set of fallback domains is
// given by the value of the fallbackHosts option", and a second name for
// the same server (the UTS proxy tests give endpoint "localhost" with
// fallbackHosts ["localhost"]) is then tried as a fallback like any other.
//
// Host names are case-insensitive (RFC 4343): every host and routing
// policy id is returned in lower case, and hosts are compared after
// lowering.
//
// Invalid options return a *FieldError naming the option, quoting the
// value and saying what is expected:
//
//   - without Ably: an empty Endpoint, an Endpoint starting "nonprod:"
//     that is not a host and a port, or an Environment;
//   - without Ably: a port that is not 1 to 65535 written without
//     leading zeros ("rt.example.com:0", "rt.example.com:08443"),
//     brackets around anything but an IPv6 address ("[10.0.0.7]:80") or
//     without a port ("[::1]");
//   - with Ably, options that the spec says are invalid as a set, naming
//     the deprecated option: Endpoint with Environment, RestHost,
//     RealtimeHost or FallbackHostsUseDefault (REC1b1, checked in that
//     order); Environment with RestHost or RealtimeHost (REC1c1); a
//     non-nil FallbackHosts, even empty, with FallbackHostsUseDefault
//     (REC2a1);
//   - without Ably: RestHost, RealtimeHost or FallbackHostsUseDefault
//     (Ably's deprecated options);
//   - with Ably: a routing
//     policy id that is not a DNS label: empty, over 63 bytes, a byte
//     other than ASCII letters, digits, '-' and '_', or '-' first or last
//     ("-", "-acme-");
//   - a URL, a scheme, a path, brackets or an IPv6 zone around a host,
//     and with Ably a port ("https://rt.example.com", "[::1]",
//     "rt.example.com/path"; with Ably "example.com:8080",
//     "localhost:8080"): the message says to give the host name only (or,
//     without Ably, the host and port only), and names it when it can
//     ("rt.example.com", "rt.example.com:443");
//   - a host name (Endpoint, RestHost, RealtimeHost or a fallback host)
//     that is empty, over 253 bytes, has an empty label (".", "..",
//     "a..b", ".example.com", "example.com."), a label over 63 bytes or
//     starting or ending with '-', or any byte other than ASCII letters,
//     digits, '-', '_' and '.' — so every space (U+00A0, U+0085,
//     U+2028, U+3000 …), control, zero-width or bidi character, a BOM and
//     invalid UTF-8 are rejected;
//     internationalised names are given as A-labels ("xn--…");
//   - a name whose last label is all digits but that is not an IPv4
//     address ("1.2.3.256");
//   - a ':' anywhere except in an IPv6 address (without brackets or zone)
//     or, without Ably, before a port;
//   - a fallback host listed twice, in any case (a fallback host equal
//     to the primary host is accepted).
func ResolveHosts(o EndpointOptions) (Hosts, error) {
	resolve := ownHosts
	if o.Ably {
		resolve = ablyHosts
	}
	h, err := resolve(o)
	if err != nil {
		return Hosts{}, err
	}
	if o.FallbackHostsUseDefault { // REC2b; only Ably gets here, and REC2a1 ruled out FallbackHosts
		h.Fallbacks = policyHosts(defaultPolicy, prodPrimary, prodFallbacks).Fallbacks
	}
	if o.FallbackHosts == nil {
		return h, nil
	}
	h.Fallbacks = make([]string, 0, len(o.FallbackHosts))
	for i, fh := range o.FallbackHosts {
		field := "EndpointOptions.FallbackHosts[" + strconv.Itoa(i) + "]"
		host, err := checkHost(field, fh, !o.Ably)
		if err != nil {
			return Hosts{}, err
		}
		for j, prev := range h.Fallbacks {
			if host == prev {
				return Hosts{}, &FieldError{Field: field, Value: strconv.Quote(fh), Problem: "repeats FallbackHosts[" + strconv.Itoa(j) + "] (compared in lower case): list each host once"}
			}
		}
		h.Fallbacks = append(h.Fallbacks, host)
	}
	return h, nil
}

const (
	optEndpoint     = "EndpointOptions.Endpoint"
	optEnvironment  = "EndpointOptions.Environment"
	optRestHost     = "EndpointOptions.RestHost"
	optRealtimeHost = "EndpointOptions.RealtimeHost"
	optUseDefault   = "EndpointOptions.FallbackHostsUseDefault"
	// orAbly ends the messages that a preset would have avoided.
	orAbly = "(Ably's hosts need EndpointOptions.Ably)"
)

// ownHosts resolves options without Ably: Endpoint is the primary host.
func ownHosts(o EndpointOptions) (Hosts, error) {
	fail := func(field, value, problem string) (Hosts, error) {
		return Hosts{}, &FieldError{Field: field, Value: strconv.Quote(value), Problem: problem}
	}
	switch {
	case o.Environment != "":
		return fail(optEnvironment, o.Environment, "is Ably's deprecated option and needs EndpointOptions.Ably: give your primary host name in Endpoint")
	case o.RestHost != "":
		return fail(optRestHost, o.RestHost, "is Ably's deprecated option and needs EndpointOptions.Ably: give your primary host name in Endpoint")
	case o.RealtimeHost != "":
		return fail(optRealtimeHost, o.RealtimeHost, "is Ably's deprecated option and needs EndpointOptions.Ably: give your primary host name in Endpoint")
	case o.FallbackHostsUseDefault:
		return Hosts{}, &FieldError{Field: optUseDefault, Value: "true", Problem: "is Ably's deprecated option and needs EndpointOptions.Ably: list your fallback hosts in FallbackHosts"}
	case o.Endpoint == "":
		return fail(optEndpoint, o.Endpoint, `is required: give your service's primary host name, such as "rt.example.com" `+orAbly)
	case strings.HasPrefix(asciiLower(o.Endpoint), nonprodPrefix) && !hasPort(o.Endpoint):
		return fail(optEndpoint, o.Endpoint, `names an Ably routing policy, which needs EndpointOptions.Ably: otherwise give the host name only, such as "rt.example.com"`)
	}
	host, err := checkHost(optEndpoint, o.Endpoint, true)
	if err != nil {
		return Hosts{}, err
	}
	return Hosts{Primary: host, Fallbacks: []string{}}, nil
}

// ablyHosts resolves options with Ably set: REC1 and REC2.
func ablyHosts(o EndpointOptions) (Hosts, error) {
	if err := legacyConflict(o); err != nil {
		return Hosts{}, err
	}
	endpoint := asciiLower(o.Endpoint)
	switch {
	case o.RestHost != "" || o.RealtimeHost != "":
		return legacyHosts(o)
	case o.Environment != "":
		id := asciiLower(o.Environment)
		if id == "production" {
			id = defaultPolicy
		}
		if err := checkPolicyID(optEnvironment, o.Environment, id); err != nil {
			return Hosts{}, err
		}
		return policyHosts(id, prodPrimary, prodFallbacks), nil
	case o.Endpoint == "":
		return policyHosts(defaultPolicy, prodPrimary, prodFallbacks), nil
	case strings.HasPrefix(endpoint, nonprodPrefix):
		id := endpoint[len(nonprodPrefix):]
		if err := checkPolicyID(optEndpoint, o.Endpoint, id); err != nil {
			return Hosts{}, err
		}
		return policyHosts(id, nonprodPrimary, nonprodFallbacks), nil
	case isExplicitHost(endpoint) || strings.ContainsAny(endpoint, ":/?#[]"):
		host, err := checkHost(optEndpoint, o.Endpoint, false)
		if err != nil {
			return Hosts{}, err
		}
		return Hosts{Primary: host, Fallbacks: []string{}}, nil
	}
	if err := checkPolicyID(optEndpoint, o.Endpoint, endpoint); err != nil {
		return Hosts{}, err
	}
	return policyHosts(endpoint, prodPrimary, prodFallbacks), nil
}

func policyHosts(id, primarySuffix, fallbackSuffix string) Hosts {
	h := Hosts{Primary: id + primarySuffix, Fallbacks: make([]string, len(fallbackLetters))}
	for i, l := range fallbackLetters {
		h.Fallbacks[i] = id + "." + l + fallbackSuffix
	}
	return h
}

// isExplicitHost is REC1b2: an endpoint is a hostname if it contains "." or
// "::" or is "localhost" (endpoint in lower case).
func isExplicitHost(endpoint string) bool {
	return strings.Contains(endpoint, ".") || strings.Contains(endpoint, "::") || endpoint == "localhost"
}

// checkPolicyID accepts a routing policy id that is a DNS label. id is in
// lower case and ends value, the option as given (after "nonprod:", or
// all of it).
func checkPolicyID(field, value, id string) error {
	var problem string
	switch bad := badByte(id, "", len(value)-len(id)); {
	case bad != "":
		problem = "it holds " + bad
	case id == "":
		problem = `it is empty (give one, such as "nonprod:sandbox")`
	case len(id) > 63:
		problem = "it is " + strconv.Itoa(len(id)) + " bytes long"
	case id[0] == '-' || id[len(id)-1] == '-':
		problem = "it starts or ends with '-'"
	default:
		return nil
	}
	return &FieldError{Field: field, Value: strconv.Quote(value), Problem: "is not a routing policy id, which is one label of 1 to 63 ASCII letters, digits, '-' and '_', not starting or ending with '-': " + problem}
}

// badByte describes the first byte of s that is not an ASCII letter,
// digit, '-', '_' or one of also, with its position (plus offset), as in
// "' ' at byte 3", or returns "".
func badByte(s, also string, offset int) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || strings.IndexByte(also, c) >= 0 {
			continue
		}
		what := strconv.QuoteRune(rune(c))
		if r, size := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && size <= 1 {
			what = "invalid UTF-8 " + strconv.Quote(s[i:i+1])
		} else if c >= utf8.RuneSelf {
			what = strconv.QuoteRuneToASCII(r)
		}
		return what + " at byte " + strconv.Itoa(offset+i)
	}
	return ""
}

// checkHost validates a host name or IPv6 address, as ResolveHosts
// documents, and returns it in lower case. With ports (the options
// without Ably) the host may be followed by ":port", an IPv6 address in
// brackets ("[::1]:8080"), and the whole is returned, lowered.
func checkHost(field, host string, ports bool) (string, error) {
	fail := func(problem string) (string, error) {
		return "", &FieldError{Field: field, Value: strconv.Quote(host), Problem: problem}
	}
	if host == "" {
		return fail(`is empty: give a host name, such as "rt.example.com"`)
	}
	if name, port, bracketed, ok := cutPort(host); ports && ok {
		if !validPort(port) {
			return fail("has the port " + strconv.Quote(port) + ": a port is a number from 1 to 65535, written without leading zeros")
		}
		if bracketed {
			if i := strings.IndexByte(name, '%'); i >= 0 && isIPv6(name[:i]) {
				return fail("holds an IPv6 zone: give the host and port only, " + strconv.Quote("["+name[:i]+"]:"+port))
			}
			if !isIPv6(name) {
				return fail("holds brackets around " + strconv.Quote(name) + ", which is not an IPv6 address: brackets go around an IPv6 address only, as in \"[::1]:8080\"")
			}
			return asciiLower(host), nil
		}
		if _, err := checkHost(field, name, false); err != nil {
			fe := err.(*FieldError)
			fe.Value = strconv.Quote(host)
			return "", fe
		}
		return asciiLower(host), nil
	}
	if p := notHostOnly(host, ports); p != "" {
		return fail(p)
	}
	if len(host) > maxHostLen {
		return fail("is " + strconv.Itoa(len(host)) + " bytes long: a host name is at most 253 bytes")
	}
	if strings.Contains(host, ":") { // an IPv6 address: notHostOnly checked it
		return asciiLower(host), nil
	}
	if bad := badByte(host, ".", 0); bad != "" {
		return fail("holds " + bad + `: a host name has only ASCII letters, digits, '-', '_' and '.' (an internationalised name as its A-label, "xn--…")`)
	}
	switch {
	case host[0] == '.':
		return fail("starts with '.': give the name without it")
	case host[len(host)-1] == '.':
		return fail("ends with '.': give the name without the final dot")
	case strings.Contains(host, ".."):
		return fail("has two dots in a row: each label between dots is 1 to 63 bytes")
	}
	labels := strings.Split(host, ".")
	for _, l := range labels {
		switch {
		case len(l) > 63:
			return fail("has a label of " + strconv.Itoa(len(l)) + " bytes: each label between dots is at most 63 bytes")
		case l[0] == '-' || l[len(l)-1] == '-':
			return fail("has the label " + strconv.Quote(l) + ", which starts or ends with '-': a label starts and ends with a letter, a digit or '_'")
		}
	}
	if last := labels[len(labels)-1]; strings.Trim(last, "0123456789") == "" {
		if a, err := netip.ParseAddr(host); err != nil || !a.Is4() {
			return fail(`ends in an all-digit label but is not an IPv4 address: give four numbers from 0 to 255, such as "10.0.0.7", or a name whose last label is not all digits`)
		}
	}
	return asciiLower(host), nil
}

// cutPort splits "host:port" (one ':', a host before it, only digits
// after it) and "[address]:port" (brackets, then ':' and only digits),
// saying whether s has one of those forms; the port may still be out of
// range (validPort). Anything else, a ':' inside an IPv6 address
// included, has no port.
func cutPort(s string) (host, port string, bracketed, ok bool) {
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || end+2 >= len(s) || s[end+1] != ':' || !allDigits(s[end+2:]) {
			return "", "", false, false
		}
		return s[1:end], s[end+2:], true, true
	}
	i := strings.IndexByte(s, ':')
	if i <= 0 || i == len(s)-1 || strings.Count(s, ":") != 1 || !allDigits(s[i+1:]) || strings.ContainsAny(s, "/?#[]") {
		return "", "", false, false
	}
	return s[:i], s[i+1:], false, true
}

// hasPort reports whether s is a host and a port as cutPort reads them
// ("nonprod:8443" is the host "nonprod" and the port 8443).
func hasPort(s string) bool {
	_, _, _, ok := cutPort(s)
	return ok
}

// validPort reports whether port (all digits) is a port number from 1 to
// 65535 written without leading zeros, the one spelling of each port, so
// that two spellings of one endpoint never pass as two hosts.
func validPort(port string) bool {
	if port == "" || port[0] == '0' || len(port) > 5 {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n <= 65535
}

// notHostOnly says why host holds more than a host name — a scheme, a
// port (unless ports), a path, brackets, an IPv6 zone, or a ':' outside an
// IPv6 address — in a message that says to give the host name only (or
// the host and its port, with ports), naming it when it can, or returns
// "" for anything else.
func notHostOnly(host string, ports bool) string {
	if !strings.ContainsAny(host, ":/?#[]") || isIPv6(host) {
		return ""
	}
	var what string
	switch i := strings.LastIndexByte(host, ':'); {
	case strings.Contains(host, "://"):
		what = "is a URL"
	case strings.ContainsAny(host, "/?#"):
		what = "holds a path"
	case strings.ContainsAny(host, "[]"):
		what = "holds brackets"
	case strings.Contains(host, "%") && isIPv6(host[:strings.IndexByte(host, '%')]):
		what = "holds an IPv6 zone"
	case i > 0 && i < len(host)-1 && strings.Count(host, ":") == 1 && allDigits(host[i+1:]):
		what = "holds a port"
	default:
		what = "holds ':' but is not an IPv6 address"
	}
	switch hint := hostHint(host, ports); {
	case hint != "" && hint != hostHint(host, false):
		return what + ": give the host and port only, " + strconv.Quote(hint)
	case hint != "":
		return what + ": give the host name only, " + strconv.Quote(hint)
	case ports:
		return what + `: give the host name only, or the host and a port ("rt.example.com:8443"), without a scheme or a path`
	}
	return what + ": give the host name only, without a scheme, a port or a path"
}

// hostHint returns the host name inside a URL or an address with a port
// ("wss://RT.example.com:443/x" holds "RT.example.com", "[::1]:80" holds
// "::1"), when that is a valid host name, or "". With ports, the port
// stays ("RT.example.com:443", "[::1]:80") when there is one.
func hostHint(s string, ports bool) string {
	h := s
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
	}
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	port := ""
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return ""
		}
		if rest := h[end+1:]; strings.HasPrefix(rest, ":") && allDigits(rest[1:]) {
			port = rest
		}
		h = h[1:end]
	} else if i := strings.LastIndexByte(h, ':'); i >= 0 && strings.Count(h, ":") == 1 && allDigits(h[i+1:]) {
		h, port = h[:i], h[i:]
	}
	if i := strings.IndexByte(h, '%'); i >= 0 && isIPv6(h[:i]) {
		h = h[:i]
	}
	if h == s || h == "" { // nothing to take off: no hint (and no endless recursion)
		return ""
	}
	if _, err := checkHost("", h, false); err != nil {
		return ""
	}
	if ports && port != "" && validPort(port[1:]) {
		if strings.Contains(h, ":") {
			return "[" + h + "]" + port
		}
		return h + port
	}
	return h
}

// isIPv6 reports whether s is an IPv6 address without brackets or zone.
func isIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == "" && isASCIIHost(s)
}

// allDigits reports whether s holds only ASCII digits (true for "").
func allDigits(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

// asciiLower lowers ASCII letters only: Unicode case mapping would turn
// some non-ASCII characters into ASCII ones (U+212A KELVIN SIGN into 'k')
// before validation could reject them.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// isASCIIHost reports whether s holds only hex digits, ':' and '.', as an
// IPv6 address written without a zone does.
func isASCIIHost(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || c == ':' || c == '.') {
			return false
		}
	}
	return true
}
