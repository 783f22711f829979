package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/internal/sim"
)

func runCLI(args ...string) (stdout, stderr string, status int) {
	var o, e bytes.Buffer
	status = run(args, &o, &e)
	return o.String(), e.String(), status
}

func TestScheduleDefaultsPrintTheFifteenTwentyTwentyFiveThirtyBounds(t *testing.T) {
	out, errOut, status := runCLI("schedule")
	if status != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	for _, want := range []string{"12s    15s", "16s    20s", "20s    25s", "24s    30s"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestScheduleJSONIsReproducibleWithSeedAndWithinBounds(t *testing.T) {
	a, _, s1 := runCLI("schedule", "--seed", "42", "--json", "--attempts", "6", "--initial", "2s")
	b, _, s2 := runCLI("schedule", "--seed", "42", "--json", "--attempts", "6", "--initial", "2s")
	if s1 != 0 || s2 != 0 || a != b {
		t.Fatalf("same seed, different output or failure (%d, %d)", s1, s2)
	}
	var rep scheduleReport
	if err := json.Unmarshal([]byte(a), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 6 || rep.InitialMs != 2000 {
		t.Fatalf("report: %+v", rep)
	}
	for _, r := range rep.Rows {
		lo, hi := reconnect.RetryBounds(2*time.Second, r.Attempt)
		if r.LowerNs != int64(lo) || r.UpperNs != int64(hi) || r.SampledNs < r.LowerNs || r.SampledNs > r.UpperNs {
			t.Errorf("row %+v", r)
		}
	}
}

// TestBadInvocationsExitTwoWithOneLineNamingTheProblem runs each bad
// invocation and checks exit status 2, nothing on stdout, and one line on
// stderr that holds every wanted piece (the flag, the bad value, what is
// expected). Every command's bad invocations belong in this table.
func TestBadInvocationsExitTwoWithOneLineNamingTheProblem(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"nope"}, []string{`unknown command "nope"`, "schedule, simulate, conform"}},
		{[]string{"help", "nope"}, []string{`unknown command "nope"`}},
		{[]string{"help", "--bogus"}, []string{"help --bogus", "want a command name"}},
		{[]string{"schedule", "--attempts", "x"}, []string{"--attempts", `"x"`, "whole number"}},
		{[]string{"schedule", "--attempts", "0"}, []string{"--attempts 0", "from 1 to 10000"}},
		{[]string{"schedule", "--attempts", "10001"}, []string{"--attempts 10001", "from 1 to 10000"}},
		{[]string{"schedule", "--attempts", "99999999999999999999"}, []string{"--attempts", "out of range", "whole number"}},
		{[]string{"schedule", "--initial", "-1s"}, []string{"--initial -1s", "positive duration"}},
		{[]string{"schedule", "--initial", "0s"}, []string{"--initial 0s", "positive duration"}},
		{[]string{"schedule", "--initial", "soon"}, []string{"--initial", `"soon"`, "duration with a unit"}},
		{[]string{"schedule", "--initial", "15"}, []string{"--initial", `"15"`, "duration with a unit, such as 15s"}},
		{[]string{"schedule", "--initial"}, []string{"--initial needs a value", "duration"}},
		{[]string{"schedule", "--seed", "-1"}, []string{"--seed", `"-1"`, "whole number ≥ 0"}},
		{[]string{"schedule", "--json=maybe"}, []string{"--json", `"maybe"`, "true or false"}},
		{[]string{"schedule", "--bogus"}, []string{"unknown flag --bogus", "reconnect schedule -h"}},
		{[]string{"schedule", "extra"}, []string{`unexpected argument "extra"`}},
		{[]string{"simulate", "weather"}, []string{`"weather"`, "timeout, storm or adaptive"}},
		{[]string{"simulate", "timeout", "--timeouts", "0s"}, []string{"--timeouts 0s", "want"}},
		{[]string{"simulate", "timeout", "--timeouts", "1s,1s"}, []string{"--timeouts", "twice"}},
		{[]string{"simulate", "timeout", "--cost-per-second", "NaN"}, []string{"--cost-per-second NaN", "want"}},
		{[]string{"simulate", "timeout", "--cost-per-second=+Inf"}, []string{"--cost-per-second +Inf", "want"}},
		{[]string{"simulate", "timeout", "--cost-per-wasted", "-1"}, []string{"--cost-per-wasted -1", "want"}},
		{[]string{"simulate", "timeout", "--mix", "healthy=inf"}, []string{"--mix healthy=inf", "want", "1e9"}},
		{[]string{"simulate", "timeout", "--mix", "healthy=1e308,slow-mobile=1e308"}, []string{"--mix healthy=1e308", "1e9"}},
		{[]string{"simulate", "timeout", "--mix", "healthy=1,healthy=2"}, []string{"--mix", `"healthy"`, "twice"}},
		{[]string{"simulate", "timeout", "--mix", "healthy=0"}, []string{"--mix", "positive weight"}},
		{[]string{"simulate", "timeout", "--profiles", "healthy,healthy"}, []string{"--profiles", "twice"}},
		{[]string{"simulate", "timeout", "--policies", "http-first,http-first"}, []string{"--policies", "twice"}},
		{[]string{"simulate", "timeout", "--budget", "-1"}, []string{"--budget -1", "want"}},
		{[]string{"simulate", "timeout", "--profiles", "offline", "--policies", "http-first", "--clients", "10000", "--horizon", "24h", "--budget", "1000000"}, []string{"--budget 1000000", "engine steps"}},
		{[]string{"simulate", "storm", "--bucket", "1ms", "--horizon", "6h"}, []string{"--bucket 1ms", "--horizon 6h", "want fewer"}},
		{[]string{"simulate", "storm", "--safe-window", "2m"}, []string{"--safe-window 2m0s", "want"}},
		{[]string{"simulate", "storm", "--safe-retry-spread", "NaN"}, []string{"--safe-retry-spread NaN", "want"}},
		{[]string{"simulate", "storm", "--safe-immediate-share", "1"}, []string{"--safe-immediate-share 1", "below 1"}},
		{[]string{"simulate", "storm", "--jitters", "rtb1,rtb1"}, []string{"--jitters", "twice"}},
		{[]string{"simulate", "storm", "--jitters", "wobbly"}, []string{"--jitters", "wobbly", "socketio"}},
		{[]string{"simulate", "storm", "--clients", "0"}, []string{"--clients 0", "want"}},
	} {
		checkBadInvocation(t, c.args, c.want...)
	}
}

// checkBadInvocation runs the command with args and requires exit status
// 2, nothing on stdout and one line on stderr that contains every want.
func checkBadInvocation(t *testing.T, args []string, want ...string) {
	t.Helper()
	out, errOut, status := runCLI(args...)
	if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Errorf("%q: status %d, stdout %q, stderr %q; want 2, nothing, one line", args, status, out, errOut)
		return
	}
	for _, w := range want {
		if !strings.Contains(errOut, w) {
			t.Errorf("%q: stderr %q lacks %q", args, errOut, w)
		}
	}
}

func TestNoArgumentsPrintsUsageAndExitsTwo(t *testing.T) {
	out, errOut, status := runCLI()
	if status != 2 || out != "" || !strings.Contains(errOut, "usage: reconnect <command>") {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errOut)
	}
}

// TestHelpWorksForEveryCommand checks -h, --help and "help CMD" for every
// command and subcommand: status 0 and that command's own usage line.
func TestHelpWorksForEveryCommand(t *testing.T) {
	for _, c := range []struct {
		args  []string
		usage string
	}{
		{[]string{"help"}, "usage: reconnect <command>"},
		{[]string{"-h"}, "usage: reconnect <command>"},
		{[]string{"--help"}, "usage: reconnect <command>"},
		{[]string{"schedule", "-h"}, "usage: reconnect schedule "},
		{[]string{"schedule", "--help"}, "usage: reconnect schedule "},
		{[]string{"help", "schedule"}, "usage: reconnect schedule "},
		{[]string{"simulate", "-h"}, "usage: reconnect simulate <study>"},
		{[]string{"help", "simulate"}, "usage: reconnect simulate <study>"},
		{[]string{"help", "simulate", "timeout"}, "usage: reconnect simulate timeout"},
		{[]string{"simulate", "storm", "--help"}, "usage: reconnect simulate storm"},
		{[]string{"help", "conform"}, "usage: reconnect conform "},
		{[]string{"conform", "-h"}, "usage: reconnect conform "},
	} {
		out, errOut, status := runCLI(c.args...)
		if status != 0 || !strings.HasPrefix(out, c.usage) || errOut != "" {
			t.Errorf("%q: status %d, stdout %.60q, stderr %q; want 0 and %q", c.args, status, out, errOut, c.usage)
		}
	}
}

func TestScheduleShowsThePrecisionTheInitialNeeds(t *testing.T) {
	for _, c := range []struct {
		initial string
		want    []string
	}{
		{"15s", []string{"nearest millisecond", "12s", "15s"}},
		{"2500us", []string{"nearest microsecond", "2ms", "2.5ms"}},
		{"10ns", []string{"nearest nanosecond", "8ns", "10ns"}},
		{"1ns", []string{"nearest nanosecond", "1ns"}},
	} {
		out, errOut, status := runCLI("schedule", "--initial", c.initial, "--attempts", "1", "--seed", "1")
		if status != 0 {
			t.Fatalf("--initial %s: status %d, %s", c.initial, status, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("--initial %s: output lacks %q:\n%s", c.initial, w, out)
			}
		}
		if strings.Contains(out, " 0s") {
			t.Errorf("--initial %s: a delay shown as 0s:\n%s", c.initial, out)
		}
	}
}

func TestSimulateTimeoutIsDeterministicAndRecommends(t *testing.T) {
	args := []string{"simulate", "timeout", "--clients", "50", "--timeouts", "500ms,2s", "--seed", "4"}
	a, errA, s1 := runCLI(args...)
	b, _, s2 := runCLI(args...)
	if s1 != 0 || s2 != 0 || a != b {
		t.Fatalf("status %d/%d, stderr %q; outputs equal: %t", s1, s2, errA, a == b)
	}
	if !strings.Contains(a, "Recommended short-circuit timeout for this mix:") {
		t.Fatalf("no recommendation:\n%s", a)
	}
}

func TestSimulateStormReportsEveryJitter(t *testing.T) {
	out, errOut, status := runCLI("simulate", "storm", "--clients", "2000", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var rs []struct {
		Jitter      string `json:"jitter"`
		Reconnected int    `json:"reconnected"`
	}
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != len(sim.DefaultStrategies()) {
		t.Fatalf("%v: %s", err, out)
	}
	for i, r := range rs {
		if want := sim.DefaultStrategies()[i].String(); r.Jitter != want || r.Reconnected == 0 {
			t.Errorf("result %d: %+v, want strategy %s with clients reconnected", i, r, want)
		}
	}
}

func TestSimulateBadInputGivesOneLineAndStatusTwo(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.json"
	if err := os.WriteFile(bad, []byte(`{"profiles": [{"name": "x", "primary": {"http": {"reject": 2}}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"simulate"},
		{"simulate", "weather"},
		{"simulate", "timeout", "--profiles", "moon"},
		{"simulate", "timeout", "--policies", "carrier-pigeon"},
		{"simulate", "timeout", "--clients", "-3"},
		{"simulate", "timeout", "--clients", "1000000000"},
		{"simulate", "timeout", "--timeouts", "-1s"},
		{"simulate", "timeout", "--mix", "healthy"},
		{"simulate", "timeout", "--profile-file", bad},
		{"simulate", "timeout", "--profile-file", dir + "/missing.json"},
		{"simulate", "storm", "--clients", "0"},
		{"simulate", "storm", "--capacity", "-1"},
		{"simulate", "storm", "--jitters", "wobbly"},
		{"simulate", "storm", "--horizon", "1000h"},
	} {
		checkBadInvocation(t, args)
	}
}

func TestConformSelfPassesAndBadUsageIsStatusTwo(t *testing.T) {
	out, errOut, status := runCLI("conform", "--self", "--only", "rtb1,transport")
	if status != 0 || !strings.Contains(out, " passed, 0 failed, ") {
		t.Fatalf("status %d, out %q, err %q", status, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"conform"}, "give an adapter command after --, or --self"},
		{[]string{"conform", "--self", "--", "node", "x.mjs"}, "not both"},
		{[]string{"conform", "node", "x.mjs"}, `the adapter command "node" must follow --`},
		{[]string{"conform", "--only", "weather", "--self"}, `--only "weather": unknown area; want some of rtb1, transport, hosts, scenarios`},
		{[]string{"conform", "--require", "RTB1", "--self"}, `--require "RTB1": unknown area`},
		{[]string{"conform", "--timeout", "-1s", "--self"}, "--timeout -1s: want a duration above 0"},
		{[]string{"conform", "--startup", "0s", "--self"}, "--startup 0s: want a duration above 0"},
		{[]string{"conform", "--deadline", "1000h", "--self"}, "--deadline 1000h0m0s: want a duration above 0 and at most 24h"},
		{[]string{"conform", "--format", "xml", "--self"}, `--format "xml": want text, json or junit`},
		{[]string{"conform", "--", "/nonexistent/adapter"}, "cannot start the adapter"},
		{[]string{"conform", "--fixtures", "/nonexistent", "--self"}, "--fixtures /nonexistent: not a folder"},
	} {
		out, errOut, status := runCLI(c.args...)
		if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and one line containing %q", c.args, status, out, errOut, c.want)
		}
	}
}

func TestConformFormatsAndMalformedFixtures(t *testing.T) {
	for _, format := range []string{"json", "junit"} {
		out, errOut, status := runCLI("conform", "--self", "--only", "rtb1", "--format", format)
		if status != 0 || errOut != "" || !strings.Contains(out, map[string]string{"json": `"exitCode": 0`, "junit": `<testsuites name=`}[format]) {
			t.Errorf("--format %s: status %d, stderr %q, output %.300s", format, status, errOut, out)
		}
	}
	dir := t.TempDir()
	for _, name := range []string{"rtb1.json", "transport.json", "scenarios.json", "preference.json"} {
		if err := os.WriteFile(dir+"/"+name, []byte(`{"items":[]}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(dir+"/hosts.json", []byte(`{"items":[{"id":"r","function":"shouldFallback","statusRange":[0,2000000000]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status := runCLI("conform", "--self", "--fixtures", dir)
	if status != 2 || !strings.Contains(errOut, `hosts.json: item 0 (id "r"): "statusRange" is [0,2000000000]`) {
		t.Errorf("status %d, stderr %q", status, errOut)
	}
}

// A --fixtures folder that lacks a file is named with the file.
func TestConformFixturesDirMissingFileNamesIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/rtb1.json", []byte(`{"items":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, status := runCLI("conform", "--self", "--fixtures", dir)
	if want := "--fixtures " + dir + ": " + dir + "/transport.json: no such file or directory"; status != 2 || !strings.Contains(errOut, want) {
		t.Errorf("status %d, stderr %q; want it to contain %q", status, errOut, want)
	}
}
