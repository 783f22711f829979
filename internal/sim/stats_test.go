package sim

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// defaultTimeouts and defaultMix are simulate timeout's defaults.
var (
	defaultTimeouts = []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 1500 * time.Millisecond,
		2 * time.Second, 3 * time.Second, 4 * time.Second, 6 * time.Second, 8 * time.Second, 10 * time.Second}
	defaultMix = map[string]float64{"healthy": 0.90, "slow-mobile": 0.06, "proxy-rejects-websocket": 0.01,
		"proxy-blackholes-websocket": 0.01, "primary-down": 0.01, "flapping": 0.01}
	defaultCost = Cost{PerSecond: 1, PerWasted: 0.05}
)

func study(t *testing.T, profiles []Profile, timeouts []time.Duration, clients int, seed uint64) Study {
	t.Helper()
	st, err := Run(SweepConfig{Profiles: profiles, Timeouts: timeouts, Policies: []engine.Policy{engine.PolicyWebSocketFirst},
		Clients: clients, Horizon: 5 * time.Minute, Seed: seed, Base: engine.AblyConfig()})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Common random numbers: client k of a profile sees the same network under
// every timeout. Behind a websocket blackhole its time to CONNECTED is
// the timeout plus its own HTTP latency, so two timeouts differ by exactly
// their difference, client by client; on a healthy network a client whose
// websocket connects within both timeouts connects at the same instant.
func TestClientsSeeTheSameNetworkUnderEveryTimeout(t *testing.T) {
	ps, _ := Select(Builtin(), []string{"proxy-blackholes-websocket", "healthy"})
	ts := []time.Duration{250 * time.Millisecond, 2 * time.Second}
	st := study(t, ps, ts, 300, 7)
	bh0, bh1, h0, h1 := st.Samples[0], st.Samples[1], st.Samples[2], st.Samples[3]
	for k := range bh0 {
		if d := bh1[k].TimeToConnect - bh0[k].TimeToConnect; d != ts[1]-ts[0] {
			t.Fatalf("blackhole client %d: %v then %v, difference %v", k, bh0[k].TimeToConnect, bh1[k].TimeToConnect, d)
		}
	}
	same := 0
	for k := range h0 {
		if h0[k].TimeToConnect < 200*time.Millisecond {
			if h0[k] != h1[k] {
				t.Fatalf("healthy client %d: %+v under 250ms, %+v under 2s", k, h0[k], h1[k])
			}
			same++
		}
	}
	if same < 290 {
		t.Fatalf("only %d of 300 healthy clients connected within 200ms", same)
	}
	// A profile's clients do not depend on the other profiles simulated.
	alone := study(t, ps[1:], ts, 300, 7)
	if !slices.Equal(alone.Samples[0], h0) {
		t.Fatal("healthy's clients changed when simulated without the blackhole profile")
	}
}

func TestIntervalsOfKnownData(t *testing.T) {
	// 1..10: mean 5.5, sample sd √(55/6), half-width 1.96 × sd / √10.
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	i := meanInterval(xs)
	half := z95 * math.Sqrt(55.0/6) / math.Sqrt(10)
	if math.Abs(i.Value-5.5) > 1e-12 || math.Abs(i.Half()-half) > 1e-12 {
		t.Fatalf("%+v, want 5.5 ± %v", i, half)
	}
	// Wilson for 0 of 10: [0, z²/(n+z²)].
	w := wilson(0, 10)
	if w.Lo != 0 || math.Abs(w.Hi-z95*z95/(10+z95*z95)) > 1e-12 {
		t.Fatalf("wilson(0, 10) = %+v", w)
	}
	if w := wilson(10, 10); w.Hi != 1 || w.Lo >= 1 {
		t.Fatalf("wilson(10, 10) = %+v", w)
	}
	// The median of 1..100 ms: the ranks 50 ± 1.96·5 (40.2, 59.8) give
	// 40 ms and 60 ms.
	var sorted []time.Duration
	for k := 1; k <= 100; k++ {
		sorted = append(sorted, time.Duration(k)*time.Millisecond)
	}
	q := quantileInterval(sorted, 0.5)
	if q.Value != 50*time.Millisecond || q.Lo != 40*time.Millisecond || q.Hi != 60*time.Millisecond {
		t.Fatalf("median interval %+v", q)
	}
	if q := quantileInterval(sorted[:1], 0.9); q.Lo != q.Value || q.Hi != q.Value {
		t.Fatalf("one value: %+v", q)
	}
}

// The verdicts follow the interval of the paired difference against the
// threshold, and a one-profile mix is that profile's band.
func TestBandVerdictsAndAOneProfileMix(t *testing.T) {
	stats := func(diffs ...moments) []choiceStats {
		out := make([]choiceStats, len(diffs))
		for i, d := range diffs {
			out[i] = choiceStats{cost: moments{1 + d.mean, 0}, sumsDiff: make([]float64, len(diffs)), diffVar: make([]float64, len(diffs)), connected: 1}
			out[i].sumsDiff[0], out[i].diffVar[0] = d.mean, d.variance
		}
		return out
	}
	se := func(half float64) float64 { return (half / z95) * (half / z95) }
	ts := []time.Duration{1, 2, 3, 4}
	// Threshold max(2.5 % of 1, 0.01) = 0.025.
	b := bandOf("x", ts, stats(moments{0, 0}, moments{0.01, se(0.01)}, moments{0.025, se(0.01)}, moments{0.05, se(0.01)}), DefaultEquivalence)
	want := []Verdict{VerdictBest, VerdictTied, VerdictUndecided, VerdictWorse}
	for i, c := range b.Choices {
		if c.Verdict != want[i] {
			t.Errorf("choice %d: %v, want %v (%+v)", i, c.Verdict, want[i], c.Diff)
		}
	}
	if math.Abs(b.Threshold-0.025) > 1e-12 || !slices.Equal(b.Tied, ts[:2]) || !slices.Equal(b.Undecided, ts[2:3]) {
		t.Fatalf("%+v", b)
	}

	ps, _ := Select(Builtin(), []string{"slow-mobile", "healthy"})
	st := study(t, ps, defaultTimeouts[:4], 200, 3)
	bands := Bands(st, defaultCost, DefaultEquivalence)
	mix, err := MixBand(st, map[string]float64{"slow-mobile": 3}, defaultCost, DefaultEquivalence)
	if err != nil {
		t.Fatal(err)
	}
	mix.Of = bands[0].Of
	if !closeBands(mix, bands[0]) {
		t.Fatalf("mix of slow-mobile alone:\n%+v\nslow-mobile:\n%+v", mix, bands[0])
	}
	if _, err := MixBand(st, map[string]float64{"offline": 1}, defaultCost, DefaultEquivalence); err == nil {
		t.Fatal("a mix naming a profile not simulated was accepted")
	}
}

func closeBands(a, b Band) bool {
	if a.Best != b.Best || !slices.Equal(a.Tied, b.Tied) || len(a.Choices) != len(b.Choices) {
		return false
	}
	for i := range a.Choices {
		x, y := a.Choices[i], b.Choices[i]
		for _, p := range [][2]float64{{x.Cost.Lo, y.Cost.Lo}, {x.Diff.Hi, y.Diff.Hi}, {x.Seconds.Value, y.Seconds.Value}} {
			if math.Abs(p[0]-p[1]) > 1e-9 {
				return false
			}
		}
	}
	return true
}

// The recommendation is stable: the bands of the built-in profiles and
// of the default mix are the same for 200 and 2,000 clients and for seeds
// 1 to 5, and no timeout is undecided. About 10 s (2 cores); the plain
// `go test ./...` runs it, -short and the race detector skip it.
func TestBandsAreTheSameFor200And2000ClientsAndFiveSeeds(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("about 10 s: run without -short and without -race")
	}
	type result struct {
		tied      map[string][]time.Duration
		undecided map[string][]time.Duration
	}
	var runs []result
	var names []string
	for _, n := range []int{200, 2000} {
		for seed := uint64(1); seed <= 5; seed++ {
			st := study(t, Builtin(), defaultTimeouts, n, seed)
			bands := Bands(st, defaultCost, DefaultEquivalence)
			mix, err := MixBand(st, defaultMix, defaultCost, DefaultEquivalence)
			if err != nil {
				t.Fatal(err)
			}
			r := result{map[string][]time.Duration{}, map[string][]time.Duration{}}
			for _, b := range append(bands, mix) {
				r.tied[b.Of], r.undecided[b.Of] = b.Tied, b.Undecided
				if len(b.Undecided) > 0 {
					t.Errorf("%d clients, seed %d, %s: %v undecided", n, seed, b.Of, b.Undecided)
				}
				if len(runs) == 0 {
					names = append(names, b.Of)
				}
			}
			runs = append(runs, r)
			for _, name := range names {
				if !slices.Equal(r.tied[name], runs[0].tied[name]) {
					t.Errorf("%d clients, seed %d, %s: band %v; with 200 clients and seed 1, %v", n, seed, name, r.tied[name], runs[0].tied[name])
				}
			}
		}
	}
	// The answer docs/short-circuit.md gives.
	ms := func(v ...int) []time.Duration {
		var out []time.Duration
		for _, x := range v {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	for name, want := range map[string][]time.Duration{"mix": ms(250, 500), "slow-mobile": ms(250), "proxy-blackholes-websocket": ms(250),
		"healthy": defaultTimeouts, "flapping": defaultTimeouts, "proxy-rejects-websocket": defaultTimeouts} {
		if !slices.Equal(runs[0].tied[name], want) {
			t.Errorf("%s: band %v, want %v", name, runs[0].tied[name], want)
		}
	}
}

// The one-pass interval of a cell's counts is the two-pass one.
func TestRunningIntervalMatchesTheTwoPassOne(t *testing.T) {
	xs := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}
	var r running
	for _, x := range xs {
		r.add(x)
	}
	got, want := r.interval(), meanInterval(xs)
	if math.Abs(got.Value-want.Value) > 1e-12 || math.Abs(got.Lo-want.Lo) > 1e-12 || math.Abs(got.Hi-want.Hi) > 1e-12 {
		t.Fatalf("%+v, want %+v", got, want)
	}
	var one running
	one.add(2)
	if i := one.interval(); i.Lo != 2 || i.Hi != 2 {
		t.Fatalf("one value: %+v", i)
	}
}
