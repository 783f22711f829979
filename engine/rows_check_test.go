package engine_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/conform"
	"github.com/reconnect-go/reconnect/internal/fixturetest"
	"github.com/reconnect-go/reconnect/internal/rows"
)

// rowScenario is a scenario of fixtures/scenarios.json with what the engine
// did at each step.
type rowScenario struct {
	id     string
	policy string // wf, hf or wc
	rows   []string
	events []string
	before []string // the state before each step
	got    [][]string
}

var policyShort = map[string]string{"": "wf", "websocket-first": "wf", "http-first": "hf", "websocket-check": "wc"}

func loadRowScenarios(t *testing.T) map[string]*rowScenario {
	t.Helper()
	type item struct {
		ID     string   `json:"id"`
		Rows   []string `json:"rows"`
		Config struct {
			Policy string `json:"policy"`
		} `json:"config"`
		Steps []struct {
			Event string `json:"event"`
		} `json:"steps"`
	}
	out := map[string]*rowScenario{}
	for _, sc := range loadFixtureScenarios[item](t) {
		in, it := sc.in, sc.item
		res, err := conform.RunScenario(in)
		if err != nil {
			t.Fatalf("%s: %v", it.ID, err)
		}
		s := &rowScenario{id: it.ID, policy: policyShort[it.Config.Policy], rows: it.Rows}
		state := "initialized"
		for i, st := range it.Steps {
			s.events = append(s.events, st.Event)
			s.before = append(s.before, state)
			s.got = append(s.got, res[i].Actions)
			state = res[i].State
		}
		out[it.ID] = s
	}
	return out
}

// stepMatches reports whether step i of s is an instance of row r.
func stepMatches(r rows.Row, s *rowScenario, i int) bool {
	return r.Matches(s.policy, s.before[i], s.events[i], s.got[i])
}

// TestRowsAgainstScenarios: every row of docs/engine.md is pinned by
// scenarios, each of which has a step where the engine does what the row
// says; every scenario names rows that exist.
func TestRowsAgainstScenarios(t *testing.T) {
	scen := loadRowScenarios(t)
	ids := map[string]bool{}
	for _, r := range rows.All {
		if ids[r.ID] {
			t.Errorf("row %s: ID used twice", r.ID)
		}
		ids[r.ID] = true
		prefix := map[string][]string{"ALL": {"wf", "hf", "wc"}, "SS": {"wf", "hf", "wc"}, "WF": {"wf"}, "HF": {"hf"}, "WC": {"wc"}, "WH": {"wf", "hf"}}
		if p, _, _ := strings.Cut(r.ID, "-"); !slices.Equal(prefix[p], r.Policies) {
			t.Errorf("row %s: its prefix says policies %v, it lists %v", r.ID, prefix[p], r.Policies)
		}
		if r.Placeholder != (len(r.Pins) == 0) {
			t.Errorf("row %s: a row has scenarios exactly when it is not a placeholder", r.ID)
		}
		for _, p := range r.Pins {
			s := scen[p]
			if s == nil {
				t.Errorf("row %s: scenario %s does not exist", r.ID, p)
				continue
			}
			found := false
			for i := range s.events {
				if stepMatches(r, s, i) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("row %s: no step of scenario %s (policy %s) matches it", r.ID, p, s.policy)
			}
		}
	}
	pinned := pinnedPolicies(scen)
	for _, r := range rows.All {
		if r.Placeholder || r.OnePath {
			continue
		}
		for _, p := range r.Policies {
			gap := rows.KnownGaps[r.ID+"/"+p] != ""
			switch got := slices.Contains(pinned[r.ID], p); {
			case !got && !gap:
				t.Errorf("row %s: no scenario pins it under policy %s", r.ID, p)
			case got && gap:
				t.Errorf("row %s: pinned under policy %s, but listed in KnownGaps", r.ID, p)
			}
		}
	}
	for _, s := range scen {
		if len(s.rows) == 0 {
			t.Errorf("scenario %s names no row", s.id)
		}
		for _, id := range s.rows {
			if !ids[id] {
				t.Errorf("scenario %s names row %s, which does not exist", s.id, id)
			}
		}
	}
}

// TestRowsExplainEveryStep: every step of every scenario is an instance of
// at least one row that names its state and event (not "any"), so the
// tables leave out no state and event the scenarios exercise.
func TestRowsExplainEveryStep(t *testing.T) {
	scen := loadRowScenarios(t)
	for _, s := range scen {
		for i := range s.events {
			ok := slices.ContainsFunc(rows.All, func(r rows.Row) bool {
				return !r.Placeholder && r.States[0] != "any" && r.Events[0] != "any" && stepMatches(r, s, i)
			})
			if !ok {
				t.Errorf("scenario %s step %d (%s in %s): no row explains %q", s.id, i, s.events[i], s.before[i], s.got[i])
			}
		}
	}
}

// TestRowsDocument: docs/engine.md's row tables are the table of rows
// (go test -run Rows ./engine -args -update rewrites them).
func TestRowsDocument(t *testing.T) {
	const path = "../docs/engine.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	pinned := pinnedPolicies(loadRowScenarios(t))
	ids := map[string]bool{}
	for _, r := range rows.All {
		ids[r.ID] = true
	}
	tables := []string{"index"}
	for _, r := range rows.All {
		if !slices.Contains(tables, r.Table) {
			tables = append(tables, r.Table)
		}
	}
	for _, name := range tables {
		begin, end := "<!-- rows-"+name+":begin -->\n", "<!-- rows-"+name+":end -->"
		i, j := strings.Index(s, begin), strings.Index(s, end)
		if i < 0 || j < i {
			t.Errorf("%s lacks the rows-%s markers", path, name)
			continue
		}
		want := renderRows(name, pinned)
		if name == "index" {
			want = renderIndex()
		}
		if s[i+len(begin):j] == want {
			continue
		}
		if !*fixturetest.Update {
			t.Errorf("%s: table rows-%s is out of date; run go test -run Rows ./engine -args -update", path, name)
			continue
		}
		s = s[:i+len(begin)] + want + s[j:]
	}
	for _, id := range regexp.MustCompile(`\b(?:ALL|SS|WF|HF|WC|WH)-[A-Z]+-[a-z0-9-]+-[0-9]+\b`).FindAllString(s, -1) {
		if !ids[id] {
			t.Errorf("%s names row %s, which does not exist", path, id)
		}
	}
	if *fixturetest.Update && s != string(data) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pinnedPolicies returns, per row, the policies under which a scenario it
// names pins it.
func pinnedPolicies(scen map[string]*rowScenario) map[string][]string {
	out := map[string][]string{}
	for _, r := range rows.All {
		for _, p := range r.Pins {
			s := scen[p]
			if s == nil || slices.Contains(out[r.ID], s.policy) {
				continue
			}
			for i := range s.events {
				if stepMatches(r, s, i) {
					out[r.ID] = append(out[r.ID], s.policy)
					break
				}
			}
		}
	}
	return out
}

// renderRows renders the rows of one table as Markdown; the policies
// column marks with * a policy no scenario pins the row under.
func renderRows(table string, pinned map[string][]string) string {
	var b strings.Builder
	b.WriteString("| row | policies | state | event | when | actions, in order | follows | scenarios |\n|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows.All {
		if r.Table != table {
			continue
		}
		acts := "(none)"
		if len(r.Actions) > 0 {
			q := make([]string, len(r.Actions))
			for i, a := range r.Actions {
				q[i] = "`" + a + "`"
			}
			acts = strings.Join(q, " → ")
		}
		for _, w := range r.Without {
			acts += "; never `" + w + "`"
		}
		ev := make([]string, len(r.Events))
		for i, e := range r.Events {
			ev[i] = "`" + e + "`"
		}
		pins := "—"
		if len(r.Pins) > 0 {
			pins = "`" + strings.Join(r.Pins, "`, `") + "`"
		}
		pols := make([]string, len(r.Policies))
		for i, p := range r.Policies {
			pols[i] = p
			if !r.Placeholder && !r.OnePath && !slices.Contains(pinned[r.ID], p) {
				pols[i] += "*"
			}
		}
		polText := strings.Join(pols, ", ")
		if r.OnePath {
			polText += " (one path)"
		}
		fmt.Fprintf(&b, "| <a id=\"%s\"></a>`%s` | %s | %s | %s | %s | %s | %s | %s |\n", strings.ToLower(r.ID), r.ID,
			polText, strings.Join(r.States, ", "), strings.Join(ev, ", "),
			strings.ReplaceAll(r.When, "|", "\\|"), strings.ReplaceAll(acts, "|", "\\|"), r.Spec, pins)
	}
	return b.String()
}

// eventKey is the kind of event a row's event template names: "viable",
// "timer retry", "connectivity up".
func eventKey(tmpl string) string {
	f := strings.Fields(tmpl)
	switch f[0] {
	case "timer", "connectivity", "websocket-check":
		if f[1] == "<timer>" {
			return "timer (stale)"
		}
		return f[0] + " " + f[1]
	}
	return f[0]
}

// renderIndex renders, for each state and event, the rows of each policy.
func renderIndex() string {
	states := strings.Split("initialized|connecting|connected|disconnected|suspended|closing|closed|failed", "|")
	type key struct{ state, event string }
	var keys []key
	cells := map[key]map[string][]string{}
	for _, st := range states {
		for _, r := range rows.All {
			if r.Events[0] == "any" || !slices.Contains(r.States, st) {
				continue
			}
			for _, e := range r.Events {
				k := key{st, eventKey(e)}
				if cells[k] == nil {
					cells[k] = map[string][]string{}
					keys = append(keys, k)
				}
				for _, p := range r.Policies {
					if !slices.Contains(cells[k][p], r.ID) {
						cells[k][p] = append(cells[k][p], r.ID)
					}
				}
			}
		}
	}
	var b strings.Builder
	n, ph, per := 0, 0, map[string]int{}
	for _, r := range rows.All {
		if r.Placeholder {
			ph++
			continue
		}
		n++
		for _, p := range r.Policies {
			per[p]++
		}
	}
	fmt.Fprintf(&b, "%d rows (and %d placeholders): %d apply to websocket-first, %d to HTTP-first, %d to websocket-check.\n\n", n, ph, per["wf"], per["hf"], per["wc"])
	b.WriteString("| state | event | websocket-first | HTTP-first | websocket-check |\n|---|---|---|---|---|\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "| %s | `%s` |", k.state, k.event)
		for _, p := range []string{"wf", "hf", "wc"} {
			var links []string
			for _, id := range cells[k][p] {
				links = append(links, "["+id+"](#"+strings.ToLower(id)+")")
			}
			fmt.Fprintf(&b, " %s |", strings.Join(links, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestScenarioHeaderIsTheEngines: the defaults and the wall clock stated in
// fixtures/scenarios.json's header are the ones the engine and the scenario
// runner use, so a port can take them from the file alone.
func TestScenarioHeaderIsTheEngines(t *testing.T) {
	data, err := os.ReadFile("../fixtures/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Defaults map[string]any `json:"defaults"`
		Clock    struct {
			EpochUnixMs int64  `json:"epochUnixMs"`
			Epoch       string `json:"epoch"`
		} `json:"clock"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	c := engine.AblyConfig()
	h, err := reconnect.ResolveHosts(c.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	ms := func(d time.Duration) any { return float64(d.Milliseconds()) }
	fb := make([]any, len(h.Fallbacks))
	for i, x := range h.Fallbacks {
		fb[i] = x
	}
	want := map[string]any{
		"endpoint": "", "primaryHost": h.Primary, "fallbackHosts": fb,
		"webSocket": c.Transports.WebSocket, "http": c.Transports.HTTP, "policy": c.Policy.String(),
		"shortCircuitMs": ms(c.ShortCircuit), "disconnectedRetryTimeoutMs": ms(c.Timeouts.DisconnectedRetry),
		"suspendedRetryTimeoutMs": ms(c.Timeouts.SuspendedRetry), "connectionStateTtlMs": ms(c.Timeouts.ConnectionStateTTL),
		"realtimeRequestTimeoutMs": ms(c.Timeouts.RealtimeRequest), "httpRequestTimeoutMs": ms(c.Timeouts.HTTPRequest),
		"httpMaxRetryCount": float64(c.Timeouts.HTTPMaxRetryCount),
		"slowTimeoutMs":     ms(engine.DefaultSlowTimeout), "giveUpTimeoutMs": ms(engine.DefaultGiveUpTimeout),
		"preference": "", "preferenceTtlMs": ms(reconnect.DefaultPreferenceTTL), "rememberTransport": c.RememberTransport,
		"flapDrops": float64(engine.DefaultFlapDrops), "flapWindowMs": ms(engine.DefaultFlapWindow), "flapHoldMs": ms(engine.DefaultFlapHold),
		"reconnectWindowMs": ms(c.ReconnectWindow), "immediateShare": c.ImmediateShare, "retrySpread": c.RetrySpread, "suspendedSpread": c.SuspendedSpread,
		"canRenewToken": c.CanRenewToken, "connectTimeoutMs": ms(c.Timeouts.WithDefaults().Connect), "idleSlackMs": ms(c.Timeouts.WithDefaults().IdleSlack),
		"closingTimeoutMs": ms(c.Timeouts.WithDefaults().Closing), "renewalTimeoutMs": ms(c.Timeouts.WithDefaults().Renewal),
		"idleLimitMs": ms(c.IdleLimit),
		"retryFamily": c.Retry.Family.String(), "retryBaseMs": ms(c.Retry.Base), "retryCapMs": ms(c.Retry.Cap),
		"retryMultiplier": c.Retry.Multiplier, "retryJitter": c.Retry.Jitter,
		"immediateReconnect": c.ImmediateReconnect.String(), "immediateReconnectIntervalMs": ms(c.ImmediateReconnectInterval),
		"adaptiveMultiple": c.Adaptive.Multiple, "adaptiveFloorMs": ms(c.Adaptive.Floor),
		"firstRetryMs": ms(c.FirstRetry),
	}
	for k, v := range want {
		if got, ok := f.Defaults[k]; !ok || fmt.Sprint(got) != fmt.Sprint(v) {
			t.Errorf("defaults.%s = %v, the engine's is %v", k, got, v)
		}
	}
	for k := range f.Defaults {
		if _, ok := want[k]; !ok {
			t.Errorf("defaults.%s is not checked against the engine", k)
		}
	}
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // the scenario runner's atMs 0 (internal/conform)
	if f.Clock.EpochUnixMs != epoch.UnixMilli() || f.Clock.Epoch != epoch.Format(time.RFC3339) {
		t.Errorf("clock %+v, the runner's is %v", f.Clock, epoch)
	}
}
