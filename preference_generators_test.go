package reconnect

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// preference.json is generated from the rules below, written as data: the
// rules a transport preference follows (applied by oracleApply and
// oracleStart), the grammar of its persisted text (applied by
// oracleDecode), the hand-picked cases, and boundary generators over every
// remembered state × event × transport, every in-force edge and every
// token, bound and byte class of the text. No expectation comes from
// Preference's own methods.

type prefOutResult struct {
	Transport      string `json:"transport"`
	At             *int64 `json:"atMs,omitempty"`
	Reason         string `json:"reason,omitempty"`
	CheckWebSocket *bool  `json:"checkWebSocket,omitempty"`
}

type prefOutStep struct {
	Op        string `json:"op"`
	Event     string `json:"event,omitempty"`
	Transport string `json:"transport,omitempty"`
	At        *int64 `json:"atMs,omitempty"`
	Now       *int64 `json:"nowMs,omitempty"`
	WebSocket *bool  `json:"websocket,omitempty"`
	HTTP      *bool  `json:"http,omitempty"`
}

type prefOutItem struct {
	ID                 string          `json:"id"`
	Spec               string          `json:"spec"`
	Function           string          `json:"function"`
	Comment            string          `json:"_comment,omitempty"`
	TTL                *int64          `json:"ttlMs,omitempty"`
	Start              *prefOutResult  `json:"start,omitempty"`
	Steps              []prefOutStep   `json:"steps,omitempty"`
	Results            []prefOutResult `json:"expectedResults,omitempty"`
	Text               *string         `json:"text,omitempty"`
	ExpectedPreference *prefOutResult  `json:"expectedPreference,omitempty"`
	ExpectedEncoded    *string         `json:"expectedEncoded,omitempty"`
	ExpectedErrorField string          `json:"expectedErrorField,omitempty"`
}

type prefRuleThen struct {
	Transport      string `json:"transport"`
	CheckWebSocket any    `json:"checkWebSocket"`
}

type prefOutFile struct {
	Comment       string            `json:"_comment"`
	FormatVersion int               `json:"formatVersion"`
	Units         map[string]string `json:"units"`
	DefaultTTL    int64             `json:"defaultTtl"`
	Decisions     []string          `json:"decisions"`
	Rules         struct {
		Apply []struct {
			Event string `json:"event"`
			If    string `json:"if"`
			Then  string `json:"then"`
		} `json:"apply"`
		InForce []string `json:"inForce"`
		Start   []struct {
			Current   string       `json:"current"`
			Available string       `json:"available"`
			Then      prefRuleThen `json:"then"`
		} `json:"start"`
	} `json:"rules"`
	Items []prefOutItem `json:"items"`
}

// prefRulesJSON are the rules, as data.
const prefRulesJSON = `{
	"apply": [
		{"event": "connected", "if": "transport-is-websocket-or-http", "then": "remember-transport"},
		{"event": "websocket-unstable", "if": "always", "then": "remember-http-unstable"},
		{"event": "attempt-failed", "if": "transport-is-remembered", "then": "forget"},
		{"event": "websocket-check-passed", "if": "remembered-is-http", "then": "forget"},
		{"event": "server-fallback", "if": "always", "then": "forget"},
		{"event": "any", "if": "always", "then": "keep"}
	],
	"inForce": ["transport is websocket or http", "now < at + ttl"],
	"start": [
		{"current": "websocket", "available": "websocket", "then": {"transport": "websocket", "checkWebSocket": false}},
		{"current": "http", "available": "http", "then": {"transport": "http", "checkWebSocket": "websocket-available"}},
		{"current": "any", "available": "any", "then": {"transport": "none", "checkWebSocket": false}}
	]
}`

// prefTextGrammar is the persisted text's grammar, as data: at most
// maxBytes bytes of UTF-8 (counted before anything else, so a longer text
// is rejected as a whole); empty for nothing remembered; else exactly four
// parts separated by single spaces, checked in order (the first bad one is
// named): the version, the transport, the time (ASCII decimal digits,
// leading zeros allowed, at most atMax) and the reason. Encoding again
// writes the time without leading zeros.
var prefTextGrammar = struct {
	maxBytes   int
	version    string
	transports []string
	atDigits   string
	atMax      int64
	reasons    []string
}{64, "v1", []string{"websocket", "http"}, "0123456789", 1<<53 - 1, []string{"connected", "websocket-unstable"}}

// oracleDecode reads text by prefTextGrammar.
func oracleDecode(text string) (p prefJSON, encoded, errField string) {
	g := prefTextGrammar
	if len(text) > g.maxBytes {
		return p, "", "Preference"
	}
	if text == "" {
		return prefJSON{Transport: "none"}, "", ""
	}
	parts := strings.Split(text, " ")
	if len(parts) != 4 || parts[0] != g.version {
		return p, "", "Preference"
	}
	if !contains(g.transports, parts[1]) {
		return p, "", "Preference.Transport"
	}
	if parts[2] == "" || strings.Trim(parts[2], g.atDigits) != "" {
		return p, "", "Preference.At"
	}
	at, err := strconv.ParseUint(parts[2], 10, 64)
	if err != nil || at > uint64(g.atMax) {
		return p, "", "Preference.At"
	}
	if !contains(g.reasons, parts[3]) {
		return p, "", "Preference.Reason"
	}
	p = prefJSON{Transport: parts[1], At: int64(at), Reason: parts[3]}
	return p, strings.Join([]string{g.version, parts[1], strconv.FormatUint(at, 10), parts[3]}, " "), ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// prefCase is one hand-picked or generated case: a timeline, or a text.
type prefCase struct {
	id, comment string
	ttl         int64
	start       prefJSON
	steps       []prefOutStep
	text        *string
}

var prefNone = prefJSON{Transport: "none"}

func prefOf(tr string, at int64, reason string) prefJSON {
	return prefJSON{Transport: tr, At: at, Reason: reason}
}

func apply(ev, tr string, at int64) prefOutStep {
	return prefOutStep{Op: "apply", Event: ev, Transport: tr, At: ptr(at)}
}

func start(now int64, ws, http bool) prefOutStep {
	return prefOutStep{Op: "start", Now: ptr(now), WebSocket: ptr(ws), HTTP: ptr(http)}
}

// prefHandCases are the cases picked by hand, each for a rule or a
// decision.
var prefHandCases = []prefCase{
	{id: "preference-remember-websocket", ttl: 0, start: prefNone, steps: []prefOutStep{apply("connected", "websocket", 1767225600000), start(1767225601000, true, true)}},
	{id: "preference-remember-http", ttl: 0, start: prefNone, steps: []prefOutStep{apply("connected", "http", 1767225600000), start(1767225601000, true, true), start(1767225601000, false, true)}},
	{id: "preference-connected-none-keeps", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{apply("connected", "none", 1767225600005)}},
	{id: "preference-latest-connection-wins", ttl: 0, start: prefNone, steps: []prefOutStep{apply("connected", "http", 1767225600000), apply("connected", "websocket", 1767225660000), start(1767225660001, true, true)}},
	{id: "preference-unstable-websocket-prefers-http", ttl: 0, start: prefNone, steps: []prefOutStep{apply("connected", "websocket", 1767225600000), apply("websocket-unstable", "websocket", 1767225603000), start(1767225604000, true, true)}},
	{id: "preference-attempt-failed-forgets-remembered", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{apply("attempt-failed", "http", 1767225600010), start(1767225600020, true, true)}},
	{id: "preference-attempt-failed-other-keeps", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{apply("attempt-failed", "websocket", 1767225600010)}},
	{id: "preference-attempt-failed-nothing-keeps", ttl: 0, start: prefNone, steps: []prefOutStep{apply("attempt-failed", "http", 1767225600010)}},
	{id: "preference-check-passed-forgets-http", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{apply("websocket-check-passed", "none", 1767225600025), start(1767225600030, true, true)}},
	{id: "preference-check-passed-keeps-websocket", ttl: 0, start: prefOf("websocket", 1767225600000, "connected"), steps: []prefOutStep{apply("websocket-check-passed", "none", 1767225600025)}},
	{id: "preference-server-fallback-forgets", ttl: 0, start: prefOf("websocket", 1767225600000, "connected"), steps: []prefOutStep{apply("server-fallback", "none", 1767225630000)}},
	{id: "preference-in-force-at-start", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{start(1767225600000, true, true)}},
	{id: "preference-in-force-until-ttl", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{start(1767311999999, true, true), start(1767312000000, true, true)}},
	{id: "preference-custom-ttl", ttl: 3600000, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{start(1767229199999, true, true), start(1767229200000, true, true)}},
	{id: "preference-future-in-force", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{start(1767225599999, true, true)}},
	{id: "preference-http-unavailable", ttl: 0, start: prefOf("http", 1767225600000, "connected"), steps: []prefOutStep{start(1767225600001, true, false)}},
	{id: "preference-websocket-unavailable", ttl: 0, start: prefOf("websocket", 1767225600000, "connected"), steps: []prefOutStep{start(1767225600001, false, true)}},
	{id: "preference-nothing-remembered", ttl: 0, start: prefNone, steps: []prefOutStep{start(1767225600000, true, true)}},
	{id: "preference-text-empty", text: ptr("")},
	{id: "preference-text-http", text: ptr("v1 http 1767225600000 connected")},
	{id: "preference-text-websocket", text: ptr("v1 websocket 1767225600123 connected")},
	{id: "preference-text-unstable", text: ptr("v1 http 0 websocket-unstable")},
	{id: "preference-text-bad-version", text: ptr("v2 http 1767225600000 connected")},
	{id: "preference-text-too-few-parts", text: ptr("v1 http 1767225600000")},
	{id: "preference-text-extra-space", text: ptr("v1  http 1767225600000 connected")},
	{id: "preference-text-ably-js-value", text: ptr("comet")},
	{id: "preference-text-bad-transport", text: ptr("v1 comet 1767225600000 connected")},
	{id: "preference-text-none-transport", text: ptr("v1 none 1767225600000 connected")},
	{id: "preference-text-negative-time", text: ptr("v1 http -1 connected")},
	{id: "preference-text-plus-time", text: ptr("v1 http +5 connected")},
	{id: "preference-text-huge-time", text: ptr("v1 http 99999999999999999999 connected")},
	{id: "preference-text-bad-reason", text: ptr("v1 http 1767225600000 none")},
	{id: "preference-text-too-long", text: ptr("v1 http 1767225600000 connected                                        ")},
}

const prefT0 = int64(1767225600000) // 2026-01-01T00:00:00Z

// prefStates are the four things that can be remembered.
var prefStates = []struct {
	name string
	p    prefJSON
}{
	{"nothing", prefNone},
	{"websocket", prefOf("websocket", prefT0, "connected")},
	{"http", prefOf("http", prefT0, "connected")},
	{"http-unstable", prefOf("http", prefT0, "websocket-unstable")},
}

var prefEvents = []string{"connected", "websocket-unstable", "attempt-failed", "websocket-check-passed", "server-fallback"}

// prefTransitionCases: every remembered state × event × transport, then
// how the next attempt starts under each availability.
func prefTransitionCases() []prefCase {
	var out []prefCase
	for _, s := range prefStates {
		for _, ev := range prefEvents {
			for _, tr := range []string{"websocket", "http", "none"} {
				out = append(out, prefCase{
					id: fmt.Sprintf("preference-x-%s-%s-%s", s.name, ev, tr), start: s.p,
					steps: []prefOutStep{apply(ev, tr, prefT0+1000), start(prefT0+2000, true, true), start(prefT0+2000, false, true), start(prefT0+2000, true, false)},
				})
			}
		}
	}
	return out
}

// prefTwoStepCases: from nothing remembered, every pair of (event,
// transport) applied in turn, then how the next attempt starts.
func prefTwoStepCases() []prefCase {
	var out []prefCase
	for _, ev1 := range prefEvents {
		for _, tr1 := range []string{"websocket", "http", "none"} {
			for _, ev2 := range prefEvents {
				for _, tr2 := range []string{"websocket", "http", "none"} {
					out = append(out, prefCase{
						id: fmt.Sprintf("preference-x-then-%s-%s-%s-%s", ev1, tr1, ev2, tr2), start: prefNone,
						steps: []prefOutStep{apply(ev1, tr1, prefT0), apply(ev2, tr2, prefT0+1000), start(prefT0+2000, true, true), start(prefT0+2000, false, true)},
					})
				}
			}
		}
	}
	return out
}

// prefInForceCases: every remembered transport × ttl (0 meaning the
// default) × a time before, at and around at + ttl, under each
// availability.
func prefInForceCases() []prefCase {
	var out []prefCase
	for _, s := range prefStates[1:] {
		for _, ttl := range []int64{0, 1, 1000, 3600000} {
			eff := ttl
			if eff == 0 {
				eff = 86400000
			}
			for _, now := range []struct {
				name string
				at   int64
			}{{"future-1d", prefT0 - 86400000}, {"future-1ms", prefT0 - 1}, {"at", prefT0}, {"ttl-minus-1", prefT0 + eff - 1}, {"ttl", prefT0 + eff}, {"ttl-plus-1", prefT0 + eff + 1}} {
				out = append(out, prefCase{
					id: fmt.Sprintf("preference-x-in-force-%s-ttl%d-%s", s.name, ttl, now.name), ttl: ttl, start: s.p,
					steps: []prefOutStep{start(now.at, true, true), start(now.at, false, true), start(now.at, true, false), start(now.at, false, false)},
				})
			}
		}
	}
	return out
}

// prefTextParts are written forms of each part, good and bad.
var prefTextParts = [4][]string{
	{"v1", "V1", "v2", "v", "v10", "v01", "1", "", "\ufeffv1"},
	{"websocket", "http", "WebSocket", "WEBSOCKET", "HTTP", "Http", "none", "comet", "xhr_streaming", "web_socket", ""},
	{"0", "1", "7", "007", "0000", "1767225600000", "01767225600000", "9007199254740991", "09007199254740991", "9007199254740992", "9007199254740993",
		"9223372036854775807", "9223372036854775808", "18446744073709551616", "99999999999999999999",
		"+5", "-5", "-0", "+0", "1e3", "1E3", "0x10", "0b1", "0o7", "12abc", "1.5", "1.0", "1,000", "1_000", "",
		"\u0661\u0662\u0663", "\uff11\uff12\uff13", "\u00b9", "\u2460", "Infinity", "NaN"},
	{"connected", "websocket-unstable", "Connected", "CONNECTED", "websocket_unstable", "unstable", "none", "", "connected\x00"},
}

// prefTextCases: each part in each written form (the others good), every
// pair of bad parts (the first is named), separators and white space, and
// lengths around the bound in bytes, UTF-16 units and code points.
func prefTextCases() []prefCase {
	var out []prefCase
	good := [4]string{"v1", "http", "1767225600000", "connected"}
	n := 0
	text := func(comment, s string) {
		n++
		out = append(out, prefCase{id: fmt.Sprintf("preference-x-text-%d", n), comment: comment, text: ptr(s)})
	}
	names := [4]string{"version", "transport", "time", "reason"}
	for i, forms := range prefTextParts {
		for _, f := range forms {
			parts := good
			parts[i] = f
			text(fmt.Sprintf("the %s written %q", names[i], f), strings.Join(parts[:], " "))
		}
	}
	// Every pair of parts in every pair of written forms (the other two
	// good): which part is named when two are bad, and each form again in
	// other company.
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			for _, fi := range prefTextParts[i] {
				for _, fj := range prefTextParts[j] {
					if fi == good[i] || fj == good[j] {
						continue
					}
					parts := good
					parts[i], parts[j] = fi, fj
					text(fmt.Sprintf("the %s written %q and the %s %q", names[i], fi, names[j], fj), strings.Join(parts[:], " "))
				}
			}
		}
	}
	g := strings.Join(good[:], " ")
	for _, s := range []string{
		" " + g, g + " ", "\t" + g, g + "\t", g + "\n", g + "\r\n", "\n" + g, "\ufeff" + g, g + "\u00a0", "\u00a0" + g,
		strings.ReplaceAll(g, " ", "  "), strings.ReplaceAll(g, " ", "\t"), strings.Replace(g, " ", "\t", 1), strings.Replace(g, " ", "\u00a0", 1),
		g + " extra", g + " ", "v1 http 1767225600000", "v1 http", "v1", "http 1767225600000 connected",
		" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\ufeff", "\x00", "v1 websocket 1767225600000 websocket-unstable extra",
	} {
		text("separators and white space", s)
	}
	// Lengths: valid texts padded with leading zeros in the time, and
	// texts with a bad reason, from 62 to 66 bytes.
	for total := 62; total <= 66; total++ {
		pad := total - len("v1 http 1 connected")
		text(fmt.Sprintf("a valid text of %d bytes", total), "v1 http "+strings.Repeat("0", pad)+"1 connected")
		pad = total - len("v1 http 1 ")
		text(fmt.Sprintf("a bad reason in a text of %d bytes", total), "v1 http 1 "+strings.Repeat("x", pad))
		text(fmt.Sprintf("a bad transport in a text of %d bytes", total), "v1 "+strings.Repeat("w", total-len("v1  1 connected"))+" 1 connected")
	}
	// Non-ASCII: more than 64 bytes in at most 64 UTF-16 units and code
	// points, and the other way round.
	for _, c := range []struct {
		r     string
		count int
	}{{"\u00e9", 28}, {"\u00e9", 27}, {"\u20ac", 19}, {"\u20ac", 18}, {"\U0001F600", 14}, {"\U0001F600", 13}, {"\U0001F600", 28}} {
		s := "v1 http 1 " + strings.Repeat(c.r, c.count)
		text(fmt.Sprintf("a bad reason of %d × %q: %d bytes, %d UTF-16 units", c.count, c.r, len(s), len(s)-len(strings.Repeat(c.r, c.count))+c.count*len(utf16Of(c.r))), s)
	}
	return out
}

func utf16Of(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
			continue
		}
		out = append(out, uint16(r))
	}
	return out
}

func prefResultOf(p prefJSON) prefOutResult {
	if p.Transport == "none" || p.Transport == "" {
		return prefOutResult{Transport: "none"}
	}
	return prefOutResult{Transport: p.Transport, At: ptr(p.At), Reason: p.Reason}
}

func buildPreferenceFixture(t *testing.T) prefOutFile {
	f := prefOutFile{
		Comment: "Transport preference: what is remembered, when it is in force, how the next attempt starts, how it is forgotten, and its persisted encoding. " +
			"Generated from the rules and the text grammar written as data (go test -run Fixture -update); do not edit by hand.",
		FormatVersion: 1,
		Units:         map[string]string{"time": "atMs and nowMs: milliseconds since the Unix epoch; ttlMs: milliseconds; all JSON integers"},
		DefaultTTL:    86400000,
		Decisions: []string{
			"the transport of the last connection that became active is remembered, with when and why (ably-js remembers the transport only)",
			"a remembered transport is in force until at+ttl (exclusive); one remembered in the future (another clock, or the clock moved back) is in force; ttl 0 means the default, 24 h",
			"the next attempt of any kind (retry, immediate reconnect, first attempt of a new connection or process) starts on the transport in force, if available; a remembered transport that is not available starts as if nothing were remembered",
			"a remembered HTTP checks the websocket in the background; when the check passes it is forgotten and a still-connecting attempt returns to the websocket",
			"a transport is forgotten when an attempt that started on it fails to connect (not when the internet or the network is down: that says nothing about the transport), and on a server-directed fallback (RTN17f1)",
			"the SDK's websocket flapping rule remembers HTTP with reason websocket-unstable",
			"encoding: empty for nothing, else 'v1 TRANSPORT UNIXMS REASON'; anything else is an error naming the part",
			"the text is at most 64 bytes of UTF-8, counted before anything else: a longer text is rejected as a whole (Preference), whatever its parts; non-ASCII text counts its bytes, not its UTF-16 units or code points",
			"the parts are separated by single spaces with nothing before, after or between them (no trimming, no tabs, no line end) and compared exactly, case-sensitively; they are checked in order and the first bad one is named",
			"the time is ASCII decimal digits only (no sign, exponent, point, separator or other script's digits), leading zeros allowed and dropped when encoded again, at most 9007199254740991 (2^53 - 1, the largest integer every JSON reader holds exactly)",
		},
	}
	if err := json.Unmarshal([]byte(prefRulesJSON), &f.Rules); err != nil {
		t.Fatal(err)
	}
	// The oracles read the rules as the fixture's readers do.
	rb, err := json.Marshal(struct {
		DefaultTTL int64 `json:"defaultTtl"`
		Rules      any   `json:"rules"`
	}{f.DefaultTTL, f.Rules})
	if err != nil {
		t.Fatal(err)
	}
	var rules prefFixture
	if err := json.Unmarshal(rb, &rules); err != nil {
		t.Fatal(err)
	}
	for _, c := range append(append(append(append([]prefCase{}, prefHandCases...), prefTransitionCases()...), append(prefTwoStepCases(), prefInForceCases()...)...), prefTextCases()...) {
		it := prefOutItem{ID: c.id, Spec: "transport-preference", Comment: c.comment}
		if c.text != nil {
			it.Function = "preferenceDecode"
			it.Text = c.text
			p, enc, field := oracleDecode(*c.text)
			if field != "" {
				it.ExpectedErrorField = field
			} else {
				r := prefResultOf(p)
				it.ExpectedPreference, it.ExpectedEncoded = &r, ptr(enc)
			}
			f.Items = append(f.Items, it)
			continue
		}
		it.Function = "preference"
		it.TTL = ptr(c.ttl)
		s := prefResultOf(c.start)
		it.Start = &s
		it.Steps = c.steps
		p := norm(c.start)
		for _, st := range c.steps {
			if st.Op == "start" {
				tr, check := oracleStart(rules, p, c.ttl, *st.Now, *st.WebSocket, *st.HTTP)
				it.Results = append(it.Results, prefOutResult{Transport: tr, CheckWebSocket: ptr(check)})
				continue
			}
			p = norm(oracleApply(t, rules, p, st.Event, st.Transport, *st.At))
			it.Results = append(it.Results, prefResultOf(p))
		}
		f.Items = append(f.Items, it)
	}
	return f
}

func TestFixturePreferenceMatchesOracle(t *testing.T) {
	f := buildPreferenceFixture(t)
	seen := map[string]bool{}
	for _, it := range f.Items {
		if seen[it.ID] {
			t.Errorf("id %s used twice", it.ID)
		}
		seen[it.ID] = true
	}
	checkGolden(t, "preference.json", f)
}
