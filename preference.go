package reconnect

// The transport preference: which transport the next connection attempt
// starts on, remembered from the last successful connection and persisted
// by the SDK across attempts, connections and restarts.

import (
	"strconv"
	"strings"
	"time"
)

// DefaultPreferenceTTL is how long a remembered transport is used:
// 24 hours. The two mistakes cost very different amounts. Forgetting an
// HTTP preference behind a proxy that swallows websockets costs the next
// connection the whole give-up wait (10 s with PolicyWebSocketCheck, the
// short circuit and a transport timeout elsewhere); keeping one that has
// gone stale costs one websocket check, because a remembered HTTP
// preference re-checks the websocket in the background and returns to it
// (25 ms in the ably-js parity timelines, where the websocket check answers
// in 25 ms). So the TTL only needs to bound how long a persisted value
// outlives the network it was learnt on (a laptop carried home overnight),
// not how quickly a working websocket is found again.
const DefaultPreferenceTTL = 24 * time.Hour

// PreferenceReason says why a transport is remembered.
type PreferenceReason uint8

const (
	// PreferenceNone: nothing is remembered.
	PreferenceNone PreferenceReason = iota
	// PreferenceConnected: the transport connected (became active); the
	// rule the reference JavaScript SDK applies.
	PreferenceConnected
	// PreferenceWebSocketUnstable: websockets activated and dropped again
	// and again, so HTTP is preferred for a while although a websocket
	// was the last transport to connect.
	PreferenceWebSocketUnstable
	numPreferenceReasons
)

var preferenceReasonNames = [numPreferenceReasons]string{"none", "connected", "websocket-unstable"}

// String returns the reason's name, e.g. "connected".
func (r PreferenceReason) String() string {
	return enumName(preferenceReasonNames[:], int(r), "PreferenceReason")
}

// PreferenceEvent is something that happened that may change the
// preference; see Preference.Apply for the rules.
type PreferenceEvent uint8

const (
	// PreferenceEventConnected: a transport became active.
	PreferenceEventConnected PreferenceEvent = iota + 1
	// PreferenceEventWebSocketUnstable: the SDK's flapping rule says
	// websockets keep dropping.
	PreferenceEventWebSocketUnstable
	// PreferenceEventAttemptFailed: an attempt that started on a transport
	// failed to connect on it. The engine sends it only for a connect
	// failure, not when the internet or the network was down.
	PreferenceEventAttemptFailed
	// PreferenceEventWebSocketCheckPassed: the background websocket check
	// of a remembered HTTP preference opened a websocket.
	PreferenceEventWebSocketCheckPassed
	// PreferenceEventServerFallback: a connected server sent DISCONNECTED
	// with a status that sends the client to a fallback host (RTN17f1).
	PreferenceEventServerFallback
	numPreferenceEvents
)

var preferenceEventNames = [numPreferenceEvents]string{"", "connected", "websocket-unstable", "attempt-failed", "websocket-check-passed", "server-fallback"}

// String returns the event's name, e.g. "attempt-failed".
func (e PreferenceEvent) String() string {
	return enumName(preferenceEventNames[:], int(e), "PreferenceEvent")
}

// Preference is the remembered transport. Its zero value remembers
// nothing. It is a value: Apply returns the next one.
type Preference struct {
	// Transport is the remembered transport; NoTransport when nothing is.
	Transport TransportKind
	// At is when it was remembered; the encoding keeps milliseconds.
	At time.Time
	// Reason is why it was remembered.
	Reason PreferenceReason
}

// Apply returns the preference after event ev concerning transport t
// happened at now. The rules (fixtures/preference.json has them as data):
//
//   - connected: remember t (websocket or HTTP) at now, reason connected;
//   - websocket-unstable: remember HTTP at now, reason websocket-unstable
//     (t is ignored);
//   - attempt-failed: forget, if t is the remembered transport (a
//     transport that failed is forgotten); otherwise keep;
//   - websocket-check-passed: forget a remembered HTTP; otherwise keep;
//   - server-fallback: forget (the next attempt starts afresh on a fallback
//     host).
//
// An unknown event, or a connected with t not a transport, keeps p.
func (p Preference) Apply(ev PreferenceEvent, t TransportKind, now time.Time) Preference {
	switch ev {
	case PreferenceEventConnected:
		if t == WebSocket || t == HTTP {
			return Preference{Transport: t, At: now, Reason: PreferenceConnected}
		}
	case PreferenceEventWebSocketUnstable:
		return Preference{Transport: HTTP, At: now, Reason: PreferenceWebSocketUnstable}
	case PreferenceEventAttemptFailed:
		if p.Transport != NoTransport && t == p.Transport {
			return Preference{}
		}
	case PreferenceEventWebSocketCheckPassed:
		if p.Transport == HTTP {
			return Preference{}
		}
	case PreferenceEventServerFallback:
		return Preference{}
	}
	return p
}

// Current returns the remembered transport if it is still in force at now,
// that is before At+ttl; otherwise, or when nothing is remembered, it
// returns NoTransport. A value remembered in the future (the clock moved
// back, or the persisted value came from another clock) is in force: using
// a stale preference costs one websocket check, dropping a good one the
// whole give-up wait. ttl ≤ 0 means DefaultPreferenceTTL.
func (p Preference) Current(now time.Time, ttl time.Duration) TransportKind {
	if ttl <= 0 {
		ttl = DefaultPreferenceTTL
	}
	if p.Transport != WebSocket && p.Transport != HTTP || !now.Before(p.At.Add(ttl)) {
		return NoTransport
	}
	return p.Transport
}

// PreferenceStart is how the next attempt starts under a preference.
type PreferenceStart struct {
	// Transport is the transport the attempt starts on; NoTransport means
	// the policy's own choice.
	Transport TransportKind
	// CheckWebSocket asks for the websocket check in the background: when
	// it passes, apply PreferenceEventWebSocketCheckPassed and, if the
	// attempt is still connecting, abandon HTTP for the websocket.
	CheckWebSocket bool
}

// Start returns how the next attempt (a retry, a reconnect, or the first
// attempt of a new connection or process) starts at now: on the transport
// in force (see Current) if it is available, checking the websocket in the
// background when that transport is HTTP and websockets are available;
// otherwise on the policy's own choice.
func (p Preference) Start(now time.Time, ttl time.Duration, avail Availability) PreferenceStart {
	switch p.Current(now, ttl) {
	case WebSocket:
		if avail.WebSocket {
			return PreferenceStart{Transport: WebSocket}
		}
	case HTTP:
		if avail.HTTP {
			return PreferenceStart{Transport: HTTP, CheckWebSocket: avail.WebSocket}
		}
	}
	return PreferenceStart{}
}

// preferenceVersion starts every encoded preference.
const preferenceVersion = "v1"

// maxPreferenceText bounds what UnmarshalText reads.
const maxPreferenceText = 64

// maxPreferenceMs is the largest time the text holds, 2^53 − 1 ms: the
// largest integer every JSON reader holds exactly.
const maxPreferenceMs = 1<<53 - 1

// MarshalText encodes p for the SDK to persist: the empty string when
// nothing is remembered, else "v1 TRANSPORT UNIXMS REASON", e.g.
// "v1 http 1767225600000 connected": TRANSPORT is websocket or http,
// UNIXMS the time remembered in Unix milliseconds (0 to 2^53 − 1, ASCII digits), REASON a
// PreferenceReason name. The encoding is stable: a later version of the
// package reads it, and a new format gets a new version word.
func (p Preference) MarshalText() ([]byte, error) {
	if p.Transport == NoTransport {
		return []byte{}, nil
	}
	if p.Transport != WebSocket && p.Transport != HTTP {
		return nil, &FieldError{Field: "Preference.Transport", Value: p.Transport.String(), Problem: "must be websocket or http"}
	}
	if p.Reason == PreferenceNone || p.Reason >= numPreferenceReasons {
		return nil, &FieldError{Field: "Preference.Reason", Value: p.Reason.String(), Problem: "must be connected or websocket-unstable"}
	}
	ms := p.At.UnixMilli()
	if ms < 0 || ms > maxPreferenceMs {
		return nil, &FieldError{Field: "Preference.At", Value: p.At.UTC().Format(time.RFC3339Nano), Problem: "must be from 1970 to 2^53 - 1 ms after it"}
	}
	return []byte(preferenceVersion + " " + p.Transport.String() + " " + strconv.FormatInt(ms, 10) + " " + p.Reason.String()), nil
}

// UnmarshalText decodes what MarshalText made into p (At in UTC). Bad
// input never panics: it returns a *FieldError naming the part, the value
// and what is expected, and leaves p unchanged.
func (p *Preference) UnmarshalText(b []byte) error {
	if len(b) > maxPreferenceText {
		return &FieldError{Field: "Preference", Value: strconv.Itoa(len(b)) + " bytes", Problem: "must be at most " + strconv.Itoa(maxPreferenceText) + " bytes"}
	}
	s := string(b)
	if s == "" {
		*p = Preference{}
		return nil
	}
	parts := strings.Split(s, " ")
	if len(parts) != 4 || parts[0] != preferenceVersion {
		return &FieldError{Field: "Preference", Value: strconv.Quote(s), Problem: `must be empty or "v1 TRANSPORT UNIXMS REASON"`}
	}
	var q Preference
	switch parts[1] {
	case "websocket":
		q.Transport = WebSocket
	case "http":
		q.Transport = HTTP
	default:
		return &FieldError{Field: "Preference.Transport", Value: strconv.Quote(parts[1]), Problem: "must be websocket or http"}
	}
	ms, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || ms < 0 || ms > maxPreferenceMs || parts[2][0] < '0' || parts[2][0] > '9' {
		return &FieldError{Field: "Preference.At", Value: strconv.Quote(parts[2]), Problem: "must be Unix milliseconds, ASCII decimal digits, at most 2^53 - 1"}
	}
	q.At = time.UnixMilli(ms).UTC()
	for r := PreferenceConnected; r < numPreferenceReasons; r++ {
		if parts[3] == r.String() {
			q.Reason = r
		}
	}
	if q.Reason == PreferenceNone {
		return &FieldError{Field: "Preference.Reason", Value: strconv.Quote(parts[3]), Problem: "must be connected or websocket-unstable"}
	}
	*p = q
	return nil
}
