package reconnect

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ---- The oracle ----------------------------------------------------------
//
// The oracle computes RTB1 from its definition and this package's decisions
// (doc.go) with exact rational arithmetic
// (math/big.Rat). The spec defines the arithmetic as float64 in the order
// initial × backoff × jitter; the oracle therefore rounds to the nearest
// float64 (ties to even, as IEEE 754 does) exactly where that definition
// rounds, and nowhere else. It shares no code with the package.

var (
	ratOne    = big.NewRat(1, 1)
	ratTwo    = big.NewRat(2, 1)
	ratHalf   = big.NewRat(1, 2)
	ratFifth  = big.NewRat(1, 5)
	ratMaxDur = new(big.Rat).SetInt64(math.MaxInt64)
)

// toFloat64 rounds an exact rational to the nearest float64 and returns that
// float64 as an exact rational again.
func toFloat64(r *big.Rat) *big.Rat {
	f, _ := r.Float64()
	return new(big.Rat).SetFloat64(f)
}

// oracleCoefficient is RTB1a: min((n+2)/3, 2) with n < 1 read as 1, as a
// float64 value.
func oracleCoefficient(n int64) *big.Rat {
	if n < 1 {
		n = 1
	}
	c := big.NewRat(n+2, 3)
	if c.Cmp(ratTwo) > 0 {
		c = ratTwo
	}
	return toFloat64(c)
}

// oracleCoefficientExact is the same coefficient as an exact fraction.
func oracleCoefficientExact(n int64) string {
	if n < 1 {
		n = 1
	}
	c := big.NewRat(n+2, 3)
	if c.Cmp(ratTwo) > 0 {
		c = ratTwo
	}
	return c.RatString()
}

// oracleClamp is the decided clamping rule for u: into [0, 1], NaN as 0.
func oracleClamp(u float64) *big.Rat {
	if math.IsNaN(u) || u <= 0 {
		return new(big.Rat)
	}
	if u >= 1 {
		return big.NewRat(1, 1)
	}
	return new(big.Rat).SetFloat64(u)
}

// oracleJitter is RTB1b, 1 − 0.2·u, as float64 arithmetic: 0.2 is the
// float64 nearest 1/5, and the product is rounded before the subtraction.
func oracleJitter(u float64) *big.Rat {
	p := toFloat64(new(big.Rat).Mul(toFloat64(ratFifth), oracleClamp(u)))
	return toFloat64(new(big.Rat).Sub(ratOne, p))
}

// oracleDelayNs is RTB1 in nanoseconds: initial ≤ 0 gives 0; the float64
// product initial × backoff × jitter, rounded to the nearest integer with
// halves going up, saturating at math.MaxInt64.
func oracleDelayNs(initialNs, n int64, u float64) int64 {
	if initialNs <= 0 {
		return 0
	}
	x := oracleProduct(initialNs, n, u)
	if x.Cmp(ratMaxDur) >= 0 {
		return math.MaxInt64
	}
	x.Add(x, ratHalf)
	q := new(big.Int).Quo(x.Num(), x.Denom()) // floor, x > 0
	return q.Int64()
}

// oracleProduct is the float64 product initial × backoff × jitter in
// nanoseconds, before any rounding to a whole nanosecond, as an exact
// rational.
func oracleProduct(initialNs, n int64, u float64) *big.Rat {
	x := toFloat64(new(big.Rat).SetInt64(initialNs))
	x = toFloat64(x.Mul(x, oracleCoefficient(n)))
	return toFloat64(x.Mul(x, oracleJitter(u)))
}

// exactDelay is the real-valued RTB1 delay with no float64 rounding at all:
// initial × min((n+2)/3, 2) × (1 − u/5), for comparing with the float64
// definition.
func exactDelay(initialNs, n int64, u float64) *big.Rat {
	if n < 1 {
		n = 1
	}
	c := big.NewRat(n+2, 3)
	if c.Cmp(ratTwo) > 0 {
		c = ratTwo
	}
	j := new(big.Rat).Sub(ratOne, new(big.Rat).Mul(ratFifth, oracleClamp(u)))
	d := new(big.Rat).SetInt64(initialNs)
	return d.Mul(d.Mul(d, c), j)
}

func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

// ---- The fixture file ----------------------------------------------------

// delayFile is the layout rtb1.json and retry.json share: the header, then
// the items of the file's kind.
type delayFile[I any] struct {
	Comment         string      `json:"_comment"`
	Spec            string      `json:"spec"`
	FormatVersion   int         `json:"formatVersion"`
	Units           fixtureUnit `json:"units"`
	Tolerance       tolerance   `json:"tolerance"`
	BoundsInclusive bool        `json:"boundsInclusive"`
	Decisions       []string    `json:"decisions"`
	Items           []I         `json:"items"`
}

type rtb1File = delayFile[rtb1Item]

type fixtureUnit struct {
	Time  string `json:"time"`
	Exact string `json:"exact"`
}

type tolerance struct {
	Comment    string      `json:"_comment"`
	AbsoluteMs json.Number `json:"absoluteMs"`
	Relative   json.Number `json:"relative"`
}

type rtb1Item struct {
	ID       string          `json:"id"`
	Spec     string          `json:"spec"`
	Function string          `json:"function"`
	Comment  string          `json:"_comment,omitempty"`
	UTS      []string        `json:"uts,omitempty"`
	Initial  json.Number     `json:"initialMs,omitempty"`
	Attempt  *int64          `json:"attempt,omitempty"`
	U        json.RawMessage `json:"u,omitempty"`

	ExpectedCoefficient      json.RawMessage `json:"expectedCoefficient,omitempty"`
	ExpectedCoefficientExact string          `json:"expectedCoefficientExact,omitempty"`
	ExpectedJitter           json.RawMessage `json:"expectedJitter,omitempty"`
	ExpectedDelayMs          json.Number     `json:"expectedDelayMs,omitempty"`
	ExpectedDelayNs          string          `json:"expectedDelayNs,omitempty"`
	ExpectedLowerMs          json.Number     `json:"expectedLowerMs,omitempty"`
	ExpectedLowerNs          string          `json:"expectedLowerNs,omitempty"`
	ExpectedUpperMs          json.Number     `json:"expectedUpperMs,omitempty"`
	ExpectedUpperNs          string          `json:"expectedUpperNs,omitempty"`
	UTSBandMs                []int64         `json:"utsBandMs,omitempty"`
}

// overflowEdgeMs is the largest whole number of milliseconds whose RTB1
// upper bound (2 × initial) still fits in a time.Duration.
const overflowEdgeMs = math.MaxInt64 / 2 / int64(time.Millisecond)

func buildRTB1Fixture() rtb1File {
	f := rtb1File{
		Comment: "RTB1 incremental backoff and jitter: shared test cases. Generated from an exact-rational oracle " +
			"(go test -run Fixture -update in the reconnect repository); do not edit by hand. See fixtures/README.md.",
		Spec:          "RTB1",
		FormatVersion: 1,
		Units: fixtureUnit{
			Time: "milliseconds, as JSON numbers with up to six decimals (whole nanoseconds)",
			Exact: "the *Ns fields repeat a value as a decimal string of whole nanoseconds: the float64 computation of the decisions below, rounded half away from zero and saturated. " +
				"An integer implementation that computes the exact value initial*min((n+2)/3,2)*(1-u/5) and rounds it the same way gets the same string below 2^53 ns and is within max(1 ns, 1e-14 * the value) above (checked for every case)",
		},
		Tolerance: tolerance{
			Comment:    "an actual millisecond value a passes against expected e when |a - e| <= max(absoluteMs, relative * |e|); coefficients compare with relative alone",
			AbsoluteMs: "0.000001",
			Relative:   "1e-14",
		},
		BoundsInclusive: true,
		Decisions: []string{
			"n is 1-indexed: the first retry is attempt 1; an attempt below 1 is treated as 1 (never a 2/3 coefficient)",
			"jitter coefficient = 1 - 0.2*u for a uniform draw u in [0, 1]; u outside [0, 1] is clamped into it and NaN counts as 0",
			"arithmetic: float64, in the order initial * backoff * jitter, with 0.2*u rounded before the subtraction; the result is rounded to the nearest nanosecond, halves away from zero",
			"initial <= 0 gives 0; a result beyond the largest signed 64-bit nanosecond count saturates at 9223372036854775807 ns",
			"bounds: upper = the delay at u = 0, lower = the delay at u = 1; both are inclusive",
		},
	}
	add := func(it rtb1Item) { f.Items = append(f.Items, it) }
	i64 := func(v int64) *int64 { return &v }

	// RTB1a coefficients.
	for _, n := range []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, -1, -100, -9007199254740991, 2147483647, 9007199254740991,
		// the int32 and 2^53 edges, on both sides
		2147483648, 4294967296, -2147483648, -2147483649, 9007199254740992, -9007199254740992} {
		it := rtb1Item{
			ID: "rtb1a-coefficient-n" + signedID(n), Spec: "RTB1a", Function: "backoffCoefficient",
			Attempt:                  i64(n),
			ExpectedCoefficient:      floatNumber(ratFloat(oracleCoefficient(n))),
			ExpectedCoefficientExact: oracleCoefficientExact(n),
		}
		if n < 1 {
			it.Comment = "attempt below 1 is treated as 1"
		}
		add(it)
	}

	// RTB1b jitter coefficients.
	type uCase struct {
		id   string
		u    float64
		note string
	}
	uCases := []uCase{
		{"0", 0, ""}, {"0.25", 0.25, ""}, {"0.5", 0.5, ""}, {"0.75", 0.75, ""},
		{"1-2^-53", 1 - 0x1p-53, "the largest draw below 1, as math/rand's Float64 can return"},
		{"1", 1, ""},
		{"-0.5", -0.5, "clamped to 0"}, {"1.5", 1.5, "clamped to 1"},
		{"-inf", math.Inf(-1), "clamped to 0"}, {"+inf", math.Inf(1), "clamped to 1"},
		{"nan", math.NaN(), "NaN counts as 0"},
		{"min-subnormal", 0x1p-1074, "smallest positive float64"},
	}
	for _, c := range uCases {
		add(rtb1Item{
			ID: "rtb1b-jitter-u" + c.id, Spec: "RTB1b", Function: "jitterCoefficient", Comment: c.note,
			U: floatNumber(c.u), ExpectedJitter: floatNumber(ratFloat(oracleJitter(c.u))),
		})
	}

	// RTB1 delays and bounds.
	initials := []struct {
		id   string
		ms   int64
		note string
	}{
		{"15000", 15000, ""}, {"2000", 2000, ""}, {"1", 1, ""}, {"3001", 3001, "not a multiple of 3"},
		{"edge", overflowEdgeMs - 1, "1 ms below the largest whole-millisecond initial whose upper bound fits in 64-bit nanoseconds"},
	}
	us := []struct {
		id string
		u  float64
	}{{"0", 0}, {"0.3", 0.3}, {"0.5", 0.5}, {"1-2^-53", 1 - 0x1p-53}, {"1", 1}}
	for _, in := range initials {
		for _, n := range []int64{1, 2, 3, 4, 5, 100} {
			for _, u := range us {
				d := oracleDelayNs(in.ms*1e6, n, u.u)
				add(rtb1Item{
					ID:   fmt.Sprintf("rtb1-delay-i%s-n%d-u%s", in.id, n, u.id),
					Spec: "RTB1", Function: "retryDelay", Comment: in.note,
					Initial: json.Number(strconv.FormatInt(in.ms, 10)), Attempt: i64(n), U: floatNumber(u.u),
					ExpectedDelayMs: msFromNs(d), ExpectedDelayNs: strconv.FormatInt(d, 10),
				})
			}
		}
	}
	bounds := func(id, note string, ms, n int64, band []int64) {
		lo, hi := oracleDelayNs(ms*1e6, n, 1), oracleDelayNs(ms*1e6, n, 0)
		add(rtb1Item{
			ID: id, Spec: "RTB1", Function: "retryBounds", Comment: note,
			Initial: json.Number(strconv.FormatInt(ms, 10)), Attempt: i64(n),
			ExpectedLowerMs: msFromNs(lo), ExpectedLowerNs: strconv.FormatInt(lo, 10),
			ExpectedUpperMs: msFromNs(hi), ExpectedUpperNs: strconv.FormatInt(hi, 10),
			UTSBandMs: band,
		})
	}
	for _, in := range initials {
		for _, n := range []int64{1, 2, 3, 4, 5, 100} {
			bounds(fmt.Sprintf("rtb1-bounds-i%s-n%d", in.id, n), in.note, in.ms, n, nil)
		}
	}

	// Saturation and non-positive initials.
	sat := int64(math.MaxInt64 / time.Millisecond) // 9223372036854 ms
	for _, c := range []struct {
		id      string
		ms, n   int64
		u       float64
		comment string
	}{
		{"rtb1-saturate-n4-u0", sat, 4, 0, "2 x initial overflows 64-bit nanoseconds: saturates at the maximum"},
		{"rtb1-saturate-n4-u1", sat, 4, 1, "0.8 x 2 x initial still overflows: saturates"},
		{"rtb1-saturate-n1-u0", sat, 1, 0, "1 x initial fits: no saturation"},
		{"rtb1-initial-zero", 0, 3, 0.5, "initial <= 0 gives 0"},
		{"rtb1-initial-negative", -15000, 3, 0.5, "initial <= 0 gives 0"},
		{"rtb1-initial-minus-one", -1, 1, 0, "initial <= 0 gives 0"},
		{"rtb1-initial-negative-n5-u1", -15000, 5, 1, "initial <= 0 gives 0"},
		{"rtb1-attempt-zero", 15000, 0, 0, "attempt 0 is treated as attempt 1 (not a 2/3 coefficient)"},
		{"rtb1-attempt-negative", 15000, -5, 0, "negative attempts are treated as attempt 1"},
		{"rtb1-u-nan", 15000, 2, math.NaN(), "NaN counts as u = 0"},
		{"rtb1-u-above-one", 15000, 2, 7, "u above 1 counts as 1"},
	} {
		d := oracleDelayNs(c.ms*1e6, c.n, c.u)
		add(rtb1Item{
			ID: c.id, Spec: "RTB1", Function: "retryDelay", Comment: c.comment,
			Initial: json.Number(strconv.FormatInt(c.ms, 10)), Attempt: i64(c.n), U: floatNumber(c.u),
			ExpectedDelayMs: msFromNs(d), ExpectedDelayNs: strconv.FormatInt(d, 10),
		})
	}
	// A float64 product of exactly 2^63 ns: the first value past the
	// largest Duration, and float64(math.MaxInt64) itself, so an
	// implementation that saturates only above float64(math.MaxInt64) (a >
	// where >= is needed) converts 2^63 to an int64 and overflows. The
	// draw is tuned so that initial × 2 × jitter rounds to exactly 2^63 in
	// float64; the second draw gives the float64 just below it (2^63 −
	// 1024), which fits.
	for _, c := range []struct {
		id      string
		ms, n   int64
		u       float64
		comment string
	}{
		{"rtb1-product-exactly-2p63-n4", 4611686018428, 4, 6.639e-13, "initial x 2 x jitter is exactly 2^63 ns in float64, one past the largest Duration: saturates at the maximum (not an overflow)"},
		{"rtb1-product-exactly-2p63-n100", 4611686018430, 100, 2.832e-12, "initial x 2 x jitter is exactly 2^63 ns in float64 (another initial and attempt): saturates at the maximum"},
		{"rtb1-product-below-2p63-n4", 4611686018428, 4, 6.645e-13, "initial x 2 x jitter is 2^63 - 1024 ns in float64, the largest float64 below 2^63: fits, no saturation"},
	} {
		d := oracleDelayNs(c.ms*1e6, c.n, c.u)
		add(rtb1Item{
			ID: c.id, Spec: "RTB1", Function: "retryDelay", Comment: c.comment,
			Initial: json.Number(strconv.FormatInt(c.ms, 10)), Attempt: i64(c.n), U: floatNumber(c.u),
			ExpectedDelayMs: msFromNs(d), ExpectedDelayNs: strconv.FormatInt(d, 10),
		})
	}
	bounds("rtb1-bounds-saturate-n4", "both bounds saturate", sat, 4, nil)
	// Bounds near the overflow edge: the lower bound is the delay at u = 1,
	// saturated on its own, never 0.8 × a saturated upper bound.
	for _, n := range []int64{1, 2, 3, 5, 100} {
		bounds(fmt.Sprintf("rtb1-bounds-saturate-n%d", n), "near the 64-bit nanosecond edge: each bound saturates on its own", sat, n, nil)
		bounds(fmt.Sprintf("rtb1-bounds-edge90-n%d", n), "90% of the edge: the upper bound saturates from n = 2, the lower bound not before n = 3", sat/10*9, n, nil)
	}
	// Products that end in exactly half a nanosecond with an even whole
	// part: halves round away from zero, not to even.
	for k := int64(0); k < 8; k++ {
		u := float64(4*k+3) / 128
		d := oracleDelayNs(1e6, 1, u)
		add(rtb1Item{
			ID: fmt.Sprintf("rtb1-delay-tie-i1-n1-u%d-128", 4*k+3), Spec: "RTB1", Function: "retryDelay",
			Comment: "initial × backoff × jitter ends in exactly .5 ns with an even whole part: rounds away from zero (not half to even)",
			Initial: json.Number("1"), Attempt: i64(1), U: floatNumber(u),
			ExpectedDelayMs: msFromNs(d), ExpectedDelayNs: strconv.FormatInt(d, 10),
		})
	}

	// Rounding to a whole nanosecond, where the ways of rounding differ.
	// The draws u = 5/128 and 5/256 make 0.2·u a power of two, so the
	// jitter coefficient is exactly 127/128 or 255/256 and the delay is an
	// exact product: a tie k + 1/2 with k even (halves to even goes down,
	// away from zero up), or an odd whole number from 2^52 ns on, where
	// floor(x + 0.5) goes up because x + 0.5 rounds to even in float64.
	// TestFixtureRTB1RoundingCases checks each is what its id says.
	for _, c := range []struct {
		kind  string
		ms, n int64
		u     float64
		note  string
	}{
		{"tie", 3, 1, 0x5p-7, "2976562.5 ns: halves away from zero give 2976563, halves to even 2976562"},
		{"tie", 7, 1, 0x5p-7, "6945312.5 ns: halves away from zero give 6945313, halves to even 6945312"},
		{"tie", 15003, 1, 0x5p-7, "14885789062.5 ns: halves away from zero give 14885789063, halves to even 14885789062"},
		{"tie", 2003, 5, 0x5p-8, "3990351562.5 ns: halves away from zero give 3990351563, halves to even 3990351562"},
		{"2^52", 4539061550, 1, 0x5p-7, "an odd whole number of nanoseconds above 2^52: floor(x + 0.5) is 1 ns too high"},
		{"2^52", 4521262252, 1, 0x5p-8, "an odd whole number of nanoseconds above 2^52: floor(x + 0.5) is 1 ns too high"},
		{"2^52", 2269530775, 5, 0x5p-7, "an odd whole number of nanoseconds above 2^52: floor(x + 0.5) is 1 ns too high"},
	} {
		d := oracleDelayNs(c.ms*1e6, c.n, c.u)
		add(rtb1Item{
			ID:   fmt.Sprintf("rtb1-%s-i%d-n%d-u%s", c.kind, c.ms, c.n, strconv.FormatFloat(c.u, 'g', -1, 64)),
			Spec: "RTB1", Function: "retryDelay", Comment: c.note,
			Initial: json.Number(strconv.FormatInt(c.ms, 10)), Attempt: i64(c.n), U: floatNumber(c.u),
			ExpectedDelayMs: msFromNs(d), ExpectedDelayNs: strconv.FormatInt(d, 10),
		})
	}

	// The bands the cross-SDK unit test spec uses for a 2000 ms timeout,
	// rounded to whole milliseconds there.
	for n, band := range [][]int64{{1600, 2000}, {2133, 2667}, {2667, 3333}, {3200, 4000}, {3200, 4000}} {
		bounds(fmt.Sprintf("uts-band-2000-n%d", n+1), "utsBandMs is the published band, rounded to whole ms", 2000, int64(n+1), band)
	}
	f.Items = append(f.Items, utsRTB1Items()...)
	return f
}

func signedID(n int64) string {
	if n < 0 {
		return "minus" + strconv.FormatInt(-n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// ---- Tests ---------------------------------------------------------------

func TestFixtureRTB1MatchesOracle(t *testing.T) {
	checkGolden(t, "rtb1.json", buildRTB1Fixture())
}

// TestFixtureRTB1RoundingCases checks the rounding cases are what their
// ids say: "rtb1-tie-…" a float64 product k + 1/2 with k even,
// "rtb1-2^52-…" an odd whole float64 product in [2^52, 2^53) ns; and that
// their exact real value is the same number (so an integer implementation
// meets the same tie).
func TestFixtureRTB1RoundingCases(t *testing.T) {
	var f rtb1File
	loadFixture(t, "rtb1.json", &f)
	ties, edges := 0, 0
	for _, it := range f.Items {
		tie, edge := strings.HasPrefix(it.ID, "rtb1-tie-"), strings.HasPrefix(it.ID, "rtb1-2^52-")
		if !tie && !edge {
			continue
		}
		ms, err := strconv.ParseInt(string(it.Initial), 10, 64)
		if err != nil {
			t.Fatalf("%s: initialMs %s", it.ID, it.Initial)
		}
		u := rawU(t, it.U)
		x := oracleProduct(ms*1e6, *it.Attempt, u)
		if x.Cmp(exactDelay(ms*1e6, *it.Attempt, u)) != 0 {
			t.Errorf("%s: the float64 product %s is not the exact value", it.ID, x.RatString())
		}
		twice := new(big.Rat).Mul(x, ratTwo)
		switch {
		case tie:
			ties++
			// x = k + 1/2 with k even: 2x is an integer ≡ 1 (mod 4).
			if !twice.IsInt() || new(big.Int).Mod(twice.Num(), big.NewInt(4)).Int64() != 1 {
				t.Errorf("%s: %s ns is not k + 1/2 with k even", it.ID, x.FloatString(3))
			}
		case edge:
			edges++
			lo, hi := new(big.Rat).SetFloat64(0x1p52), new(big.Rat).SetFloat64(0x1p53)
			if !x.IsInt() || x.Num().Bit(0) != 1 || x.Cmp(lo) < 0 || x.Cmp(hi) >= 0 {
				t.Errorf("%s: %s ns is not an odd whole number in [2^52, 2^53)", it.ID, x.FloatString(3))
			}
		}
	}
	if ties < 2 || edges < 2 {
		t.Fatalf("%d tie and %d 2^52 cases, want at least 2 of each", ties, edges)
	}
}

// TestFixtureRTB1AgainstFunctions runs every committed case against the
// package's functions, exactly (to the nanosecond and to the float64 bit).
func TestFixtureRTB1AgainstFunctions(t *testing.T) {
	var f rtb1File
	loadFixture(t, "rtb1.json", &f)
	if len(f.Items) == 0 {
		t.Fatal("no items")
	}
	seen := map[string]bool{}
	for _, it := range f.Items {
		if seen[it.ID] {
			t.Errorf("duplicate id %s", it.ID)
		}
		seen[it.ID] = true
		var initial time.Duration
		if it.Initial != "" {
			initial = nsFromMs(t, it.Initial)
		}
		var attempt int
		if it.Attempt != nil {
			attempt = int(*it.Attempt)
		}
		switch it.Function {
		case "backoffCoefficient":
			if got, want := BackoffCoefficient(attempt), parseFloatNumber(t, it.ExpectedCoefficient); got != want {
				t.Errorf("%s: BackoffCoefficient(%d) = %v, want %v", it.ID, attempt, got, want)
			}
		case "jitterCoefficient":
			u := parseFloatNumber(t, it.U)
			if got, want := JitterCoefficient(u), parseFloatNumber(t, it.ExpectedJitter); got != want {
				t.Errorf("%s: JitterCoefficient(%v) = %v, want %v", it.ID, u, got, want)
			}
		case "retryDelay":
			u := parseFloatNumber(t, it.U)
			got := RetryDelay(initial, attempt, u)
			if want := it.ExpectedDelayNs; strconv.FormatInt(int64(got), 10) != want {
				t.Errorf("%s: RetryDelay(%v, %d, %v) = %d ns, want %s ns", it.ID, initial, attempt, u, got, want)
			}
			if ms := nsFromMs(t, it.ExpectedDelayMs); strconv.FormatInt(int64(ms), 10) != it.ExpectedDelayNs {
				t.Errorf("%s: expectedDelayMs %s and expectedDelayNs %s disagree", it.ID, it.ExpectedDelayMs, it.ExpectedDelayNs)
			}
		case "retryBounds":
			lo, hi := RetryBounds(initial, attempt)
			if strconv.FormatInt(int64(lo), 10) != it.ExpectedLowerNs || strconv.FormatInt(int64(hi), 10) != it.ExpectedUpperNs {
				t.Errorf("%s: RetryBounds(%v, %d) = [%d, %d] ns, want [%s, %s]", it.ID, initial, attempt, lo, hi, it.ExpectedLowerNs, it.ExpectedUpperNs)
			}
			if b := it.UTSBandMs; b != nil {
				if r := (lo + time.Millisecond/2) / time.Millisecond; int64(r) != b[0] {
					t.Errorf("%s: lower %v rounds to %d ms, band says %d", it.ID, lo, r, b[0])
				}
				if r := (hi + time.Millisecond/2) / time.Millisecond; int64(r) != b[1] {
					t.Errorf("%s: upper %v rounds to %d ms, band says %d", it.ID, hi, r, b[1])
				}
			}
		default:
			t.Errorf("%s: unknown function %q", it.ID, it.Function)
		}
	}
}

// TestOracleFloatDefinitionIsWithinOneNanosecondOfExact checks that the
// float64 arithmetic the spec fixes stays within 1 ns of the real-valued
// formula for every delay in the fixture below a day, so the Decision costs
// nothing a user could notice.
func TestOracleFloatDefinitionIsWithinOneNanosecondOfExact(t *testing.T) {
	day := int64(24 * time.Hour)
	for _, ms := range []int64{1, 2000, 3001, 15000, 86_400_000} {
		for n := int64(-1); n <= 6; n++ {
			for _, u := range []float64{0, 0.1, 0.3, 1.0 / 3, 0.5, 0.7, 1 - 0x1p-53, 1} {
				ns := ms * 1e6
				if ns > day {
					continue
				}
				diff := new(big.Rat).Sub(new(big.Rat).SetInt64(oracleDelayNs(ns, n, u)), exactDelay(ns, n, u))
				if diff.Abs(diff).Cmp(ratOne) > 0 {
					t.Errorf("initial %d ms, n %d, u %v: float64 definition is %s ns from the exact value", ms, n, u, diff.FloatString(3))
				}
			}
		}
	}
}
