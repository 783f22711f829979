package reconnect

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// EndpointOptions are the client options that name the hosts a client talks
// to. The zero value names none: ResolveHosts (and engine.New) ask for an
// Endpoint, unless Ably is set.
type EndpointOptions struct {
	// Endpoint is the primary host: a host name ("rt.example.com", or one
	// label such as "realtime"), an IPv4 or IPv6 address or "localhost",
	// with no scheme or path. Required without Ably; there it may carry a
	// port ("rt.example.com:8443", "[::1]:8080"), and the Dialer
	// receives it as given, lowered (see ResolveHosts). With Ably it is
	// Ably's endpoint option (REC1): empty for the default routing
	// policy, a routing policy id such as "sandbox", "nonprod:" and a
	// routing policy id, or a host name as above without a port
	// (anything that contains "." or "::" or is "localhost").
	Endpoint string
	// FallbackHosts are the hosts tried after the primary, in random
	// order, after a qualifying failure (RTN17, RSC15); nil or empty
	// means none. Without Ably each is a host as Endpoint, a port
	// allowed. With Ably, nil means the fallback hosts derived from the
	// endpoint (REC2) and a non-nil slice, even an empty one, is used as
	// given; empty disables fallback (TO3k6).
	FallbackHosts []string
	// Ably applies Ably's endpoint rules (REC1, REC2): the preset for
	// Ably's service (engine.AblyConfig sets it): a word without a dot is
	// a routing policy id there, and a port is never part of a host.
	// Without it the options send no traffic to Ably: "nonprod:…",
	// Environment and Ably's other deprecated options are rejected.
	Ably bool
	// Environment is Ably's deprecated environment option, read only with
	// Ably: a production routing policy id. "production" means the
	// default policy. It cannot be combined with Endpoint (REC1b1),
	// RestHost or RealtimeHost (REC1c1).
	Environment string
	// RestHost is Ably's deprecated restHost option (TO3k2), read only
	// with Ably: when set, it is the primary host (REC1d1), for REST
	// requests and realtime connections alike (REC1 names one primary
	// domain; RSC25 and RTN2 both use it), with no fallback hosts
	// (REC2c6) unless FallbackHosts or FallbackHostsUseDefault says
	// otherwise. A host name, an IP address or "localhost", validated as
	// Endpoint's host names are, except that a word without a dot is a
	// host too (there is no routing policy id to confuse it with). Empty
	// means not set. It cannot be combined with Endpoint (REC1b1) or
	// Environment (REC1c1).
	RestHost string
	// RealtimeHost is Ably's deprecated realtimeHost option (TO3k3), read
	// only with Ably: the primary host when RestHost is not set (REC1d2;
	// with both set RestHost wins, REC1d1, and RealtimeHost is still
	// validated), with no fallback hosts (REC2c6) unless FallbackHosts or
	// FallbackHostsUseDefault says otherwise. The same host rules as
	// RestHost; empty means not set. It cannot be combined with Endpoint
	// (REC1b1) or Environment (REC1c1).
	RealtimeHost string
	// FallbackHostsUseDefault is Ably's deprecated fallbackHostsUseDefault
	// option (TO3k7), read only with Ably: true makes the fallback hosts
	// the default five, main.[a-e].fallback.ably-realtime.com (REC2b),
	// whatever names the primary host (a RestHost, a RealtimeHost or an
	// Environment). false means not set (a Go bool cannot say "specified
	// as false"; the spec's checks are for true). It cannot be combined
	// with Endpoint (REC1b1) or with a non-nil FallbackHosts, even an
	// empty one (REC2a1).
	FallbackHostsUseDefault bool
}

// Hosts are the hosts a client connects to: the primary host, always tried
// first, and the fallback hosts, tried in random order after a qualifying
// failure (RTN17, RSC15).
type Hosts struct {
	Primary   string
	Fallbacks []string
}

const (
	defaultPolicy    = "main"
	prodPrimary      = ".realtime.ably.net"
	nonprodPrimary   = ".realtime.ably-nonprod.net"
	prodFallbacks    = ".fallback.ably-realtime.com"
	nonprodFallbacks = ".fallback.ably-realtime-nonprod.com"
	nonprodPrefix    = "nonprod:"
	maxHostLen       = 253
)

// fallbackLetters are the five fallback host labels of REC2c.
var fallbackLetters = [...]string{"a", "b", "c", "d", "e"}

// AppendHostOrder appends to dst the hosts to try for one request or
// connection attempt, in order, and returns the extended slice: the primary
// host first, then at most maxFallbacks of h.Fallbacks (httpMaxRetryCount
// for a REST request, RSC15a; every fallback host, len(h.Fallbacks), for a
// realtime connection, RTN17j) in uniformly random order. The fallbacks are drawn one at a time
// from those not yet drawn: draw k takes u from src (nil means
// DefaultSource) and picks index ⌊u·r⌋ of the r hosts remaining, in their
// given order. That makes every ordered choice equally likely, the order
// reproducible for a seeded src, and the rule easy to follow in another
// language; u is clamped into [0, 1) (NaN counts as 0).
//
// It never returns a fallback host twice when h.Fallbacks has no
// duplicates (as ResolveHosts guarantees; a fallback host equal to the
// primary, which ResolveHosts accepts, comes again as a fallback in its
// drawn place), never more hosts than given, and allocates
// nothing when dst has room for 1 + len(h.Fallbacks) more hosts. A
// maxFallbacks ≤ 0 gives the primary host alone. dst may share memory
// with h.Fallbacks (AppendHostOrder(h.Fallbacks[:0], h, …) is correct):
// the fallbacks are then copied first, which allocates, and h.Fallbacks
// is overwritten by the result, as any append into it would.
func AppendHostOrder(dst []string, h Hosts, maxFallbacks int, src Source) []string {
	if overlaps(dst[len(dst):min(cap(dst), len(dst)+1+len(h.Fallbacks))], h.Fallbacks) {
		h.Fallbacks = append([]string(nil), h.Fallbacks...)
	}
	dst = append(dst, h.Primary)
	k := min(max(maxFallbacks, 0), len(h.Fallbacks))
	if k == 0 {
		return dst
	}
	// Stage every fallback after the primary, then move each draw to the
	// front of the remaining run, keeping the rest in order.
	start := len(dst)
	dst = append(dst, h.Fallbacks...)
	for i := start; i < start+k; i++ {
		r := len(dst) - i
		j := i + pickIndex(draw(src), r)
		picked := dst[j]
		copy(dst[i+1:j+1], dst[i:j])
		dst[i] = picked
	}
	return dst[:start+k]
}

// overlaps reports whether a and b share an element of memory: two
// slices of one array overlap exactly when the first element of one lies
// within the other.
func overlaps(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for i := range a {
		if &a[i] == &b[0] {
			return true
		}
	}
	for i := range b {
		if &b[i] == &a[0] {
			return true
		}
	}
	return false
}

// pickIndex maps a uniform draw u to an index in [0, r): ⌊u·r⌋ with u
// clamped into [0, 1).
func pickIndex(u float64, r int) int {
	j := int(clampUnit(u) * float64(r))
	return min(j, r-1)
}

// FailureKind classifies why a request or connection attempt to a host
// failed.
type FailureKind uint8

const (
	// FailureNone is the zero kind: no failure. A Failure of this kind
	// means "no failure" whatever its other fields say; it never
	// qualifies.
	FailureNone FailureKind = iota
	// FailureOther is any failure not listed below; it never qualifies.
	FailureOther
	// FailureDNS: the host name did not resolve.
	FailureDNS
	// FailureUnreachable: no route to the host, or the network is down.
	FailureUnreachable
	// FailureRefused: the host refused the connection.
	FailureRefused
	// FailureTimeout: the request or connection attempt timed out.
	FailureTimeout
	// FailureHTTPStatus: an HTTP response with status Status (and the
	// Server header in Server).
	FailureHTTPStatus
	// FailureDisconnected: a realtime DISCONNECTED protocol message whose
	// error has status code Status.
	FailureDisconnected
	// FailureToken: a token or authentication error.
	FailureToken
	numFailureKinds
)

// String returns the kind's name, e.g. "none", "dns" or "http-status".
func (k FailureKind) String() string {
	if k < numFailureKinds {
		return fallbackTable[k].name
	}
	return enumName(nil, int(k), "FailureKind")
}

// Failure describes one failed request or connection attempt to a host.
// The zero Failure (Kind FailureNone) means no failure.
//
// Kind, Status and Server are what the host-fallback rules read
// (ShouldFallback) and what the fixtures write (String). Code and the
// error attached with WithError are the SDK's own, for its users: the
// engine carries them, untouched, to every state change and to LastError,
// and never decides anything on them. A Failure is an error (Error,
// Unwrap), so errors.Is and errors.As see the attached error and its
// chain.
//
// Failures are comparable with ==: equal when their kinds, statuses,
// servers and codes are equal and they carry the same attachment (none,
// or copies of one WithError result). The attachment is held by pointer
// so that == never panics whatever the error's type, and never looks into
// the error; compare errors with errors.Is.
type Failure struct {
	Kind FailureKind
	// Code is the SDK's own code for the failure, for its users and logs:
	// a websocket close status (RFC 6455 §7.4: 1006, or an application's
	// 4000–4999), or the protocol's error code (an ErrorInfo code such as
	// 80003). 0 means none. The engine never reads it: ShouldFallback
	// and the rules look at Kind and Status only. (An int32, beside Kind,
	// keeps a Failure, which every event and action carries, at 40 bytes.)
	Code int32
	// Status is the HTTP status (FailureHTTPStatus) or the error's
	// statusCode (FailureDisconnected); ignored for other kinds.
	Status int
	// Server is the HTTP response's Server header, if any
	// (FailureHTTPStatus only).
	Server string
	// cause is the SDK's error (WithError); nil for none.
	cause *failureCause
}

// String renders f as the fixtures write it: the kind's name, then
// ":status" for the kinds that have one (http-status, disconnected), then
// ":server" when an http-status failure names its Server header; for
// example "dns", "http-status:503", "http-status:403:CloudFront" or
// "none". A FailureNone renders as "none" whatever its other fields.
func (f Failure) String() string {
	switch f.Kind {
	case FailureHTTPStatus:
		s := f.Kind.String() + ":" + strconv.Itoa(f.Status)
		if f.Server != "" {
			s += ":" + f.Server
		}
		return s
	case FailureDisconnected:
		return f.Kind.String() + ":" + strconv.Itoa(f.Status)
	}
	return f.Kind.String()
}

// fallbackWhen is the condition under which a failure kind qualifies for a
// fallback host.
type fallbackWhen uint8

const (
	never            fallbackWhen = iota
	always                        // whatever the status
	status500to504                // 500 ≤ Status ≤ 504
	status5xxOrCloud              // 500 ≤ Status ≤ 504, or Server is CloudFront and Status ≥ 400
)

// fallbackRule is one row of the qualifying-failure table.
type fallbackRule struct {
	name string
	when fallbackWhen
	spec string
}

// fallbackTable says which failures move on to a fallback host, indexed by
// FailureKind (RSC15l, RTN17f).
var fallbackTable = [numFailureKinds]fallbackRule{
	FailureNone:         {"none", never, "no failure"},
	FailureOther:        {"other", never, "RSC15l: anything else must not be retried"},
	FailureDNS:          {"dns", always, "RSC15l1: host unresolvable"},
	FailureUnreachable:  {"unreachable", always, "RSC15l1: host unreachable"},
	FailureRefused:      {"refused", always, "RSC15l1: host unreachable (decision: a refused connection counts)"},
	FailureTimeout:      {"timeout", always, "RSC15l2: request timeout"},
	FailureHTTPStatus:   {"http-status", status5xxOrCloud, "RSC15l3: 500–504; RSC15l4: Server CloudFront and status ≥ 400"},
	FailureDisconnected: {"disconnected", status500to504, "RTN17f1: DISCONNECTED with statusCode 500–504"},
	FailureToken:        {"token", never, "a token error is for the auth layer, not another host"},
}

// ShouldFallback reports whether f is a qualifying failure: one after which
// the next fallback host is tried (RSC15l, RTN17f). The rules, one per kind:
//
//	dns, unreachable, refused, timeout   always
//	http-status                          500–504, or Server "CloudFront" (ASCII case-insensitive, trimmed of spaces and tabs) with status ≥ 400
//	disconnected                         500–504
//	token, other, none                   never
//
// An out-of-range Kind never qualifies.
func ShouldFallback(f Failure) bool {
	if f.Kind >= numFailureKinds {
		return false
	}
	switch fallbackTable[f.Kind].when {
	case always:
		return true
	case status500to504:
		return 500 <= f.Status && f.Status <= 504
	case status5xxOrCloud:
		return 500 <= f.Status && f.Status <= 504 ||
			f.Status >= 400 && isCloudFront(f.Server)
	}
	return false
}

// AblyConnectivityCheckURL is Ably's connectivityCheckUrl (REC3a), for
// Ably's service only: runner.AblyConnectivityCheck GETs it. Nothing
// uses it unless asked.
const AblyConnectivityCheckURL = "https://internet-up.ably-realtime.com/is-the-internet-up.txt"

// ConnectivityUp reports whether a connectivity check response means the
// internet is up (RTN17j): a 2xx status and a body that, trimmed of white
// space, is exactly "yes".
//
// The spec says the body need only contain "yes"; exact match is a
// decision, because a captive portal's login page can contain the word and
// a client that believed it would try fallback hosts it cannot reach. Only
// ASCII white space (space, \t, \n, \v, \f, \r) is trimmed. So "yes\n"
// and " yes " are up; "YES", "yes please", "<html>yes</html>", "\ufeffyes"
// and "yes\u00a0" are not, nor is any body with a non-2xx status.
func ConnectivityUp(status int, body []byte) bool {
	return 200 <= status && status <= 299 && string(bytes.Trim(body, asciiSpace)) == "yes"
}

// asciiSpace is the white space ConnectivityUp trims: ASCII only, so a
// body with a BOM, NBSP, NEL or any other Unicode space around "yes" is
// not up.
const asciiSpace = " \t\n\v\f\r"

// isCloudFront reports whether a Server header names CloudFront: trimmed
// of HTTP's optional white space (space and tab, RFC 9110 §5.6.3) and
// compared ASCII case-insensitively.
func isCloudFront(server string) bool {
	s := strings.Trim(server, " \t")
	const want = "cloudfront"
	if len(s) != len(want) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != want[i] {
			return false
		}
	}
	return true
}

// PreferredHost remembers the fallback host that last succeeded, for
// fallbackRetryTimeout (RSC15f): while it is remembered, REST requests try
// it first instead of the primary host. Time is always an argument; the
// zero value remembers nothing. Like a Backoff it is not safe for
// concurrent use.
//
// Realtime connection attempts ignore it and always start at the primary
// host (RTN17i).
type PreferredHost struct {
	host  string
	until time.Time
}

// FallbackSucceeded records that a request reached host as a fallback (after
// the hosts before it failed with qualifying failures) and succeeded at
// time at: host is preferred until at + ttl (fallbackRetryTimeout, by
// default DefaultFallbackRetry). A ttl ≤ 0 remembers nothing.
//
// Call it only for a success that came through the fallback sequence, not
// for a success of a request sent to the preferred host because it was
// preferred: such a request that completes after the host expired must not
// bring it back.
func (p *PreferredHost) FallbackSucceeded(host string, at time.Time, ttl time.Duration) {
	if ttl <= 0 || host == "" {
		*p = PreferredHost{}
		return
	}
	*p = PreferredHost{host: host, until: at.Add(ttl)}
}

// First returns the host to try first at time now: the preferred host while
// now is before its expiry, otherwise primary. It never returns an expired
// host.
func (p *PreferredHost) First(primary string, now time.Time) string {
	if p.host != "" && now.Before(p.until) {
		return p.host
	}
	return primary
}

// Failed records that a request to host failed with f: a qualifying failure
// on the preferred host forgets it, so the next request starts at the
// primary host again. Other failures change nothing.
func (p *PreferredHost) Failed(host string, f Failure) {
	if host == p.host && ShouldFallback(f) {
		*p = PreferredHost{}
	}
}
