package reconnect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

type scenariosFile struct {
	Comment       string            `json:"_comment"`
	Spec          string            `json:"spec"`
	FormatVersion int               `json:"formatVersion"`
	Units         map[string]string `json:"units"`
	Defaults      map[string]any    `json:"defaults"`
	Grammar       map[string]string `json:"grammar"`
	Decisions     []string          `json:"decisions"`
	Items         []scenario        `json:"items"`
}

func buildScenariosFixture() scenariosFile {
	return scenariosFile{
		Comment: "The engine end to end: each scenario is a configuration, pinned random draws, and a timeline of events with the exact " +
			"actions the spec requires. Written by hand from the spec (scenarios_test.go); go test -run Fixture -update writes this file. Do not edit by hand.",
		Spec:          "engine",
		FormatVersion: 1,
		Units:         map[string]string{"time": "milliseconds from the scenario's start, as JSON integers"},
		Defaults: map[string]any{
			"endpoint": "", "webSocket": true, "http": true, "policy": "websocket-first", "shortCircuitMs": 2000,
			"disconnectedRetryTimeoutMs": 15000, "suspendedRetryTimeoutMs": 30000, "connectionStateTtlMs": 120000,
			"realtimeRequestTimeoutMs": 10000, "httpRequestTimeoutMs": 10000, "httpMaxRetryCount": 3,
		},
		Grammar: map[string]string{
			"events":     "connect | close | viable T<n> | connected T<n> | failed T<n> <failure> | closed T<n> [<failure>] | timer <timer> | connectivity up|down | websocket-check up|down | network-up | network-down | fatal <failure>",
			"failure":    "<kind>[:<status>[:<server>]] with kind one of dns, unreachable, refused, timeout, http-status, disconnected, token, other",
			"timer":      "short-circuit | connect T<n> | retry | state-ttl | connectivity-check | close | websocket-slow | websocket-give-up  (at most one live timer has each name)",
			"actions":    "open T<n> <websocket|http> <host> <clean|resume|recover|upgrade> | dispose T<n> | activate T<n> | timer <timer> at=<ms> | cancel <timer> | check | check-websocket | state <from> <to> <reason>[ retryIn=<ms>]",
			"retryIn":    "present exactly when the new state is disconnected or suspended; milliseconds with up to six decimals",
			"transports": "T1, T2, … number the transports in the order the engine opens them",
			"draws":      "the uniform draws the engine's source returns, in order: one per RTB1 delay, and httpMaxRetryCount at once when the first fallback host is needed",
			"matching":   "within one step the state changes must appear in the given order; the other actions are compared as a multiset",
		},
		Decisions: []string{
			"transport fallback before host fallback: websocket on the primary, HTTP on the primary, the connectivity check, HTTP on each fallback host (a check before each), then DISCONNECTED",
			"each transport has realtimeRequestTimeout to connect; a timeout is a qualifying failure",
			"the connectivity check has httpRequestTimeout to answer; no answer counts as down",
			"websocket-check policy: slow timer 4 s (websocket check, plus a connectivity check whose down means DISCONNECTED), give-up timer 10 s (HTTP unless the websocket check passed); a websocket that failed on every host gets a websocket check at once",
			"activating a websocket closes every other transport",
			"a drop from CONNECTED reconnects at once without consuming a retry number, at most once a second; a second drop within 1 s of the last immediate reconnect waits an RTB1 delay",
			"the retry count resets on CONNECTED and on SUSPENDED; once connectionStateTtl has passed without a connection every failure returns to SUSPENDED with the flat suspendedRetryTimeout",
			"a transport that reports connected without being viable first is treated as viable, then connected",
			"reconnects use resume mode; a connect from INITIALIZED, CLOSED or FAILED is clean",
		},
		Items: normalizedScenarios(),
	}
}

// normalizedScenarios writes empty lists as [] rather than null.
func normalizedScenarios() []scenario {
	all := allScenarios()
	for i := range all {
		if all[i].Draws == nil {
			all[i].Draws = []float64{}
		}
		for j := range all[i].Steps {
			if all[i].Steps[j].Expect == nil {
				all[i].Steps[j].Expect = []string{}
			}
		}
	}
	return all
}

func TestFixtureScenariosMatchesOracle(t *testing.T) {
	checkGolden(t, "scenarios.json", buildScenariosFixture())
}

// scenarioRunner drives an Engine through a scenario, translating the
// fixture's names to and from the engine's IDs.
type scenarioRunner struct {
	t      *testing.T
	e      *Engine
	t0     time.Time
	timers map[string]TimerID // live timers by fixture name
	names  map[TimerID]string
}

func newScenarioEngine(t *testing.T, s scenario) *Engine {
	c := DefaultConfig()
	if s.Config.ShortCircuitMs != 0 {
		c.ShortCircuit = time.Duration(s.Config.ShortCircuitMs) * time.Millisecond
	}
	c.Endpoint.Endpoint = s.Config.Endpoint
	c.Endpoint.FallbackHosts = s.Config.FallbackHosts
	if s.Config.WebSocket != nil {
		c.Transports.WebSocket = *s.Config.WebSocket
	}
	if s.Config.HTTP != nil {
		c.Transports.HTTP = *s.Config.HTTP
	}
	if s.Config.ConnectionStateTTLMs != 0 {
		c.Timeouts.ConnectionStateTTL = time.Duration(s.Config.ConnectionStateTTLMs) * time.Millisecond
	}
	switch s.Config.Policy {
	case "", "websocket-first":
	case "http-first":
		c.Policy = PolicyHTTPFirst
	case "websocket-check":
		c.Policy = PolicyWebSocketCheck
	default:
		t.Fatalf("%s: unknown policy %q", s.ID, s.Config.Policy)
	}
	c.Source = &strictSource{t: t, id: s.ID, draws: s.Draws}
	e, err := NewEngine(c)
	if err != nil {
		t.Fatalf("%s: %v", s.ID, err)
	}
	return e
}

// strictSource returns the scenario's pinned draws and fails the test if the
// engine draws more.
type strictSource struct {
	t     *testing.T
	id    string
	draws []float64
	i     int
}

func (s *strictSource) Float64() float64 {
	if s.i >= len(s.draws) {
		s.t.Fatalf("%s: the engine drew more than the %d pinned draws", s.id, len(s.draws))
	}
	s.i++
	return s.draws[s.i-1]
}

func parseFailure(t *testing.T, s string) Failure {
	parts := strings.Split(s, ":")
	k, ok := failureKinds[parts[0]]
	if !ok {
		t.Fatalf("unknown failure kind %q", parts[0])
	}
	f := Failure{Kind: k}
	if len(parts) > 1 {
		f.Status, _ = strconv.Atoi(parts[1])
	}
	if len(parts) > 2 {
		f.Server = parts[2]
	}
	return f
}

func parseTransportRef(t *testing.T, s string) TransportID {
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "T"), 10, 64)
	if err != nil || !strings.HasPrefix(s, "T") {
		t.Fatalf("bad transport %q", s)
	}
	return TransportID(n)
}

func (r *scenarioRunner) event(s string) Event {
	f := strings.Fields(s)
	kinds := map[string]EventKind{"connect": EventConnect, "close": EventClose, "viable": EventTransportViable,
		"connected": EventTransportConnected, "failed": EventTransportFailed, "closed": EventTransportClosed,
		"network-up": EventNetworkUp, "network-down": EventNetworkDown}
	switch f[0] {
	case "connectivity":
		return Event{Kind: EventConnectivity, Up: f[1] == "up"}
	case "websocket-check":
		return Event{Kind: EventWebSocketCheck, Up: f[1] == "up"}
	case "timer":
		name := strings.Join(f[1:], " ")
		id, ok := r.timers[name]
		if !ok {
			id = 1 << 40 // a timer the engine never started
		}
		return Event{Kind: EventTimerFired, Timer: id}
	case "fatal":
		return Event{Kind: EventFatal, Failure: parseFailure(r.t, f[1])}
	}
	k, ok := kinds[f[0]]
	if !ok {
		r.t.Fatalf("unknown event %q", s)
	}
	ev := Event{Kind: k}
	if len(f) > 1 {
		ev.Transport = parseTransportRef(r.t, f[1])
	}
	if len(f) > 2 {
		ev.Failure = parseFailure(r.t, f[2])
	}
	return ev
}

// render writes an action in the fixture's grammar, keeping the timer names
// up to date.
func (r *scenarioRunner) render(a Action) string {
	ms := func(tm time.Time) string { return string(msFromNs(int64(tm.Sub(r.t0)))) }
	switch a.Kind {
	case ActionStartTimer, ActionCancelTimer:
		name := a.TimerKind.String()
		if a.TimerKind == TimerConnect {
			name += fmt.Sprintf(" T%d", a.Transport)
		}
		if a.Kind == ActionCancelTimer {
			delete(r.timers, r.names[a.Timer])
			return "cancel " + name
		}
		r.timers[name], r.names[a.Timer] = a.Timer, name
		return "timer " + name + " at=" + ms(a.Due)
	case ActionStateChange:
		s := "state " + a.From.String() + " " + a.To.String() + " " + a.Reason.String()
		if a.To == Disconnected || a.To == Suspended {
			s += " retryIn=" + string(msFromNs(int64(a.RetryIn)))
		}
		return s
	case ActionOpenTransport:
		return fmt.Sprintf("open T%d %v %s %v", a.Transport, a.TransportKind, a.Host, a.Mode)
	case ActionDisposeTransport:
		return fmt.Sprintf("dispose T%d", a.Transport)
	case ActionActivateTransport:
		return fmt.Sprintf("activate T%d", a.Transport)
	case ActionCheckConnectivity:
		return "check"
	case ActionCheckWebSocket:
		return "check-websocket"
	}
	return a.String()
}

// sameActions compares per the fixture's matching rule.
func sameActions(got, want []string) bool {
	states := func(x []string) (st, rest []string) {
		for _, s := range x {
			if strings.HasPrefix(s, "state ") {
				st = append(st, s)
			} else {
				rest = append(rest, s)
			}
		}
		slices.Sort(rest)
		return st, rest
	}
	gs, gr := states(got)
	ws, wr := states(want)
	return slices.Equal(gs, ws) && slices.Equal(gr, wr)
}

func runScenario(t *testing.T, s scenario) {
	r := &scenarioRunner{t: t, e: newScenarioEngine(t, s), t0: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		timers: map[string]TimerID{}, names: map[TimerID]string{}}
	var out []Action
	for i, st := range s.Steps {
		ev := r.event(st.Event)
		if ev.Kind == EventTimerFired {
			delete(r.timers, r.names[ev.Timer])
		}
		out = r.e.Step(r.t0.Add(time.Duration(st.AtMs)*time.Millisecond), ev, out[:0])
		var got []string
		for _, a := range out {
			got = append(got, r.render(a))
		}
		if !sameActions(got, st.Expect) {
			t.Fatalf("%s step %d (%d ms, %s):\n got: %q\nwant: %q", s.ID, i, st.AtMs, st.Event, got, st.Expect)
		}
		if st.ExpectState != "" && r.e.State().String() != st.ExpectState {
			t.Fatalf("%s step %d: state %v, want %s", s.ID, i, r.e.State(), st.ExpectState)
		}
		if st.ExpectRetryCount != nil && r.e.RetryCount() != *st.ExpectRetryCount {
			t.Fatalf("%s step %d: retry count %d, want %d", s.ID, i, r.e.RetryCount(), *st.ExpectRetryCount)
		}
	}
	if src := r.e.src.(*strictSource); src.i != len(src.draws) {
		t.Fatalf("%s: the engine drew %d of the %d pinned draws", s.ID, src.i, len(src.draws))
	}
}

func TestFixtureScenariosAgainstEngine(t *testing.T) {
	var f scenariosFile
	loadFixture(t, "scenarios.json", &f)
	for _, s := range f.Items {
		t.Run(s.ID, func(t *testing.T) { runScenario(t, s) })
	}
}
