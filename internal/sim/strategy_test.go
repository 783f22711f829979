package sim

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Each strategy's delays at chosen points, worked out by hand from the
// published schedules cited on the constants (not from this code).
func TestStrategyDelaysFollowThePublishedSchedules(t *testing.T) {
	ms := time.Millisecond
	sc := &StormConfig{Timeouts: reconnect.DefaultTimeouts(), Safe: SafeOptions{Window: 2 * time.Second, RetrySpread: 1, SuspendedSpread: 0.5}}
	cases := []struct {
		s    Strategy
		a    int
		u    float64
		want time.Duration
		ok   bool
	}{
		// socket.io: 1000·2ⁿ, deviation ⌊r·0.5·ms⌋, sign from ⌊10r⌋'s parity, then min(·, 5000).
		{StrategySocketIO, 0, 0.05, 975 * ms, true},
		{StrategySocketIO, 0, 0.15, 1075 * ms, true},
		{StrategySocketIO, 3, 0.95, 5000 * ms, true},
		{StrategySocketIO, 3, 0.8, 4800 * ms, true},
		{StrategySocketIO, 1100, 0.2, 0, true},         // ∞ − ∞ is NaN, NaN | 0 is 0
		{StrategySocketIO, 1100, 0.1, 5000 * ms, true}, // ∞ + ∞ capped
		// centrifuge-js: min(20 s, 500 ms + ⌊r·(min(20 s, 500 ms·2ⁿ)+1)⌋).
		{StrategyCentrifugeJS, 0, 0, 500 * ms, true},
		{StrategyCentrifugeJS, 0, 0.999, 1000 * ms, true},
		{StrategyCentrifugeJS, 10, 0.5, 10500 * ms, true},
		{StrategyCentrifugeJS, 40, 0.99, 20000 * ms, true},
		// centrifuge-go: U[200 ms, 200 ms·2ⁿ⁺¹] clamped to [200 ms, 20 s].
		{StrategyCentrifugeGo, 0, 0, 200 * ms, true},
		{StrategyCentrifugeGo, 0, 0.5, 300 * ms, true},
		{StrategyCentrifugeGo, 5, 0.1, 1460 * ms, true},
		{StrategyCentrifugeGo, 10, 0.5, 20 * time.Second, true},
		// phoenix: the table, then 5 s.
		{StrategyPhoenix, 0, 0.3, 10 * ms, true},
		{StrategyPhoenix, 8, 0.3, 2000 * ms, true},
		{StrategyPhoenix, 9, 0.3, 5 * time.Second, true},
		{StrategyPhoenix, 500, 0.3, 5 * time.Second, true},
		// signalr: 0, 2, 10, 30 s, then none.
		{StrategySignalR, 0, 0.3, 0, true},
		{StrategySignalR, 1, 0.3, 2 * time.Second, true},
		{StrategySignalR, 3, 0.3, 30 * time.Second, true},
		{StrategySignalR, 4, 0.3, 0, false},
		// The engine-rule strategies: the reconnect at once, then the envelope
		// 15 s × min((n+2)/3, 2) jittered.
		{StrategyRTB1, 0, 0.5, 0, true},
		{StrategyRTB1, 1, 0.5, 13500 * ms, true},
		{StrategyNone, 4, 0.5, 30 * time.Second, true},
		{StrategyFull, 1, 0.5, 7500 * ms, true},
		{StrategyEqual, 1, 0.5, 11250 * ms, true},
		{StrategyRTB1Safe, 0, 0.5, time.Second, true},
		{StrategyRTB1Safe, 1, 0.5, 7500 * ms, true},
	}
	for _, c := range cases {
		var prev uint32
		got, ok := c.s.delay(sc, c.a, c.u, &prev, nil)
		if got != c.want || ok != c.ok {
			t.Errorf("%s delay(a=%d, u=%v) = %v, %v; want %v, %v", c.s, c.a, c.u, got, ok, c.want, c.ok)
		}
	}
	if got := StrategyRTB1Safe.suspendedDelay(sc, 0.5); got != 22500*ms {
		t.Errorf("rtb1-safe SUSPENDED delay = %v, want 30 s × (1 − 0.5·0.5) = 22.5 s", got)
	}
	if got := StrategyRTB1.suspendedDelay(sc, 0.5); got != 30*time.Second {
		t.Errorf("rtb1 SUSPENDED delay = %v, want a flat 30 s", got)
	}
	// decorrelated: min(30 s, U[1 s, 3 × previous]), previous starting at 1 s.
	var prev uint32
	for i, c := range []struct {
		u    float64
		want time.Duration
	}{{0.3, 0}, {0.5, 2 * time.Second}, {1, 6 * time.Second}, {1, 18 * time.Second}, {1, 30 * time.Second}, {0, time.Second}} {
		if got, _ := StrategyDecorrelated.delay(sc, i, c.u, &prev, nil); got != c.want {
			t.Errorf("decorrelated delay %d = %v, want %v", i, got, c.want)
		}
	}
}

func TestParseStrategyRoundTripsEveryName(t *testing.T) {
	for _, s := range Strategies() {
		if got, err := ParseStrategy(s.String()); err != nil || got != s {
			t.Errorf("ParseStrategy(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseStrategy("RTB1"); err == nil {
		t.Error("names are case-sensitive")
	}
}

// phoenix.js's attempts fall at the running sums of its table: 10, 60,
// 160, 310, 510, 760, 1260 ms; with a 1 s restart the 1260 ms attempt is
// accepted.
func TestStormPhoenixAttemptsAtTheTablesRunningSums(t *testing.T) {
	r, err := Storm(StormConfig{Clients: 100, Strategy: StrategyPhoenix, Timeouts: reconnect.DefaultTimeouts(),
		Downtime: time.Second, Horizon: time.Minute, Bucket: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{10: 100, 60: 100, 160: 100, 310: 100, 510: 100, 760: 100, 1260: 100}
	for k, a := range r.Attempts {
		if a != want[k] {
			t.Fatalf("at %d ms %d attempts, want %d", k, a, want[k])
		}
	}
	if r.T99 != 1260*time.Millisecond || r.Refused != 600 || r.MedianDisconnected != 1260*time.Millisecond {
		t.Fatalf("%+v", r)
	}
}

// SignalR's default policy gives up after its four attempts (0, 2, 12,
// 42 s after the drop).
func TestStormSignalRGivesUpAfterFourAttempts(t *testing.T) {
	r, err := Storm(StormConfig{Clients: 500, Strategy: StrategySignalR, Timeouts: reconnect.DefaultTimeouts(),
		Downtime: time.Minute, Horizon: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if r.GaveUp != 500 || r.Reconnected != 0 || r.Total != 2000 || r.MeanDisconnected != 5*time.Minute {
		t.Fatalf("%+v", r)
	}
}

// With the safe options set to RTB1's own values (no window, 0.2 spread,
// flat SUSPENDED retries) rtb1-safe is rtb1.
func TestStormSafeWithRTB1ValuesIsRTB1(t *testing.T) {
	sc := StormConfig{Clients: 3000, Timeouts: reconnect.DefaultTimeouts(), Downtime: 3 * time.Minute, Capacity: 500,
		Horizon: 8 * time.Minute, Seed: 9, Safe: SafeOptions{RetrySpread: 0.2}}
	a, err := Storm(sc)
	if err != nil {
		t.Fatal(err)
	}
	sc.Strategy = StrategyRTB1Safe
	b, err := Storm(sc)
	if err != nil {
		t.Fatal(err)
	}
	if a.Total != b.Total || a.T99 != b.T99 || a.MeanDisconnected != b.MeanDisconnected {
		t.Fatalf("rtb1 %+v\nrtb1-safe %+v", a, b)
	}
}

// The storm's memory does not grow with the horizon: six hours of a
// refusing server allocate what one hour does, plus the longer histogram.
func TestStormMemoryDoesNotGrowWithTheHorizon(t *testing.T) {
	alloc := func(h time.Duration) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := Storm(StormConfig{Clients: 20000, Strategy: StrategyNone, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 0, Capacity: 1, Horizon: h, Bucket: time.Second}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	short, long := alloc(time.Hour), alloc(6*time.Hour)
	histogram := uint64(5 * 3600 * 8) // five more hours of one-second buckets
	if long > short+histogram+64<<10 {
		t.Fatalf("1 h allocated %d bytes, 6 h %d: more than the histogram's %d extra", short, long, histogram)
	}
}

func TestStormStopsAtItsAttemptBudget(t *testing.T) {
	_, err := Storm(StormConfig{Clients: 1000, Strategy: StrategyPhoenix, Timeouts: reconnect.DefaultTimeouts(),
		Downtime: time.Hour, Horizon: 2 * time.Hour, MaxAttempts: 100_000})
	if !errors.Is(err, ErrStormBudget) {
		t.Fatalf("err = %v, want ErrStormBudget", err)
	}
}

func TestStormRejectsTooManyBuckets(t *testing.T) {
	_, err := Storm(StormConfig{Clients: 1, Timeouts: reconnect.DefaultTimeouts(), Horizon: 6 * time.Hour, Bucket: time.Millisecond})
	if err == nil {
		t.Fatal("21,600,000 buckets accepted")
	}
}

// A healthy client's drop reconnects in about a connect's time today and
// about W/2 later with a reconnect window W (the median of U[0, W]).
func TestDropOnAHealthyNetworkCostsHalfTheWindowAtTheMedian(t *testing.T) {
	healthy := Builtin()[0]
	median := func(w time.Duration) time.Duration {
		cfg := engine.AblyConfig()
		cfg.ReconnectWindow = w
		r := rand.New(rand.NewPCG(1, 2))
		var ts []time.Duration
		for range 2000 {
			res := SimulateDrop(healthy, cfg, time.Minute, r)
			if !res.Connected {
				t.Fatalf("window %v: not reconnected", w)
			}
			ts = append(ts, res.TimeToConnect)
		}
		slices.Sort(ts)
		return ts[len(ts)/2]
	}
	today, windowed := median(0), median(2*time.Second)
	if today > 200*time.Millisecond || windowed-today < 900*time.Millisecond || windowed-today > 1100*time.Millisecond {
		t.Fatalf("median drop to CONNECTED %v today, %v with a 2 s window", today, windowed)
	}
}
