package reconnect

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ResolveHosts derives the primary and fallback hosts from the endpoint
// options, per REC1 and REC2:
//
//	Endpoint              primary                          fallbacks
//	""                    main.realtime.ably.net           main.[a-e].fallback.ably-realtime.com
//	"acme"                acme.realtime.ably.net           acme.[a-e].fallback.ably-realtime.com
//	"nonprod:acme"        acme.realtime.ably-nonprod.net   acme.[a-e].fallback.ably-realtime-nonprod.com
//	"rt.example.com"      rt.example.com                   none
//	Environment "acme"    as Endpoint "acme"
//
// An explicit FallbackHosts replaces the derived fallback hosts. Host names
// are case-insensitive (RFC 4343): every host and routing policy id is
// returned in lower case, and hosts are compared after lowering.
//
// Invalid options return a *FieldError naming the option, the value and
// the problem:
//
//   - Endpoint and Environment both set (REC1b1);
//   - a routing policy id that is not a DNS label: empty, over 63 bytes,
//     a byte other than ASCII letters, digits, '-' and '_', or '-' first
//     or last ("-", "-acme-");
//   - a host name (an explicit Endpoint or a fallback host) that is empty,
//     over 253 bytes, has an empty label (".", "..", "a..b",
//     ".example.com", "example.com."), a label over 63 bytes or starting
//     or ending with '-', or any byte other than ASCII letters, digits,
//     '-', '_' and '.' — so every space (U+00A0, U+0085, U+2028, U+3000
//     …), control, zero-width or bidi character, a BOM and invalid UTF-8
//     are rejected; internationalised names are given as A-labels
//     ("xn--…");
//   - a name whose last label is all digits but that is not an IPv4
//     address ("1.2.3.256");
//   - a ':' anywhere except in an IPv6 address (without brackets or zone):
//     a port is not part of a host name, whatever the host
//     ("example.com:8080", "localhost:8080", "[::1]:8080" alike);
//   - a fallback host listed twice or equal to the primary host, in any
//     case.
func ResolveHosts(o EndpointOptions) (Hosts, error) {
	var h Hosts
	endpoint := asciiLower(o.Endpoint)
	switch {
	case o.Endpoint != "" && o.Environment != "":
		return Hosts{}, &FieldError{Field: "EndpointOptions.Environment", Value: strconv.Quote(o.Environment), Problem: "cannot be combined with Endpoint (REC1b1)"}
	case o.Environment != "":
		id := asciiLower(o.Environment)
		if id == "production" {
			id = defaultPolicy
		}
		if err := checkPolicyID("EndpointOptions.Environment", o.Environment, id); err != nil {
			return Hosts{}, err
		}
		h = policyHosts(id, prodPrimary, prodFallbacks)
	case o.Endpoint == "":
		h = policyHosts(defaultPolicy, prodPrimary, prodFallbacks)
	case strings.HasPrefix(endpoint, nonprodPrefix):
		id := endpoint[len(nonprodPrefix):]
		if err := checkPolicyID("EndpointOptions.Endpoint", o.Endpoint, id); err != nil {
			return Hosts{}, err
		}
		h = policyHosts(id, nonprodPrimary, nonprodFallbacks)
	case isExplicitHost(endpoint) || strings.Contains(endpoint, ":"):
		host, err := checkHost("EndpointOptions.Endpoint", o.Endpoint)
		if err != nil {
			return Hosts{}, err
		}
		h = Hosts{Primary: host, Fallbacks: []string{}}
	default:
		if err := checkPolicyID("EndpointOptions.Endpoint", o.Endpoint, endpoint); err != nil {
			return Hosts{}, err
		}
		h = policyHosts(endpoint, prodPrimary, prodFallbacks)
	}
	if o.FallbackHosts != nil {
		h.Fallbacks = make([]string, 0, len(o.FallbackHosts))
		for i, fh := range o.FallbackHosts {
			field := "EndpointOptions.FallbackHosts[" + strconv.Itoa(i) + "]"
			host, err := checkHost(field, fh)
			if err != nil {
				return Hosts{}, err
			}
			if host == h.Primary || containsString(h.Fallbacks, host) {
				return Hosts{}, &FieldError{Field: field, Value: strconv.Quote(fh), Problem: "is listed twice (or is the primary host), compared in lower case"}
			}
			h.Fallbacks = append(h.Fallbacks, host)
		}
	}
	return h, nil
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

// checkPolicyID accepts a routing policy id that is a DNS label (id is in
// lower case; value is the option as given, for the error).
func checkPolicyID(field, value, id string) error {
	if problem := labelProblem(id); problem != "" {
		return &FieldError{Field: field, Value: strconv.Quote(value), Problem: "is not a routing policy id: " + problem}
	}
	return nil
}

// labelProblem says why s is not a label of a host name, or "".
func labelProblem(s string) string {
	if p := badByte(s, ""); p != "" {
		return p
	}
	switch {
	case s == "":
		return "an empty label"
	case len(s) > 63:
		return "a label longer than 63 bytes"
	case s[0] == '-' || s[len(s)-1] == '-':
		return "a label that starts or ends with '-'"
	}
	return ""
}

// badByte describes the first byte of s that is not an ASCII letter,
// digit, '-', '_' or one of also, with its position, or returns "".
func badByte(s, also string) string {
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
		return "a character other than ASCII letters, digits, '-' and '_' (" + what + " at byte " + strconv.Itoa(i) + ")"
	}
	return ""
}

// checkHost validates a host name or IPv6 address, as ResolveHosts
// documents, and returns it in lower case.
func checkHost(field, host string) (string, error) {
	fail := func(problem string) (string, error) {
		return "", &FieldError{Field: field, Value: strconv.Quote(host), Problem: problem}
	}
	switch {
	case host == "":
		return fail("is an empty host name")
	case len(host) > maxHostLen:
		return fail("is longer than 253 bytes")
	case strings.Contains(host, ":"):
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() || a.Zone() != "" || !isASCIIHost(host) {
			return fail("holds ':' but is not an IPv6 address; a port is not part of a host name")
		}
		return asciiLower(host), nil
	}
	if p := badByte(host, "."); p != "" {
		return fail("is not a host name: " + p)
	}
	labels := strings.Split(host, ".")
	for _, l := range labels {
		if p := labelProblem(l); p != "" {
			return fail("is not a host name: " + p)
		}
	}
	if last := labels[len(labels)-1]; strings.Trim(last, "0123456789") == "" {
		if a, err := netip.ParseAddr(host); err != nil || !a.Is4() {
			return fail("ends in an all-digit label but is not an IPv4 address")
		}
	}
	return asciiLower(host), nil
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

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
