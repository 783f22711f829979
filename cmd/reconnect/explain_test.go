package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reconnect-go/reconnect/fixtures"
	"github.com/reconnect-go/reconnect/internal/conform"
)

func TestExplainAnnotatesAScenarioWithItsRows(t *testing.T) {
	out, errOut, status := runCLI("explain", "outcome-1-websocket-within-short-circuit")
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{
		"outcome-1-websocket-within-short-circuit (policy websocket-first)",
		"0 ms  connect  (initialized → connecting)",
		"open T1 websocket main.realtime.ably.net clean",
		"= WF-START-ws-1: websocket-first, both transports available",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "no row of docs/engine.md explains") {
		t.Errorf("a step is unexplained:\n%s", out)
	}
}

// What the server says is explained too: the details of a CONNECTED, an
// UPDATE (marked as such: the state does not change), the idle timer and a
// token renewal, each with its row.
func TestExplainAnnotatesWhatTheServerSays(t *testing.T) {
	for id, wants := range map[string][]string{
		"server-connected-while-connected-is-an-update": {
			"connected T1 maxIdleInterval=15000 connectionStateTtl=120000  (connecting → connected)",
			"= ALL-CONNECTING-connected-idle-2:",
			"5000 ms  details T1 maxIdleInterval=20000 connectionStateTtl=120000  (connected, UPDATE)",
			"= ALL-CONNECTED-details-1:",
		},
		"idle-activity-pushes-the-deadline-back":      {"timer idle at=18000", "= ALL-CONNECTED-timer-idle-2:", "= ALL-CONNECTED-timer-idle-1:", "= ALL-ANY-activity-1:"},
		"token-error-while-connected-renewed-resumes": {"renew-token C1", "= ALL-CONNECTED-token-renew-4:", "= ALL-CONNECTING-token-renewed-1:"},
	} {
		out := explainHas(t, id, wants)
		if strings.Contains(out, "no row of docs/engine.md explains") {
			t.Errorf("%s: a step is unexplained:\n%s", id, out)
		}
	}
}

// A recorded log is the scenario format; a log without pinned draws still
// explains, with a note.
func TestExplainARecordedLog(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.json")
	data := `{"config": {"endpoint": "rt.example.com", "fallbackHosts": []},
	  "steps": [{"atMs": 0, "event": "connect"}, {"atMs": 50, "event": "failed T1 refused"},
	            {"atMs": 60, "event": "failed T2 refused"}]}`
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCLI("explain", "--file", log)
	if status != 0 {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{"open T2 http rt.example.com clean", "(connecting → disconnected)", "no draws pinned: every draw is 0", "= ALL-CONNECTING-lost-end-3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SS-") {
		t.Errorf("a storm-safe row explains a step of a configuration without the storm-safe options:\n%s", out)
	}
}

// scenarioCount is the number of scenarios in the embedded fixture, which
// explain's messages name.
func scenarioCount(t *testing.T) int {
	t.Helper()
	raw, err := fs.ReadFile(fixtures.FS, "scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &f); err != nil || len(f.Items) == 0 {
		t.Fatalf("scenarios.json: %d items, %v", len(f.Items), err)
	}
	return len(f.Items)
}

func TestExplainBadInvocations(t *testing.T) {
	all := fmt.Sprintf("prints all %d", scenarioCount(t))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"explain"}, "want a scenario id, --file LOG or --list"},
		{[]string{"explain", "no-such-scenario"}, `no scenario "no-such-scenario", and no id is close to it; 'reconnect explain --list' ` + all},
		{[]string{"explain", "NOPE"}, `no scenario "NOPE", and no id is close to it; 'reconnect explain --list' ` + all},
		{[]string{"explain", "conect-timeout"}, `no scenario "conect-timeout"; the nearest: connect-timeout ('reconnect explain --list' ` + all + ")"},
		{[]string{"explain", "Close-From-Conected"}, `no scenario "Close-From-Conected"; the nearest: close-from-connected, close-from-connecting,`},
		{[]string{"explain", "--list", "connect-timeout"}, "give a scenario id, --file or --list, one of them"},
		{[]string{"explain", "--list", "--file", "x.json"}, "give a scenario id, --file or --list, one of them"},
		{[]string{"explain", "a", "b"}, `unexpected argument "b"`},
		{[]string{"explain", "--file", "/nonexistent.json"}, "--file: open /nonexistent.json"},
		{[]string{"explain", "--file", "x.json", "outcome-1-websocket-within-short-circuit"}, "not both"},
	} {
		_, errOut, status := runCLI(c.args...)
		if status != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: status %d, stderr %q; want 2 and %q", c.args, status, errOut, c.want)
		}
	}
}

// Any log explains or is refused: no panic, no hang.
func FuzzExplain(f *testing.F) {
	f.Add([]byte(`{"config": {"policy": "websocket-check"}, "draws": [0.5], "steps": [{"atMs": 0, "event": "connect"}, {"atMs": 4000, "event": "timer websocket-slow"}]}`))
	f.Add([]byte(`{"steps": [{"atMs": -5, "event": "connectivity C9 up"}, {"atMs": 1, "event": "closed T1 disconnected:503"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in conform.ScenarioInput
		if json.Unmarshal(data, &in) != nil || len(in.Steps) > 200 || len(in.Draws) > 200 {
			return
		}
		_ = explain(io.Discard, "fuzz", in)
	})
}

// explainHas runs `reconnect explain id`, fails t unless it exits 0, and
// reports each of wants its output lacks; it returns the output.
func explainHas(t *testing.T, id string, wants []string) string {
	t.Helper()
	out, errOut, status := runCLI("explain", id)
	if status != 0 {
		t.Fatalf("%s: status %d, stderr %q", id, status, errOut)
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s: output lacks %q:\n%s", id, want, out)
		}
	}
	return out
}
