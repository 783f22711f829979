package reconnect

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// The delays Backoff.Next hands out for a seeded Source and for its own
// stream at a known state are pinned, value by value, so that any change to
// how Next computes them (caching, another rounding path, another draw order)
// shows up here. Each pinned value is also checked against the exact-rational
// oracle of the fixtures (oracleDelayNs) fed with the same draws, so the pins
// cannot hold a wrong value.

// pinnedSeeded holds, per initial timeout, the first 24 delays of
// NewBackoff(initial, rand.New(rand.NewPCG(1, 2))) with a Reset before the
// 12th call.
var pinnedSeeded = []struct {
	initial time.Duration
	delays  []int64
}{
	{15 * time.Second, []int64{12970633021, 18154455129, 22457263012, 27421243538, 25213185904, 27669801087, 25084349841, 27970909829, 24161725171, 28311305294, 26371407555, 12216567847, 19344498340, 21368049646, 25815049468, 25415431846, 25687089803, 26486285100, 24270241710, 26898717185, 26173961563, 25707539857, 26666776379, 28298828914}},
	{1, []int64{1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}},
	{1 << 52, []int64{3894302536007960, 5450693156973894, 6742568088726164, 8232953478764872, 7570006309372246, 8307580390914727, 7531324573262516, 8397985272192228, 7254315765220270, 8500185598308112, 7917750749135824, 3667902027040146, 5807991701020544, 6415542694989884, 7750709811084423, 7630728625991399, 7712291204390456, 7952241580390137, 7286896768204532, 8076070179354039, 7858469569354721, 7718431128089986, 8006432277531127, 8496439690039794}},
	{math.MaxInt64 / 3, []int64{2658510531248100352, 3721006528494178304, 4602926481903728128, 5620362908170151936, 5167790973864785920, 5671308213531119616, 5141384242013877248, 5733024612483227648, 4952279562390370304, 5802793368445003776, 5405184511410055168, 2503954450459406336, 3964922334563358208, 4379677146446427136, 5291151231033632768, 5209244075343461376, 5264924128863884288, 5428730252213000192, 4974521527094293504, 5513263909105690624, 5364715226012822528, 5269115650109429760, 5465724434794582016, 5800236161733832704}},
}

func TestBackoffSeededSequenceIsPinned(t *testing.T) {
	for _, p := range pinnedSeeded {
		b := NewBackoff(p.initial, rand.New(rand.NewPCG(1, 2)))
		model := rand.New(rand.NewPCG(1, 2))
		var got []int64
		n := 0
		for i := range len(p.delays) {
			if i == 11 {
				b.Reset()
				n = 0
			}
			n++
			d := int64(b.Next())
			if want := oracleDelayNs(int64(p.initial), int64(n), model.Float64()); d != want {
				t.Errorf("initial %d, call %d (attempt %d): Next() = %d, the oracle says %d", p.initial, i+1, n, d, want)
			}
			got = append(got, d)
		}
		if !slices.Equal(got, p.delays) {
			t.Errorf("initial %d: Next() gave\n%v\nwant the pinned\n%v", p.initial, got, p.delays)
		}
	}
}

// wyrandReference is wyrand as published with wyhash (the version Go's
// runtime used for fastrand): the state advances by 0xa0761d6478bd642f and
// the output is the xor of the high and low halves of the 128-bit product
// state × (state ^ 0xe7037ed1a0b428db), here computed with math/big.
func wyrandReference(state *uint64) uint64 {
	*state += 0xa0761d6478bd642f
	p := new(big.Int).Mul(new(big.Int).SetUint64(*state), new(big.Int).SetUint64(*state^0xe7037ed1a0b428db))
	lo := new(big.Int).And(p, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := new(big.Int).Rsh(p, 64).Uint64()
	return hi ^ lo
}

// pinnedStream holds the first 12 delays of a 15 s Backoff with a nil
// Source whose wyrand stream is at state 1234567, with a Reset before the
// 7th call.
var pinnedStream = []int64{14830991246, 18303237744, 20921847580, 26130142415, 24736716462, 27710679958, 12417967233, 18844569064, 21737523617, 28181962141, 24086706826, 27352823326}

func TestBackoffOwnStreamIsWyrandAndPinned(t *testing.T) {
	b := NewBackoff(15*time.Second, nil)
	setStreamState(b, 1234567)
	s := uint64(1234567)
	var got []int64
	n := 0
	for i := range len(pinnedStream) {
		if i == 6 {
			b.Reset()
			n = 0
		}
		n++
		u := float64(wyrandReference(&s)>>11) / (1 << 53)
		d := int64(b.Next())
		if want := oracleDelayNs(int64(15*time.Second), int64(n), u); d != want {
			t.Errorf("call %d (attempt %d): Next() = %d, the oracle says %d", i+1, n, d, want)
		}
		got = append(got, d)
	}
	if !slices.Equal(got, pinnedStream) {
		t.Errorf("Next() gave\n%v\nwant the pinned\n%v", got, pinnedStream)
	}
}

// setStreamState puts the Backoff's own wyrand stream at state s.
func setStreamState(b *Backoff, s uint64) {
	if b.mode == modeUnset {
		b.setUp()
	}
	b.state = s
}

// Both paths of Next with a nil Source (the fast one, and the general one
// for an initial of 2⁵¹ ns or more) and the boundary between them follow
// the oracle draw by draw.
func TestBackoffOwnStreamMatchesOracleOnBothPaths(t *testing.T) {
	for _, initial := range []time.Duration{-5, 0, 1, 3, 15 * time.Second, 1<<51 - 1, 1 << 51, 1<<51 + 1, 1 << 52, 1<<53 + 1, math.MaxInt64 / 2, math.MaxInt64/2 + 1, math.MaxInt64} {
		b := NewBackoff(initial, nil)
		setStreamState(b, uint64(initial)*3+1)
		s := uint64(initial)*3 + 1
		n := 0
		for i := range 40 {
			if i%9 == 8 {
				b.Reset()
				n = 0
			}
			n++
			u := float64(wyrandReference(&s)>>11) / (1 << 53)
			if d, want := int64(b.Next()), oracleDelayNs(int64(initial), int64(n), u); d != want {
				t.Fatalf("initial %d, call %d (attempt %d, u %v): Next() = %d, the oracle says %d", initial, i+1, n, u, d, want)
			}
		}
	}
}

// A Source's draws are clamped as RetryDelay clamps them, whatever the
// initial.
func TestBackoffSourceDrawsOutsideTheUnitIntervalAreClamped(t *testing.T) {
	draws := []float64{math.NaN(), -1, 2, math.Inf(1), math.Inf(-1), 1, 0, 0.5, 1 - 0x1p-53}
	for _, initial := range []time.Duration{1, 15 * time.Second, 1 << 52, math.MaxInt64} {
		src := &listSource{u: draws}
		b := NewBackoff(initial, src)
		for i, u := range draws {
			if d, want := b.Next(), RetryDelay(initial, i+1, u); d != want {
				t.Fatalf("initial %v, draw %v: Next() = %v, want %v", initial, u, d, want)
			}
		}
	}
}

type listSource struct{ u []float64 }

func (s *listSource) Float64() float64 {
	u := s.u[0]
	s.u = s.u[1:]
	return u
}

// Making a Backoff allocates nothing when it does not outlive its function,
// and neither does its first Next (which seeds the stream).
func TestNewBackoffAllocatesNothingOnTheStack(t *testing.T) {
	var sink time.Duration
	if a := testing.AllocsPerRun(100, func() {
		b := NewBackoff(15*time.Second, nil)
		sink += b.Next() + b.Next()
	}); a != 0 {
		t.Fatalf("NewBackoff and two Next: %v allocations, want 0", a)
	}
	_ = sink
}

// Two Backoffs with a nil Source draw from different streams.
func TestBackoffsDrawFromDifferentStreams(t *testing.T) {
	a, b := NewBackoff(time.Hour, nil), NewBackoff(time.Hour, nil)
	same := 0
	for range 8 {
		if a.Next() == b.Next() {
			same++
		}
	}
	if same == 8 {
		t.Fatal("two Backoffs gave the same eight delays")
	}
}

// The own stream's jitter is uniform over (0.8, 1]: a chi-square test with
// 20 bins over 200,000 first delays from a fixed state (so the test is
// deterministic) stays below the 0.1 % critical value for 19 degrees of
// freedom, 43.82.
func TestBackoffOwnStreamJitterIsUniform(t *testing.T) {
	const bins, draws = 20, 200_000
	initial := time.Duration(1 << 40)
	b := NewBackoff(initial, nil)
	setStreamState(b, 42)
	var count [bins]int
	for range draws {
		b.Reset()
		j := float64(b.Next()) / float64(initial) // in [0.8, 1]
		k := min(int((1-j)/0.2*bins), bins-1)
		count[k]++
	}
	chi2 := 0.0
	for _, c := range count {
		d := float64(c) - draws/bins
		chi2 += d * d / (draws / bins)
	}
	if chi2 > 43.82 {
		t.Fatalf("chi-square %.2f over %d bins: %v", chi2, bins, count)
	}
	t.Logf("chi-square %.2f", chi2)
}
