package peers

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The rule, written out: allowed = max(1.1 × best, best + 20 ms); ours
// at exactly the allowed time is level, a nanosecond more is behind; the
// 10 % takes over from the 20 ms at best = 200 ms.
func TestJudgeBoundaries(t *testing.T) {
	const ms = time.Millisecond
	cases := []struct {
		name       string
		ours, best time.Duration
		ahead      bool
	}{
		{"exactly +10 %", 1100 * ms, 1000 * ms, true},
		{"just over +10 %", 1100*ms + 1, 1000 * ms, false},
		{"exactly +20 ms", 120 * ms, 100 * ms, true},
		{"just over +20 ms", 120*ms + 1, 100 * ms, false},
		{"+20 ms is +10 % at 200 ms", 220 * ms, 200 * ms, true},
		{"just over, at 200 ms", 220*ms + 1, 200 * ms, false},
		{"+10 % of a best not divisible by 10 rounds up", 1100*ms + 2, 1000*ms + 1, true},
		{"…to the nanosecond", 1100*ms + 3, 1000*ms + 1, false},
		{"faster", 5 * ms, 800 * ms, true},
		{"equal", 7 * time.Second, 7 * time.Second, true},
		{"the restart today", 13500 * ms, 6784 * ms, false},
		{"a blackholed websocket at 2 s", 2010 * ms, 111 * ms, false},
		{"never against a peer", Never, 5 * time.Second, false},
		{"no peer got there", 9 * ms, Never, true},
		{"neither got there", Never, Never, true},
		{"zero", 20 * ms, 0, true},
	}
	for _, c := range cases {
		if got, why := Judge(c.ours, c.best, false, 0, 0); got != c.ahead {
			t.Errorf("%s: Judge(%v, %v) = %v (%s), want %v", c.name, c.ours, c.best, got, why, c.ahead)
		}
	}
	if got, want := Allowed(Never/2), Never/2+Never/20+1; got != want {
		t.Errorf("Allowed(Never/2) = %v, want %v (no overflow in the 10 %%)", got, want)
	}
	if got := Allowed(Never - 1); got != Never-1 {
		t.Errorf("Allowed(Never − 1) = %v, want it saturated at Never − 1", got)
	}
	if got := Allowed(-time.Second); got != 20*ms {
		t.Errorf("Allowed(−1 s) = %v, want 20 ms", got)
	}
}

// For a restart the peaks count too: equal peaks are level, one accept
// per second more is behind, whatever the times.
func TestJudgePeaks(t *testing.T) {
	s := time.Second
	cases := []struct {
		ours, peer int
		t          time.Duration
		ahead      bool
	}{
		{10, 10, 6 * s, true},
		{11, 10, 6 * s, false},
		{9, 32, 6 * s, true},
		{9, 32, 14 * s, false},
		{0, 0, 6 * s, true},
	}
	for _, c := range cases {
		got, why := Judge(c.t, 7*s, true, c.ours, c.peer)
		if got != c.ahead {
			t.Errorf("Judge(%v, 7s, peaks %d vs %d) = %v (%s), want %v", c.t, c.ours, c.peer, got, why, c.ahead)
		}
		if !got && c.ours > c.peer && !strings.Contains(why, "herd") {
			t.Errorf("peaks %d vs %d: why %q does not name the herd", c.ours, c.peer, why)
		}
	}
	// Without peaks (any other fault) a higher peak does not count.
	if ok, _ := Judge(time.Second, time.Second, false, 100, 1); !ok {
		t.Error("a peak counted for a fault without peaks")
	}
}

// Ranking takes ours-defaults (not the tuned kinds, however fast) against
// the fastest peer, the highest peer peak for a restart, counts a fault
// ours did not measure as not ahead, and ends with the one line.
func TestRanking(t *testing.T) {
	ms := func(v ...time.Duration) []time.Duration {
		for i := range v {
			if v[i] != Never {
				v[i] *= time.Millisecond
			}
		}
		return v
	}
	cell := func(f Fault, k Kind, peak int, ts ...time.Duration) Cell {
		return Cell{Fault: f, Kind: k, Clients: len(ts), Result: Result{Times: ms(ts...), AcceptPeak: peak}}
	}
	faults := []Fault{Healthy, WebSocketBlackholed, PrimaryDown, Drop, Restart}
	rep := &Report{Options: Options{Faults: faults, Kinds: []Kind{SocketIOPolling, Centrifuge, OursShort, OursDefaults}}, Cells: []Cell{
		cell(Healthy, SocketIOPolling, 0, 100, 110, 120),
		cell(Healthy, Centrifuge, 0, 19, 20, 21),
		cell(Healthy, OursShort, 0, 1, 1, 1),
		cell(Healthy, OursDefaults, 0, 30, 40, 50), // 40 ≤ 19 + 20
		cell(WebSocketBlackholed, SocketIOPolling, 0, 100, 111, 120),
		cell(WebSocketBlackholed, Centrifuge, 0, 5000, 5090, 5100),
		cell(WebSocketBlackholed, OursShort, 0, 265, 265, 265), // tuned: does not count
		cell(WebSocketBlackholed, OursDefaults, 0, 2010, 2010, 2010),
		cell(PrimaryDown, SocketIOPolling, 0, Never, Never, Never),
		cell(PrimaryDown, Centrifuge, 0, Never, Never, Never),
		cell(PrimaryDown, OursShort, 0, 9, 9, 9),
		cell(PrimaryDown, OursDefaults, 0, 14, 14, 14),
		cell(Drop, SocketIOPolling, 0, 800, 885, 900),
		{Fault: Drop, Kind: Centrifuge, Err: errTest},
		cell(Drop, OursShort, 0, 9, 9, 9),
		{Fault: Drop, Kind: OursDefaults, Err: errTest},
		cell(Restart, SocketIOPolling, 32, 7000, 7331, 8000),
		cell(Restart, Centrifuge, 9, 6000, 6784, 9000),
		cell(Restart, OursShort, 40, 100, 100, 100),
		cell(Restart, OursDefaults, 32, 5000, 7400, 7500), // 7400 ≤ 6784 × 1.1, 32 ≤ 32
	}}
	vs := rep.Ranking()
	if len(vs) != len(faults) {
		t.Fatalf("%d verdicts for %d faults", len(vs), len(faults))
	}
	want := []struct {
		ahead bool
		best  Kind
		why   string
	}{{true, Centrifuge, ""}, {false, SocketIOPolling, "slower: 2010 ms over the 131 ms allowed"}, {true, SocketIOPolling, ""},
		{false, SocketIOPolling, "ours-defaults not measured: test"}, {true, Centrifuge, ""}}
	for i, w := range want {
		v := vs[i]
		if v.Ahead != w.ahead || v.BestKind != w.best || v.Why != w.why {
			t.Errorf("%s: ahead %v, best %v, why %q; want %v, %v, %q", v.Fault, v.Ahead, v.BestKind, v.Why, w.ahead, w.best, w.why)
		}
	}
	if v := vs[4]; !v.HasPeaks || v.OursPeak != 32 || v.PeerPeak != 32 || v.HighestKind != SocketIOPolling {
		t.Errorf("restart peaks: %+v", v)
	}
	var out bytes.Buffer
	WriteRanking(&out, vs)
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if last := lines[len(lines)-1]; last != "ours at defaults: ahead or level on 3 of 5 faults" {
		t.Errorf("last line %q", last)
	}
	for _, want := range []string{"| healthy | 40 ms | 20 ms, centrifuge | 40 ms | – | ahead or level |",
		"| restart | 7400 ms | 6784 ms, centrifuge | 7462 ms | 32, 32 (socketio-polling) | ahead or level |",
		"| drop | – | 885 ms, socketio-polling | 973 ms | – | behind: ours-defaults not measured: test |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the ranking lacks %q:\n%s", want, out.String())
		}
	}

	// Without ours-defaults in the run, every fault is not ahead.
	rep.Options.Kinds = []Kind{SocketIOPolling, Centrifuge}
	if line := RankingLine(rep.Ranking()); line != "ours at defaults: ahead or level on 0 of 5 faults" {
		t.Errorf("without ours-defaults: %q", line)
	}
}
