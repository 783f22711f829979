package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/internal/sim"
)

// Bad simulate invocations that need files fail before simulating, with
// status 2, nothing on stdout and one line naming the flag, the value and
// what is expected (the others are in the table of main_test.go).
func TestSimulateRejectsBadFlagsNamingFlagValueAndExpectation(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	trailing := write("trailing.json", `{"profiles": [{"name": "mine"}]} {}`)
	caseKey := write("case.json", `{"profiles": [{"Name": "mine"}]}`)
	comma := write("comma.json", `{"profiles": [{"name": "a,b"}]}`)
	builtin := write("builtin.json", `{"profiles": [{"name": "healthy"}]}`)
	for _, c := range []struct {
		args []string
		want []string // substrings of the one stderr line
	}{
		{[]string{"simulate", "timeout", "--svg", filepath.Join(dir, "missing", "x.svg")}, []string{"--svg", "missing"}},
		{[]string{"simulate", "timeout", "--svg", dir}, []string{"--svg", "directory"}},
		{[]string{"simulate", "timeout", "--profile-file", trailing}, []string{"--profile-file", "after the top-level object"}},
		{[]string{"simulate", "timeout", "--profile-file", caseKey}, []string{"--profile-file", `"Name"`}},
		{[]string{"simulate", "timeout", "--profile-file", comma}, []string{"--profile-file", `"a,b"`}},
		{[]string{"simulate", "timeout", "--profile-file", builtin}, []string{"--profile-file", "built-in", "--replace"}},
		{[]string{"simulate", "storm", "--svg", filepath.Join(dir, "missing", "x.svg")}, []string{"--svg", "missing"}},
	} {
		checkBadInvocation(t, c.args, c.want...)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 4 {
		t.Errorf("left behind: %v", entries)
	}
}

func TestSimulateHelpListsTheStudies(t *testing.T) {
	for _, h := range []string{"-h", "--help", "help"} {
		out, errOut, status := runCLI("simulate", h)
		if status != 0 || errOut != "" || !strings.Contains(out, "timeout") || !strings.Contains(out, "storm") {
			t.Errorf("simulate %s: status %d, stdout %q, stderr %q", h, status, out, errOut)
		}
	}
}

func TestSimulateStormSpeaksOfOneClientInTheSingular(t *testing.T) {
	out, _, status := runCLI("simulate", "storm", "--clients", "1", "--capacity", "1", "--jitters", "rtb1")
	if status != 0 || !strings.Contains(out, "1 client drops at 0 s") || !strings.Contains(out, "accepts 1 connection a second") {
		t.Fatalf("status %d:\n%s", status, out)
	}
}

// (At 2 connections a second the storm outlasts connectionStateTtl, so
// the trimmed time axis still shows the SUSPENDED mark.)
func TestSimulateWritesTheChartOnlyWhenTheRunSucceeds(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "storm.svg")
	if _, errOut, status := runCLI("simulate", "storm", "--clients", "300", "--capacity", "2", "--jitters", "rtb1,rtb1-safe,phoenix", "--svg", svg); status != 0 {
		t.Fatal(errOut)
	}
	data, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(data, []byte(">rtb1-safe · peak ")) || !bytes.Contains(data, []byte(">phoenix · peak ")) || !bytes.Contains(data, []byte(">SUSPENDED<")) {
		t.Fatalf("%v: %.300s", err, data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestProgressShowsAnETAOnlyAfterTwoSeconds(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, "cells")
	now := p.start
	p.now = func() time.Time { return now }
	p.update(1, 10)
	now = now.Add(3 * time.Second)
	p.update(3, 10)
	if got := b.String(); got != "cells 3/10, about 7s left\n" {
		t.Fatalf("%q", got)
	}
	p.update(10, 10)
	if strings.Count(b.String(), "\n") != 1 {
		t.Fatalf("%q", b.String())
	}
}

func FuzzParseMix(f *testing.F) {
	for _, s := range []string{defaultMix, "healthy=inf", "a=1,a=2", "=1", "x=1e309", "x= 0x1p3 ", ","} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := parseMix(s)
		if err != nil {
			return
		}
		total := 0.0
		for name, v := range w {
			if name == "" || !(v >= 0 && v <= maxWeight) {
				t.Fatalf("%q: accepted %q = %v", s, name, v)
			}
			total += v
		}
		if math.IsInf(total, 0) || math.IsNaN(total) {
			t.Fatalf("%q: weights add up to %v", s, total)
		}
	})
}

// The flag parsers of both studies never panic, and what they accept is
// within the documented limits.
func FuzzSimulateFlags(f *testing.F) {
	for _, s := range []string{"--timeouts 0s", "--mix healthy=1 --profiles healthy", "--cost-per-second NaN", "--tie-percent NaN", "--tie-ms 1e7",
		"--clients 5 --horizon 24h", "--bucket 1ms --horizon 6h", "--safe-window 1m --jitters rtb1-safe", "--profile-file x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Fields(s)
		noFile := func(string) ([]byte, error) { return []byte(`{"profiles": [{"name": "mine"}]}`), nil }
		if o, err := parseTimeoutFlags(args, io.Discard, noFile); err == nil {
			sc := o.sweep
			if sc.Clients < 1 || sc.Clients > 100000 || sc.Horizon <= 0 || sc.Horizon > 24*time.Hour ||
				len(sc.Timeouts) == 0 || len(sc.Policies) == 0 || len(sc.Profiles) == 0 {
				t.Fatalf("%q accepted: %+v", s, sc)
			}
			if !(o.cost.PerSecond >= 0 && o.cost.PerSecond <= maxWeight && o.cost.PerWasted >= 0 && o.cost.PerWasted <= maxWeight) {
				t.Fatalf("%q accepted cost %+v", s, o.cost)
			}
			if !(o.eq.Rel >= 0 && o.eq.Rel <= 1 && o.eq.Abs >= 0 && o.eq.Abs <= 1000) {
				t.Fatalf("%q accepted threshold %+v", s, o.eq)
			}
		}
		if o, err := parseStormFlags(args, io.Discard); err == nil {
			c := o.config
			if c.Clients < 1 || c.Horizon <= 0 || c.Horizon/c.Bucket >= 1_000_000 || len(o.strategies) == 0 {
				t.Fatalf("%q accepted: %+v", s, c)
			}
		}
	})
}

func TestSimulateStormTradeoffReportsEveryRowAgainstTheAims(t *testing.T) {
	out, errOut, status := runCLI("simulate", "storm", "--tradeoff", "--clients", "2000", "--capacity", "50", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var rep struct {
		RTB1 struct {
			PeakPerSecond float64 `json:"peakPerSecond"`
		} `json:"rtb1"`
		DropMedianNs int64 `json:"dropMedianNs"`
		Rows         []struct {
			Safe struct {
				WindowNs int64 `json:"windowNs"`
			} `json:"safe"`
			PeakRatio   float64 `json:"peakRatio"`
			DropAddedNs int64   `json:"dropAddedNs"`
			MeetsAims   []bool  `json:"meetsAims"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if want := len(tradeoffWindows) * len(tradeoffShares) * len(tradeoffRetry); len(rep.Rows) != want || rep.RTB1.PeakPerSecond == 0 || rep.DropMedianNs <= 0 {
		t.Fatalf("%d rows (want %d), %+v", len(rep.Rows), want, rep.RTB1)
	}
	for _, r := range rep.Rows {
		if len(r.MeetsAims) != 3 || r.MeetsAims[2] != (r.DropAddedNs <= r.Safe.WindowNs/2) || r.MeetsAims[0] != (r.PeakRatio >= 5) {
			t.Errorf("row %+v: aims inconsistent with its figures", r)
		}
	}
}

// The report opens with the recommendation (the mix's band, with the
// weights), shows "never" instead of the horizon, and every figure with
// an interval; -o writes it to a file and nothing to standard output.
func TestSimulateTimeoutReportsTheBandFirstAndNeverForTheHorizon(t *testing.T) {
	args := []string{"simulate", "timeout", "--clients", "60", "--timeouts", "250ms,2s,10s", "--profiles", "healthy,proxy-blackholes-websocket,offline",
		"--horizon", "1m", "--policies", "websocket-first"}
	out, errOut, status := runCLI(args...)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	lines := strings.Split(out, "\n")
	if want := "Recommended short-circuit timeout for this mix: 250ms (the shortest tried, 250ms, is in the band"; !strings.HasPrefix(lines[0], want) {
		t.Fatalf("first line %q, want it to start %q", lines[0], want)
	}
	for _, want := range []string{
		"Mix (weights normalized): healthy 98.9%, proxy-blackholes-websocket 1.1%.", // 0.90 and 0.01 of the default mix
		"offline                     no answer: nobody connected within 1m0s",
		"healthy                     any (250ms to 10s)",
		"proxy-blackholes-websocket  250ms",
		"0.0% [0.0, 6.0]", // offline: the connected share with its interval
		"+1750 [",         // 2 s costs exactly 1.75 s more behind a blackhole, client by client
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "never"); n < 12 {
		t.Errorf("%d times never; want offline's p50, p90, p99 and mean in each of 3 rows:\n%s", n, out)
	}
	if strings.Contains(out, "60000") {
		t.Errorf("the horizon is shown as a time:\n%s", out)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	svg := filepath.Join(dir, "chart.svg")
	stdout, errOut, status := runCLI(append(args, "--json", "-o", path, "--svg", svg)...)
	if status != 0 || stdout != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, stdout, errOut)
	}
	var rep struct {
		Mix     map[string]float64 `json:"mix"`
		MixBand struct {
			TiedNs  []int64 `json:"tiedNs"`
			Choices []struct {
				Verdict string `json:"verdict"`
				Diff    struct{ Lo, Hi float64 }
			} `json:"choices"`
		} `json:"mixBand"`
	}
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil || len(rep.MixBand.TiedNs) != 1 || rep.MixBand.TiedNs[0] != int64(250*time.Millisecond) || len(rep.MixBand.Choices) != 3 ||
		rep.MixBand.Choices[2].Verdict != "worse" || math.Abs(rep.Mix["healthy"]+rep.Mix["proxy-blackholes-websocket"]-1) > 1e-12 {
		t.Fatalf("%v: %+v", err, rep)
	}
	chart, err := os.ReadFile(svg)
	if err != nil || !bytes.Contains(chart, []byte(">healthy · wasted<")) || !bytes.Contains(chart, []byte(">mix · cost (s)<")) ||
		!bytes.Contains(chart, []byte(">never connected within 1m0s<")) || !bytes.Contains(chart, []byte("band 250ms")) {
		t.Fatalf("%v: %.400s", err, chart)
	}
}

// By default simulate timeout writes nothing but standard output: no
// chart and no report file, in docs/ or anywhere.
func TestSimulateTimeoutWritesNoFileUnlessAsked(t *testing.T) {
	o, err := parseTimeoutFlags(nil, io.Discard, os.ReadFile)
	if err != nil || o.svg != "" || o.out != "" {
		t.Fatalf("%v: --svg %q, -o %q by default", err, o.svg, o.out)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"simulate", "timeout", "--tie-percent", "101"}, []string{"--tie-percent 101", "0 to 100"}},
		{[]string{"simulate", "timeout", "--tie-ms", "-1"}, []string{"--tie-ms -1", "want"}},
		{[]string{"simulate", "timeout", "-o", filepath.Join(t.TempDir(), "missing", "r.txt")}, []string{"-o", "missing"}},
	} {
		checkBadInvocation(t, c.args, c.want...)
	}
}

// The storm chart counts attempts per second, as its title says, and its
// time axis ends where the last strategy that settled made its last
// attempt; a strategy still retrying past it says so in its panel.
func TestStormChartIsPerSecondAndTrimmedToTheData(t *testing.T) {
	o, err := parseStormFlags([]string{"--clients", "1000"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	bucket := 100 * time.Millisecond
	settled := sim.StormResult{Jitter: "full", Clients: 1000, Reconnected: 1000, Bucket: bucket, Attempts: make([]int, 401)}
	settled.Attempts[0], settled.Attempts[400] = 1000, 3 // the last attempt at 40 s
	going := sim.StormResult{Jitter: "none", Clients: 1000, Reconnected: 500, Bucket: bucket, Attempts: make([]int, 6001)}
	going.Attempts[6000] = 500 // at 600 s
	m := stormChart([]sim.StormResult{settled, going}, o)
	if m.XMax != 40 || !strings.Contains(m.Title, "per second") || !strings.Contains(m.YLabel, "per second") {
		t.Fatalf("x axis to %v, title %q, y label %q", m.XMax, m.Title, m.YLabel)
	}
	if y := m.Panels[0].Series[0].Y; y[0] != 10000 || y[400] != 30 {
		t.Fatalf("1000 and 3 attempts in 100 ms drawn as %v and %v a second", y[0], y[400])
	}
	if m.Panels[0].Corner != "" || m.Panels[1].Corner != "attempts go on to 10m0s →" {
		t.Fatalf("corners %q, %q", m.Panels[0].Corner, m.Panels[1].Corner)
	}
	dir := t.TempDir()
	report := filepath.Join(dir, "storm.txt")
	if out, errOut, status := runCLI("simulate", "storm", "--clients", "100", "--jitters", "rtb1", "-o", report); status != 0 || out != "" {
		t.Fatalf("status %d, stdout %q, stderr %q", status, out, errOut)
	}
	if data, err := os.ReadFile(report); err != nil || !bytes.Contains(data, []byte("100 clients drop at 0 s")) {
		t.Fatalf("%v: %s", err, data)
	}
}

// --front runs every reference and every rule at each downtime, marks a
// Pareto front, writes the Markdown table with the chosen rule beside the
// peers, and refuses a bad downtime list or --tradeoff with it.
func TestSimulateStormFront(t *testing.T) {
	out, errOut, status := runCLI("simulate", "storm", "--front", "--clients", "3000", "--capacity", "0", "--front-downtimes", "5s,2s", "--json")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var runs []struct {
		DowntimeNs int64 `json:"downtimeNs"`
		Points     []struct {
			Name   string `json:"name"`
			Rule   bool   `json:"rule"`
			Pareto bool   `json:"pareto"`
			T99Ns  int64  `json:"t99Ns"`
		} `json:"points"`
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatal(err)
	}
	want := len(frontRefs) + len(sim.DefaultFrontRules(reconnect.DefaultTimeouts()))
	if len(runs) != 2 || len(runs[0].Points) != want || runs[1].DowntimeNs != int64(2*time.Second) {
		t.Fatalf("%d runs, %d points (want 2, %d)", len(runs), len(runs[0].Points), want)
	}
	pareto := 0
	for _, p := range runs[0].Points {
		if p.Pareto {
			pareto++
		}
		if p.T99Ns < int64(5*time.Second) {
			t.Errorf("%s back before the server: %v", p.Name, time.Duration(p.T99Ns))
		}
	}
	if pareto == 0 {
		t.Error("no point on the Pareto front")
	}
	out, errOut, status = runCLI("simulate", "storm", "--front", "--clients", "3000", "--capacity", "0", "--front-downtimes", "5s")
	if status != 0 || !strings.Contains(out, "| downtime | rtb1 | socketio | centrifuge-js |") || !strings.Contains(out, "### every point at 5s") {
		t.Fatalf("status %d: %s\n%s", status, errOut, out)
	}
	for _, args := range [][]string{{"--front-downtimes", "5s,x"}, {"--front-downtimes", ","}, {"--tradeoff"}} {
		if _, _, status := runCLI(append([]string{"simulate", "storm", "--front", "--clients", "10"}, args...)...); status != 2 {
			t.Errorf("%q: status %d, want 2", args, status)
		}
	}
}
