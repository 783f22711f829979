package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
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

func TestBadInputGivesOneLineAndStatusTwo(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"nope"},
		{"schedule", "--attempts", "x"},
		{"schedule", "--attempts", "0"},
		{"schedule", "--attempts", "10001"},
		{"schedule", "--initial", "-1s"},
		{"schedule", "--initial", "soon"},
		{"schedule", "--bogus"},
		{"schedule", "extra"},
	} {
		out, errOut, status := runCLI(args...)
		if status != 2 {
			t.Errorf("%q: status %d, want 2", args, status)
		}
		if len(args) > 0 && (out != "" || strings.Count(errOut, "\n") != 1) {
			t.Errorf("%q: want one line on stderr and nothing on stdout, got %q / %q", args, out, errOut)
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"schedule", "-h"}} {
		out, _, status := runCLI(args...)
		if status != 0 || !strings.Contains(out, "usage:") {
			t.Errorf("%q: status %d, out %q", args, status, out)
		}
	}
}
