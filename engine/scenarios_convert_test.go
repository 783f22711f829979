package engine

// A one-off converter from the Go definitions of the scenarios to the text
// timelines, and the proof that the text reads back to the same values.
// Removed with the Go definitions.

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

type convGroup struct {
	file, src, intro string
	scs              []scenario
}

func convGroups(t *testing.T) []convGroup {
	all := allScenarios()
	rest := [][]scenario{stateScenarios(), errorScenarios(), livenessScenarios(), parityScenarios(), stormSafeScenarios(),
		numberChecks(rowScenarios()), numberChecks(tourScenarios()), edgeScenarios(), portScenarios(), boundaryScenarios()}
	n := 0
	for _, r := range rest {
		n += len(r)
	}
	main := all[:len(all)-n]
	hostsAt, retriesAt := -1, -1
	for i, sc := range main {
		if sc.ID == "fallback-order-through-every-step" {
			hostsAt = i
		}
		if sc.ID == "connect-timeout" {
			retriesAt = i + 1
		}
	}
	if hostsAt < 0 || retriesAt < 0 {
		t.Fatal("split points not found")
	}
	g := []convGroup{
		{"01-outcomes.txt", "scenarios_test.go", "The transport-fallback proposal's five outcomes, and the field failures they answer.", main[:hostsAt]},
		{"02-hosts.txt", "scenarios_test.go", "Host fallback (RTN17, RSC15): the order of the walk, what qualifies, the connectivity check.", main[hostsAt:retriesAt]},
		{"03-retries.txt", "scenarios_test.go", "RTB1 retries and SUSPENDED (RTB1, RTN14d, RTN14e), the immediate reconnect after a drop (RTN15a) and its rate limit.", main[retriesAt:]},
		{"04-states.txt", "scenarios_states_test.go", "Network changes (RTN20), close in every state (RTN12), FAILED, the other policies and transports, and bad events.", rest[0]},
		{"05-errors.txt", "scenarios_edges_test.go", "Errors: every state change carries the failure that caused it.", rest[1]},
		{"06-liveness.txt", "scenarios_liveness_test.go", "Liveness: HTTP that works connects within one attempt whatever the websocket does, and a websocket that keeps dropping gives way to HTTP for a while (the flapping guard).", rest[2]},
		{"07-parity.txt", "scenarios_parity_test.go", "PolicyWebSocketCheck as ably-js 2.28.0 runs it (connectionmanager.ts), the transport preference, and the two engine-wide rules the spec shares with it (SUSPENDED on time, RTN17f1 while connected). Written by hand from those rules, like the rest.", rest[3]},
		{"08-storm.txt", "scenarios_storm_test.go", "The opt-in storm-safe options, written from the rules of docs/storm-safe-reconnect.md (the amendment's sentences), not recorded from the engine.", rest[4]},
		{"09-rows.txt", "scenarios_rows_test.go", "Written so that every row of docs/engine.md (internal/rows) is pinned: HTTP-first and the single-transport configurations, connect and network events in every state, the websocket-check policy's checks in every order, and the transport preference on both sides of its TTL. Written by hand from the rows, like the rest.", rest[5]},
		{"10-tours.txt", "scenarios_tour_test.go", "Tours: one timeline per policy through the connection's life — connect, network events in every state, activation, duplicates, the immediate reconnect and its rate limit, a failed retry, SUSPENDED, close in every state, fatal, connect afresh — and one through the host walk and RTN17f1 while connected. The timeline is the same for the three policies; what differs is the first transports of an attempt, what activation does and which attempt timers run, from the rows of docs/engine.md.", rest[6]},
		{"11-edges.txt", "scenarios_edges_test.go", "Three bugs that once passed every other test: transports left open after the connectivity check says down, a time earlier than the last not treated as the last, HTTP started at the short circuit while the websocket is pending.", rest[7]},
		{"12-ports.txt", "scenarios_ports_test.go", "Rules that two ports of the engine written from docs/engine.md could read either way while passing every other scenario: each has a step whose actions differ between the two readings, and the expectation is the rule as docs/engine.md states it.", rest[8]},
		{"13-boundaries.txt", "scenarios_escapes_test.go", "Rules at their edges, where an engine written from docs/engine.md with one comparison, reset or condition slightly off passes every other scenario: the retry count a fresh connect forgets, the rate limit's exact second, the short circuit only with both transports (and 0 meaning its default), check IDs, the host order drawn once, the flapping window's end and its websocket-only count, the RTN17f1 range 500–504 at both ends, and the attempt's last failure kept through a clean close. Each comes in two timelines, so that each rule is pinned twice.", rest[9]},
	}
	return g
}

type convNote struct {
	prefix string
	lines  []string
}

var idLiteral = regexp.MustCompile(`ID: "([^"]*)"`)

// convNotes are the comments inside the functions of a Go file, each
// with the ID literal of the scenario that follows it.
func convNotes(t *testing.T, file string) []convNote {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []convNote
	var buf []string
	for _, l := range strings.Split(string(src), "\n") {
		tr := strings.TrimSpace(l)
		if strings.HasPrefix(l, "\t") && strings.HasPrefix(tr, "//") {
			buf = append(buf, strings.TrimSpace(strings.TrimPrefix(tr, "//")))
			continue
		}
		if m := idLiteral.FindStringSubmatch(l); m != nil && len(buf) > 0 {
			out = append(out, convNote{m[1], buf})
			buf = nil
		}
	}
	return out
}

func TestConvertScenariosToText(t *testing.T) {
	if os.Getenv("CONVERT_SCENARIOS") == "" {
		t.Skip("set CONVERT_SCENARIOS=1 to write testdata/scenarios from the Go definitions")
	}
	notes := map[string][]convNote{}
	for _, g := range convGroups(t) {
		if _, ok := notes[g.src]; !ok {
			notes[g.src] = convNotes(t, g.src)
		}
		var b strings.Builder
		var w strings.Builder
		writeWrapped(&w, "", g.intro, 76)
		for _, l := range strings.Split(strings.TrimRight(w.String(), "\n"), "\n") {
			b.WriteString("# " + l + "\n")
		}
		b.WriteString("\n")
		for _, sc := range g.scs {
			ns := notes[g.src]
			for len(ns) > 0 && strings.HasPrefix(sc.ID, ns[0].prefix) {
				for _, l := range ns[0].lines {
					b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
				}
				b.WriteString("\n")
				ns = ns[1:]
			}
			notes[g.src] = ns
			formatScenario(&b, sc)
		}
		out := strings.TrimRight(b.String(), "\n") + "\n"
		if err := os.WriteFile(filepath.Join(scenarioDir, g.file), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for src, ns := range notes {
		for _, n := range ns {
			t.Logf("%s: note not placed, before %q: %q", src, n.prefix, n.lines)
		}
	}
}

// TestTextScenariosEqualGo is the proof of the conversion: the text
// timelines read back to exactly the Go values, scenario by scenario.
func TestTextScenariosEqualGo(t *testing.T) {
	goScs := allScenarios()
	txt, err := loadScenarios(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(txt) != len(goScs) {
		t.Fatalf("%d scenarios in text, %d in Go", len(txt), len(goScs))
	}
	raw := 0
	for i := range goScs {
		if reflect.DeepEqual(txt[i], goScs[i]) {
			raw++
		}
		// An empty list of actions is nil or []string{} in the Go
		// definitions, as the helpers built it; the fixture writes both as
		// []. The text has one way to write it, read as nil.
		g := goScs[i]
		g.Steps = append([]scenarioStep(nil), g.Steps...)
		for j := range g.Steps {
			if len(g.Steps[j].Expect) == 0 {
				g.Steps[j].Expect = nil
			}
		}
		if len(g.Draws) == 0 {
			g.Draws = nil
		}
		if !reflect.DeepEqual(txt[i], g) {
			t.Errorf("scenario %d (%s) differs:\n text %#v\n   go %#v", i, goScs[i].ID, txt[i], goScs[i])
		}
	}
	t.Logf("%d scenarios deep-equal (%d without mapping an empty []string{} to nil)", len(goScs), raw)
	if !reflect.DeepEqual(normalizeScenarios(allScenarios()), normalizeScenarios(txt)) {
		t.Error("the fixture's items differ")
	}
}
