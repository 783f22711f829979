package reconnect

import (
	"fmt"
	"testing"
	"time"
)

// ---- The oracle ----------------------------------------------------------
//
// The setTransportPending rules of the transport-fallback proposal as predicates applied in
// order, and the reachability argument as a predicate, written apart from
// the table literal in fallback.go so that each checks the other.

var oracleTransports = []string{"none", "websocket", "http"}
var oracleModes = []string{"clean", "resume", "recover", "upgrade"}

type pendingRule struct {
	rule     int
	applies  func(c, m, p, a string) bool
	decision string
}

var pendingRules = []pendingRule{
	{0, func(c, m, p, a string) bool { return c == "none" }, "discard-candidate"},
	{1, func(c, m, p, a string) bool { return c == "http" && (p == "websocket" || a == "websocket") }, "discard-candidate"},
	{2, func(c, m, p, a string) bool { return c == "websocket" && p == "http" }, "replace-pending"},
	{3, func(c, m, p, a string) bool { return c == "websocket" && m != "upgrade" && a == "http" }, "discard-candidate"},
	{4, func(c, m, p, a string) bool { return true }, "proceed"},
}

func oracleDecide(c, m, p, a string) (string, int) {
	for _, r := range pendingRules {
		if r.applies(c, m, p, a) {
			return r.decision, r.rule
		}
	}
	panic("rule 4 always applies")
}

// oracleReachable: what a correct connection manager can present to
// setTransportPending. One non-upgrade websocket per attempt (on the primary
// host), one HTTP flow at a time, HTTP never in upgrade mode, an upgrade
// websocket only while HTTP is active with nothing pending, a pending
// transport beside an active one only as that upgrade websocket, and
// nothing at all once a websocket is active (activating a websocket closes
// every other transport).
func oracleReachable(c, m, p, a string) bool {
	switch {
	case c == "none", a == "websocket":
		return false
	case p != "none" && a != "none" && !(p == "websocket" && a == "http"):
		return false
	case c == "http":
		return m != "upgrade" && p != "http" && a != "http"
	case m == "upgrade":
		return a == "http" && p == "none"
	default: // a non-upgrade websocket
		return a != "websocket" && (p != "websocket" || a == "http")
	}
}

// ---- The fixture file ----------------------------------------------------

type transportFile struct {
	Comment       string            `json:"_comment"`
	Spec          string            `json:"spec"`
	FormatVersion int               `json:"formatVersion"`
	Units         map[string]string `json:"units"`
	Rules         []string          `json:"rules"`
	Decisions     []string          `json:"decisions"`
	Items         []transportItem   `json:"items"`
}

type transportItem struct {
	ID       string `json:"id"`
	Spec     string `json:"spec"`
	Function string `json:"function"`
	Comment  string `json:"_comment,omitempty"`

	Candidate          string `json:"candidate,omitempty"`
	Mode               string `json:"mode,omitempty"`
	Pending            string `json:"pending,omitempty"`
	Active             string `json:"active,omitempty"`
	WebSocketAvailable *bool  `json:"webSocketAvailable,omitempty"`
	HTTPAvailable      *bool  `json:"httpAvailable,omitempty"`
	HTTPStarted        *bool  `json:"httpStarted,omitempty"`
	ShortCircuitMs     *int64 `json:"shortCircuitMs,omitempty"`
	Activated          string `json:"activated,omitempty"`

	ExpectedDecision       string `json:"expectedDecision,omitempty"`
	ExpectedRule           *int   `json:"expectedRule,omitempty"`
	Reachable              *bool  `json:"reachable,omitempty"`
	ExpectedTransport      string `json:"expectedTransport,omitempty"`
	ExpectedShortCircuitMs *int64 `json:"expectedShortCircuitMs,omitempty"`
	ExpectedStartHTTP      *bool  `json:"expectedStartHttp,omitempty"`
	ExpectedMode           string `json:"expectedMode,omitempty"`
}

func ptr[T any](v T) *T { return &v }

func buildTransportFixture() transportFile {
	f := transportFile{
		Comment: "Transport fallback: the setTransportPending decision table (every combination) and the websocket-first " +
			"choice. Generated from the rules written as predicates (go test -run Fixture -update); do not edit by hand.",
		Spec:          "transport-fallback",
		FormatVersion: 1,
		Units:         map[string]string{"time": "milliseconds, as JSON integers"},
		Rules: []string{
			"0: the candidate is none (invalid) -> discard-candidate",
			"1: the candidate is http and a websocket is pending or active -> discard-candidate",
			"2: the candidate is a websocket and an http transport is pending -> replace-pending (drop the http transport's activation, disconnect it; the websocket proceeds)",
			"3: the candidate is a websocket whose mode is not upgrade and an http transport is active -> discard-candidate (the upgrade mechanism upgrades later)",
			"4: anything else -> proceed (becomes pending, activates when connected)",
		},
		Decisions: []string{
			"rules apply in order; the first that applies decides",
			"reachable=false marks combinations a correct connection manager never produces; they still have the rules' answer",
			"chooseTransport arms the short-circuit timer only when both websocket and http are available; a shortCircuitMs <= 0 means the default 2000",
			"http starts on a websocket failure, or when the short-circuit timer fires, only if http is available, not yet started in this attempt, and nothing is pending or active",
			"the upgrade step opens a websocket in upgrade mode on the same host when http has just been activated and a websocket is available",
		},
	}
	for _, c := range oracleTransports {
		for _, m := range oracleModes {
			for _, p := range oracleTransports {
				for _, a := range oracleTransports {
					d, r := oracleDecide(c, m, p, a)
					f.Items = append(f.Items, transportItem{
						ID: fmt.Sprintf("pending-%s-%s-%s-%s", c, m, p, a), Spec: "setTransportPending", Function: "decidePending",
						Candidate: c, Mode: m, Pending: p, Active: a,
						ExpectedDecision: d, ExpectedRule: ptr(r), Reachable: ptr(oracleReachable(c, m, p, a)),
					})
				}
			}
		}
	}
	// chooseTransport, from the proposal's pseudocode.
	for _, ws := range []bool{true, false} {
		for _, h := range []bool{true, false} {
			for _, sc := range []int64{2000, 250, 0, -5, -1, -2000, 1, 2147483647, 2147483648, 86400000000} {
				want, wantSC := "none", int64(0)
				switch {
				case ws && h:
					want, wantSC = "websocket", sc
					if sc <= 0 {
						wantSC = 2000
					}
				case ws:
					want = "websocket"
				case h:
					want = "http"
				}
				f.Items = append(f.Items, transportItem{
					ID:   fmt.Sprintf("choose-ws%t-http%t-sc%d", ws, h, sc),
					Spec: "chooseTransport", Function: "chooseTransport",
					WebSocketAvailable: ptr(ws), HTTPAvailable: ptr(h), ShortCircuitMs: ptr(sc),
					ExpectedTransport: want, ExpectedShortCircuitMs: ptr(wantSC),
				})
			}
		}
	}
	// The two HTTP starts.
	for _, fn := range []string{"httpOnWebSocketFailure", "httpOnShortCircuit"} {
		for _, h := range []bool{true, false} {
			for _, started := range []bool{false, true} {
				for _, p := range oracleTransports {
					for _, a := range oracleTransports {
						f.Items = append(f.Items, transportItem{
							ID:   fmt.Sprintf("%s-http%t-started%t-%s-%s", fn, h, started, p, a),
							Spec: "chooseTransport", Function: fn,
							HTTPAvailable: ptr(h), HTTPStarted: ptr(started), Pending: p, Active: a,
							ExpectedStartHTTP: ptr(h && !started && p == "none" && a == "none"),
						})
					}
				}
			}
		}
	}
	// The upgrade step.
	for _, act := range oracleTransports {
		for _, ws := range []bool{true, false} {
			want, mode := "none", "clean"
			if act == "http" && ws {
				want, mode = "websocket", "upgrade"
			}
			f.Items = append(f.Items, transportItem{
				ID:   fmt.Sprintf("upgrade-after-%s-ws%t", act, ws),
				Spec: "upgrade", Function: "upgradeAfterActivation",
				Activated: act, WebSocketAvailable: ptr(ws),
				ExpectedTransport: want, ExpectedMode: mode,
			})
		}
	}
	return f
}

func TestFixtureTransportMatchesOracle(t *testing.T) {
	checkGolden(t, "transport.json", buildTransportFixture())
}

func parseEnum(t *testing.T, names []string, s string) uint8 {
	t.Helper()
	for i, n := range names {
		if n == s {
			return uint8(i)
		}
	}
	t.Fatalf("unknown name %q", s)
	return 0
}

func TestFixtureTransportAgainstFunctions(t *testing.T) {
	var f transportFile
	loadFixture(t, "transport.json", &f)
	tr := func(s string) TransportKind { return TransportKind(parseEnum(t, oracleTransports, s)) }
	combos := 0
	for _, it := range f.Items {
		switch it.Function {
		case "decidePending":
			combos++
			d, r := DecidePending(tr(it.Candidate), Mode(parseEnum(t, oracleModes, it.Mode)), tr(it.Pending), tr(it.Active))
			if d.String() != it.ExpectedDecision || r != *it.ExpectedRule {
				t.Errorf("%s: DecidePending = (%v, %d), want (%s, %d)", it.ID, d, r, it.ExpectedDecision, *it.ExpectedRule)
			}
		case "chooseTransport":
			got := ChooseTransport(Availability{WebSocket: *it.WebSocketAvailable, HTTP: *it.HTTPAvailable}, time.Duration(*it.ShortCircuitMs)*time.Millisecond)
			if got.Transport.String() != it.ExpectedTransport || got.ShortCircuit != time.Duration(*it.ExpectedShortCircuitMs)*time.Millisecond {
				t.Errorf("%s: ChooseTransport = %+v", it.ID, got)
			}
		case "httpOnWebSocketFailure", "httpOnShortCircuit":
			s := TransportState{HTTPAvailable: *it.HTTPAvailable, HTTPStarted: *it.HTTPStarted, Pending: tr(it.Pending), Active: tr(it.Active)}
			fn := HTTPOnWebSocketFailure
			if it.Function == "httpOnShortCircuit" {
				fn = HTTPOnShortCircuit
			}
			if got := fn(s); got != *it.ExpectedStartHTTP {
				t.Errorf("%s: %s(%+v) = %t", it.ID, it.Function, s, got)
			}
		case "upgradeAfterActivation":
			tp, m := UpgradeAfterActivation(tr(it.Activated), Availability{WebSocket: *it.WebSocketAvailable, HTTP: true})
			if tp.String() != it.ExpectedTransport || m.String() != it.ExpectedMode {
				t.Errorf("%s: UpgradeAfterActivation = (%v, %v)", it.ID, tp, m)
			}
		default:
			t.Errorf("%s: unknown function %q", it.ID, it.Function)
		}
	}
	if combos != PendingTableLen {
		t.Errorf("fixture has %d decidePending items, want all %d combinations", combos, PendingTableLen)
	}
}

// TestPendingTableMatchesRulesAndReachability checks the table literal in
// fallback.go, row by row, against the oracle's predicates, and its row
// order against DecidePending's index arithmetic.
func TestPendingTableMatchesRulesAndReachability(t *testing.T) {
	tab := PendingTable()
	i := 0
	for c := range TransportKind(numTransports) {
		for m := range Mode(numModes) {
			for p := range TransportKind(numTransports) {
				for a := range TransportKind(numTransports) {
					row := tab[i]
					i++
					if row.Candidate != c || row.Mode != m || row.Pending != p || row.Active != a {
						t.Fatalf("row %d is %+v, want combination (%v, %v, %v, %v)", i-1, row, c, m, p, a)
					}
					d, r := oracleDecide(c.String(), m.String(), p.String(), a.String())
					if row.Decision.String() != d || row.Rule != r {
						t.Errorf("row (%v, %v, %v, %v): (%v, %d), rules say (%s, %d)", c, m, p, a, row.Decision, row.Rule, d, r)
					}
					if want := oracleReachable(c.String(), m.String(), p.String(), a.String()); row.Reachable != want {
						t.Errorf("row (%v, %v, %v, %v): reachable %t, want %t", c, m, p, a, row.Reachable, want)
					}
				}
			}
		}
	}
}

func TestPendingTableIsACopy(t *testing.T) {
	tab := PendingTable()
	tab[0].Decision = Proceed
	if d, _ := DecidePending(NoTransport, ModeClean, NoTransport, NoTransport); d != DiscardCandidate {
		t.Fatal("changing the returned table changed DecidePending")
	}
}

func TestEnumStringsNameOutOfRangeValues(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{TransportKind(9).String(), "TransportKind(9)"}, {Mode(9).String(), "Mode(9)"}, {Decision(9).String(), "Decision(9)"},
		{WebSocket.String(), "websocket"}, {ModeUpgrade.String(), "upgrade"}, {ReplacePending.String(), "replace-pending"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func FuzzDecidePending(f *testing.F) {
	f.Add(uint8(1), uint8(0), uint8(2), uint8(0))
	f.Add(uint8(255), uint8(255), uint8(255), uint8(255))
	f.Fuzz(func(t *testing.T, c, m, p, a uint8) {
		d, r := DecidePending(TransportKind(c), Mode(m), TransportKind(p), TransportKind(a))
		valid := c < numTransports && m < numModes && p < numTransports && a < numTransports
		if !valid && (d != DiscardCandidate || r != 0) {
			t.Fatalf("out-of-range input gave (%v, %d)", d, r)
		}
		if valid {
			want, wantRule := oracleDecide(TransportKind(c).String(), Mode(m).String(), TransportKind(p).String(), TransportKind(a).String())
			if d.String() != want || r != wantRule {
				t.Fatalf("(%d,%d,%d,%d): (%v, %d), want (%s, %d)", c, m, p, a, d, r, want, wantRule)
			}
		}
		if d > ReplacePending || r < 0 || r > 4 {
			t.Fatalf("undefined answer (%v, %d)", d, r)
		}
	})
}

func BenchmarkDecidePending(b *testing.B) {
	b.ReportAllocs()
	var in [64][4]uint8
	for i := range in {
		in[i] = [4]uint8{uint8(i % 3), uint8(i & 3), uint8(i / 4 % 3), uint8(i / 16 % 3)}
	}
	var sum int
	for i := range b.N {
		x := &in[i&63]
		d, r := DecidePending(TransportKind(x[0]), Mode(x[1]), TransportKind(x[2]), TransportKind(x[3]))
		sum += int(d) + r
	}
	sinkInt = sum
}

var sinkInt int
