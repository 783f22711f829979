package engine_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/conform"
	"github.com/reconnect-go/reconnect/internal/exhaustive"
	"github.com/reconnect-go/reconnect/internal/fixturetest"
	"github.com/reconnect-go/reconnect/internal/rows"
)

// The decision for a transport lost before CONNECTED (rows.LossRows,
// docs/engine.md's rows-loss-decision table) checked against the engine:
// random timelines drive the engine into the combinations, and at every
// step that loses a transport before CONNECTED the engine's actions must be
// an instance of a row of the losses table that the decision names for the
// combination the engine is in; no step may meet a combination the
// decision calls unreachable; every decision row is reached under every
// policy it can apply to.

func TestLossRowsAreComplete(t *testing.T) {
	if err := rows.CheckLossRows(); err != nil {
		t.Fatal(err)
	}
}

var lossEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// lossDriver plays the SDK around an engine with random answers.
type lossDriver struct {
	e      *engine.Engine
	rng    *rand.Rand
	now    time.Time
	live   []engine.TransportID
	timers map[engine.TimerID]engine.Action // live timers, by ID
	names  map[engine.TimerID]string
	checks map[engine.CheckID]engine.ActionKind
}

// render writes an action in the fixture grammar, tracking what is live.
func (d *lossDriver) render(a engine.Action) string {
	switch a.Kind {
	case engine.ActionStartTimer:
		d.timers[a.Timer], d.names[a.Timer] = a, conform.TimerName(a)
	case engine.ActionCancelTimer:
		delete(d.timers, a.Timer)
	case engine.ActionOpenTransport:
		d.live = append(d.live, a.Transport)
	case engine.ActionDisposeTransport:
		d.live = slices.DeleteFunc(d.live, func(id engine.TransportID) bool { return id == a.Transport })
	case engine.ActionCheckConnectivity, engine.ActionCheckWebSocket:
		d.checks[a.Check] = a.Kind
	}
	return conform.ActionLine(a, lossEpoch)
}

// lossFailures are the failures a transport is lost with: each class of
// the failure dimension, and a clean close.
var lossFailures = []reconnect.Failure{
	{Kind: reconnect.FailureDisconnected, Status: 503}, {Kind: reconnect.FailureDisconnected, Status: 500},
	{Kind: reconnect.FailureRefused}, {Kind: reconnect.FailureDNS}, {Kind: reconnect.FailureHTTPStatus, Status: 504},
	{Kind: reconnect.FailureHTTPStatus, Status: 401}, {Kind: reconnect.FailureDisconnected, Status: 400}, {Kind: reconnect.FailureOther}, {},
}

// next picks the next event.
func (d *lossDriver) next() engine.Event {
	for {
		switch r := d.rng.IntN(20); {
		case r < 5: // the next timer fires
			var id engine.TimerID
			for k, a := range d.timers {
				if id == 0 || a.Due.Before(d.timers[id].Due) || a.Due.Equal(d.timers[id].Due) && k < id {
					id = k
				}
			}
			if id == 0 {
				continue
			}
			if due := d.timers[id].Due; due.After(d.now) {
				d.now = due
			}
			delete(d.timers, id)
			return engine.Event{Kind: engine.EventTimerFired, Timer: id}
		case r < 13: // a transport reports
			if len(d.live) == 0 {
				continue
			}
			d.now = d.now.Add(time.Duration(d.rng.IntN(1500)) * time.Millisecond)
			id := d.live[d.rng.IntN(len(d.live))]
			switch k := d.rng.IntN(10); {
			case k < 4:
				return engine.Event{Kind: engine.EventTransportViable, Transport: id}
			case k < 5:
				return engine.Event{Kind: engine.EventTransportConnected, Transport: id}
			default:
				kind := engine.EventTransportFailed
				if k >= 8 {
					kind = engine.EventTransportClosed
				}
				return engine.Event{Kind: kind, Transport: id, Failure: lossFailures[d.rng.IntN(len(lossFailures))]}
			}
		case r < 18: // a check answers
			if len(d.checks) == 0 {
				continue
			}
			ids := make([]engine.CheckID, 0, len(d.checks))
			for id := range d.checks {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			id := ids[d.rng.IntN(len(ids))]
			kind := engine.EventConnectivity
			if d.checks[id] == engine.ActionCheckWebSocket {
				kind = engine.EventWebSocketCheck
			}
			delete(d.checks, id)
			d.now = d.now.Add(time.Duration(d.rng.IntN(3000)) * time.Millisecond)
			return engine.Event{Kind: kind, Check: id, Up: d.rng.IntN(2) == 0}
		default: // the user or the OS
			d.now = d.now.Add(time.Duration(d.rng.IntN(3000)) * time.Millisecond)
			return engine.Event{Kind: []engine.EventKind{engine.EventConnect, engine.EventConnect, engine.EventNetworkUp, engine.EventNetworkDown}[d.rng.IntN(4)]}
		}
	}
}

// eventText writes a loss event in the fixture grammar.
func (d *lossDriver) eventText(ev engine.Event) string {
	switch ev.Kind {
	case engine.EventTimerFired:
		return "timer " + d.names[ev.Timer]
	case engine.EventTransportFailed:
		return fmt.Sprintf("failed T%d %v", ev.Transport, ev.Failure)
	}
	if ev.Failure.Kind == reconnect.FailureNone {
		return fmt.Sprintf("closed T%d", ev.Transport)
	}
	return fmt.Sprintf("closed T%d %v", ev.Transport, ev.Failure)
}

// lossConfig draws a configuration.
func lossConfig(rng *rand.Rand) engine.Config {
	cfg := engine.AblyConfig()
	cfg.Policy = []engine.Policy{engine.PolicyWebSocketFirst, engine.PolicyHTTPFirst, engine.PolicyWebSocketCheck}[rng.IntN(3)]
	cfg.Transports = []reconnect.Availability{{WebSocket: true, HTTP: true}, {WebSocket: true, HTTP: true}, {WebSocket: true}, {HTTP: true}}[rng.IntN(4)]
	switch rng.IntN(4) {
	case 1:
		cfg.Endpoint.Endpoint = "rt.example.com" // no fallback host
	case 2, 3:
		cfg.Endpoint.FallbackHosts = []string{"fb1.example.com"} // one
	}
	cfg.RememberTransport = rng.IntN(2) == 0
	if rng.IntN(3) == 0 {
		cfg.Preference = reconnect.Preference{Transport: reconnect.HTTP, At: lossEpoch, Reason: reconnect.PreferenceConnected}
	}
	if rng.IntN(4) == 0 {
		cfg.Timeouts.ConnectionStateTTL = 25 * time.Second
	}
	if rng.IntN(6) == 0 {
		cfg.ReconnectWindow, cfg.ImmediateShare = 5*time.Second, 0.5
	}
	cfg.Source = rand.New(rand.NewPCG(rng.Uint64(), 1))
	return cfg
}

// lossRun is what the exploration reached.
type lossRun struct {
	reached map[rows.LossCase]bool
	hits    map[string]map[string]int // loss row ID → policy → steps
}

func exploreLosses(t *testing.T, runs, steps int, seed uint64) lossRun {
	t.Helper()
	res := lossRun{reached: map[rows.LossCase]bool{}, hits: map[string]map[string]int{}}
	rng := rand.New(rand.NewPCG(seed, 2))
	for run := range runs {
		cfg := lossConfig(rng)
		e, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := &lossDriver{e: e, rng: rng, now: lossEpoch, timers: map[engine.TimerID]engine.Action{}, names: map[engine.TimerID]string{}, checks: map[engine.CheckID]engine.ActionKind{}}
		ev := engine.Event{Kind: engine.EventConnect}
		var out []engine.Action
		for i := range steps {
			if i > 0 {
				ev = d.next()
			}
			c, isLoss := engine.LossCaseOf(e, ev)
			text := ""
			if isLoss {
				text = d.eventText(ev)
			}
			out = e.Step(d.now, ev, out[:0])
			acts := make([]string, len(out))
			for j, a := range out {
				acts[j] = d.render(a)
			}
			if !isLoss {
				continue
			}
			r := rows.LossRows[rows.DecideLoss(c)]
			if r.Unreachable != "" {
				t.Fatalf("run %d step %d (%s): the engine reached %s, which loss row %s calls unreachable (%s); actions %q",
					run, i, text, c, r.ID, r.Unreachable, acts)
			}
			ok := slices.ContainsFunc(r.Outcome, func(id string) bool {
				row, _ := rows.ByID(id)
				return row.Matches(c[rows.LossPolicy], "connecting", text, acts)
			})
			if !ok {
				t.Fatalf("run %d step %d (%s) in %s: loss row %s says %v, the engine did %q", run, i, text, c, r.ID, r.Outcome, acts)
			}
			res.reached[c] = true
			if res.hits[r.ID] == nil {
				res.hits[r.ID] = map[string]int{}
			}
			res.hits[r.ID][c[rows.LossPolicy]]++
		}
	}
	return res
}

// reachableLoss returns, per loss row ID, the policies of the combinations
// it decides that it does not call unreachable, and how many there are.
func reachableLoss() (map[string][]string, int) {
	out, n := map[string][]string{}, 0
	for _, c := range rows.LossCases() {
		r := rows.LossRows[rows.DecideLoss(c)]
		if r.Unreachable != "" {
			continue
		}
		n++
		if !slices.Contains(out[r.ID], c[rows.LossPolicy]) {
			out[r.ID] = append(out[r.ID], c[rows.LossPolicy])
		}
	}
	return out, n
}

func TestLossTableDrivesTheEngine(t *testing.T) {
	// 20000 runs reach about 93 % of the reachable combinations (the log
	// says which are left) in some 5 s; 2500 (the default mode and the
	// race detector, ten times slower) reach every loss row under every
	// policy, which is what the test asserts. The exhaustive mode
	// (RECONNECT_EXHAUSTIVE=1, CI) runs the 20000 for the log of the
	// combinations left.
	runs := 2500
	switch {
	case testing.Short():
		runs = 800
	case exhaustive.On() && !raceDetector:
		runs = 20000
	}
	res := exploreLosses(t, runs, 80, 1)
	want, n := reachableLoss()
	for id, pols := range want {
		for _, p := range pols {
			if res.hits[id][p] == 0 && !testing.Short() {
				t.Errorf("loss row %s: no timeline reached it under %s", id, p)
			}
		}
	}
	t.Logf("%d of %d reachable combinations reached", len(res.reached), n)
	if !testing.Short() {
		var missed []string
		for _, c := range rows.LossCases() {
			if rows.LossRows[rows.DecideLoss(c)].Unreachable == "" && !res.reached[c] {
				missed = append(missed, c.String())
			}
		}
		slices.Sort(missed)
		for _, m := range missed {
			t.Log("not reached: " + m)
		}
	}
}

// scenarioLossRows replays every scenario of fixtures/scenarios.json and
// returns, per loss row, per policy, the scenarios with a step it decides.
func scenarioLossRows(t *testing.T) map[string]map[string][]string {
	t.Helper()
	type item struct {
		ID string `json:"id"`
	}
	out := map[string]map[string][]string{}
	for _, sc := range loadFixtureScenarios[item](t) {
		in, id := sc.in, sc.item
		cfg, _, err := conform.ScenarioConfig(in)
		if err != nil {
			t.Fatalf("%s: %v", id.ID, err)
		}
		e, err := engine.New(cfg)
		if err != nil {
			t.Fatalf("%s: %v", id.ID, err)
		}
		d := &lossDriver{e: e, timers: map[engine.TimerID]engine.Action{}, names: map[engine.TimerID]string{}, checks: map[engine.CheckID]engine.ActionKind{}}
		var acts []engine.Action
		for _, st := range in.Steps {
			ev, err := conform.ParseEvent(st.Event, func(name string) engine.TimerID {
				for k, n := range d.names {
					if _, live := d.timers[k]; live && n == name {
						delete(d.timers, k)
						return k
					}
				}
				return 1 << 40
			})
			if err != nil {
				t.Fatalf("%s: %v", id.ID, err)
			}
			c, isLoss := engine.LossCaseOf(e, ev)
			acts = e.Step(lossEpoch.Add(time.Duration(st.AtMs)*time.Millisecond), ev, acts[:0])
			for _, a := range acts {
				d.render(a)
			}
			if !isLoss {
				continue
			}
			r := rows.LossRows[rows.DecideLoss(c)]
			if r.Unreachable != "" {
				t.Errorf("scenario %s (%s) reaches %s, which loss row %s calls unreachable", id.ID, st.Event, c, r.ID)
				continue
			}
			p := c[rows.LossPolicy]
			if out[r.ID] == nil {
				out[r.ID] = map[string][]string{}
			}
			if !slices.Contains(out[r.ID][p], id.ID) {
				out[r.ID][p] = append(out[r.ID][p], id.ID)
			}
		}
	}
	return out
}

// TestLossRowsPinned: every scenario a loss row names has a step the
// decision gives to that row, and every loss row is pinned under every
// policy it can apply to.
func TestLossRowsPinned(t *testing.T) {
	got := scenarioLossRows(t)
	want, _ := reachableLoss()
	for _, r := range rows.LossRows {
		for _, p := range r.Pins {
			found := false
			for _, ids := range got[r.ID] {
				found = found || slices.Contains(ids, p)
			}
			if !found {
				t.Errorf("loss row %s: scenario %s has no step in it", r.ID, p)
			}
		}
		for _, pol := range want[r.ID] {
			if !slices.ContainsFunc(r.Pins, func(p string) bool { return slices.Contains(got[r.ID][pol], p) }) {
				t.Errorf("loss row %s: no scenario it names pins it under %s (candidates: %v)", r.ID, pol, got[r.ID][pol])
			}
		}
	}
}

// TestRowsLossDecisionDocument: docs/engine.md's loss-decision table is
// rows.LossRows (go test -run Rows ./engine -args -update rewrites it, with the other tables).
func TestRowsLossDecisionDocument(t *testing.T) {
	const path = "../docs/engine.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	begin, end := "<!-- loss-decision:begin -->\n", "<!-- loss-decision:end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the loss-decision markers", path)
	}
	want := rows.RenderLossTable()
	if s[i+len(begin):j] == want {
		return
	}
	if !*fixturetest.Update {
		t.Fatalf("%s: the loss-decision table is out of date; run go test -run Rows ./engine -args -update", path)
	}
	s = s[:i+len(begin)] + want + s[j:]
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
