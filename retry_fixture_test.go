package reconnect

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"testing"
	"time"
)

// ---- The oracle ----------------------------------------------------------
//
// fixtures/retry.json's expected values, computed from the families'
// definitions (docs/retry-policies.md) in exact rational arithmetic
// (math/big.Rat), rounding to the nearest float64 exactly where that
// definition rounds (toFloat64) and nowhere else. It shares no code with
// the package: the clamps and the gRPC loop are written again here.

type retryIn struct {
	fam     string // "fullJitter", "equalJitter", "grpc", "decorrelated"
	baseNs  int64
	capNs   int64
	m, j    float64
	n       int64
	prevNs  int64
	u       float64
	comment string
}

func ratNs(ns int64) *big.Rat {
	if ns < 0 {
		ns = 0
	}
	return toFloat64(new(big.Rat).SetInt64(ns))
}

func ratMin(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// oracleRound rounds x ≥ 0 nanoseconds half away from zero, saturating.
func oracleRound(x *big.Rat) int64 {
	if x.Cmp(ratMaxDur) >= 0 {
		return math.MaxInt64
	}
	y := new(big.Rat).Add(x, ratHalf)
	return new(big.Int).Quo(y.Num(), y.Denom()).Int64()
}

// oracleCeiling is min(Cap, Base·2^(n−1)) with n < 1 read as 1; the power
// of two is exact, and a product beyond float64's range is +Inf (so the
// cap).
func oracleCeiling(baseNs, capNs, n int64) *big.Rat {
	if n < 1 {
		n = 1
	}
	b, c := ratNs(baseNs), ratNs(capNs)
	if b.Sign() == 0 {
		return b
	}
	if n-1 > 1100 {
		return c
	}
	e := new(big.Rat).Mul(b, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(n-1))))
	if f, _ := e.Float64(); math.IsInf(f, 1) {
		return c
	}
	return ratMin(c, e)
}

func oracleMultiplier(m float64) *big.Rat {
	switch {
	case math.IsNaN(m) || m <= 1:
		m = 1
	case m < 1.01:
		m = 1.01
	case m > 100:
		m = 100
	}
	return new(big.Rat).SetFloat64(m)
}

func oracleRetryNs(in retryIn) int64 {
	u := oracleClamp(in.u)
	switch in.fam {
	case "fullJitter":
		return oracleRound(toFloat64(new(big.Rat).Mul(oracleCeiling(in.baseNs, in.capNs, in.n), u)))
	case "equalJitter":
		h := new(big.Rat).Mul(oracleCeiling(in.baseNs, in.capNs, in.n), ratHalf) // exact
		return oracleRound(toFloat64(new(big.Rat).Add(h, toFloat64(new(big.Rat).Mul(h, u)))))
	case "grpc":
		mx := ratNs(in.capNs)
		b := ratMin(ratNs(in.baseNs), mx)
		m := oracleMultiplier(in.m)
		for k := max(in.n, 1); k > 1 && b.Cmp(mx) < 0; k-- {
			next := ratMin(toFloat64(new(big.Rat).Mul(b, m)), mx)
			if next.Cmp(b) == 0 {
				break
			}
			b = next
		}
		if in.n <= 1 {
			return oracleRound(b)
		}
		v := toFloat64(new(big.Rat).Sub(new(big.Rat).Mul(ratTwo, u), ratOne))
		jv := toFloat64(new(big.Rat).Mul(oracleClamp(in.j), v))
		f := toFloat64(new(big.Rat).Add(ratOne, jv))
		return oracleRound(toFloat64(new(big.Rat).Mul(b, f)))
	case "decorrelated":
		base := ratNs(in.baseNs)
		prev := base
		if in.n > 1 {
			if p := toFloat64(new(big.Rat).SetInt64(in.prevNs)); p.Cmp(base) > 0 {
				prev = p
			}
		}
		hi := toFloat64(new(big.Rat).Mul(big.NewRat(3, 1), prev))
		w := toFloat64(new(big.Rat).Sub(hi, base))
		s := toFloat64(new(big.Rat).Add(base, toFloat64(new(big.Rat).Mul(w, u))))
		return oracleRound(ratMin(ratNs(in.capNs), s))
	}
	panic("unknown family " + in.fam)
}

// ---- The fixture file ----------------------------------------------------

type retryFile = delayFile[retryItem]

type retryItem struct {
	ID         string          `json:"id"`
	Spec       string          `json:"spec"`
	Function   string          `json:"function"`
	Comment    string          `json:"_comment,omitempty"`
	BaseMs     json.Number     `json:"baseMs"`
	CapMs      json.Number     `json:"capMs"`
	Multiplier json.RawMessage `json:"multiplier,omitempty"`
	Jitter     json.RawMessage `json:"jitter,omitempty"`
	Attempt    int64           `json:"attempt"`
	PreviousMs json.Number     `json:"previousMs,omitempty"`
	U          json.RawMessage `json:"u,omitempty"`

	ExpectedDelayMs json.Number `json:"expectedDelayMs,omitempty"`
	ExpectedDelayNs string      `json:"expectedDelayNs,omitempty"`
	ExpectedLowerMs json.Number `json:"expectedLowerMs,omitempty"`
	ExpectedLowerNs string      `json:"expectedLowerNs,omitempty"`
	ExpectedUpperMs json.Number `json:"expectedUpperMs,omitempty"`
	ExpectedUpperNs string      `json:"expectedUpperNs,omitempty"`
}

var retrySpecs = map[string]string{"fullJitter": "full-jitter", "equalJitter": "equal-jitter", "grpc": "grpc", "decorrelated": "decorrelated-jitter"}

func (in retryIn) item(id string, bounds bool) retryItem {
	it := retryItem{
		ID: id, Spec: retrySpecs[in.fam], Comment: in.comment,
		BaseMs: msFromNs(in.baseNs), CapMs: msFromNs(in.capNs), Attempt: in.n,
	}
	if in.fam == "grpc" {
		it.Multiplier, it.Jitter = floatNumber(in.m), floatNumber(in.j)
	}
	if in.fam == "decorrelated" {
		it.PreviousMs = msFromNs(in.prevNs)
	}
	if bounds {
		it.Function = in.fam + "Bounds"
		lo, hi := in, in
		lo.u, hi.u = 0, 1
		l, h := oracleRetryNs(lo), oracleRetryNs(hi)
		it.ExpectedLowerMs, it.ExpectedLowerNs = msFromNs(l), strconv.FormatInt(l, 10)
		it.ExpectedUpperMs, it.ExpectedUpperNs = msFromNs(h), strconv.FormatInt(h, 10)
		return it
	}
	it.Function = in.fam + "Delay"
	it.U = floatNumber(in.u)
	d := oracleRetryNs(in)
	it.ExpectedDelayMs, it.ExpectedDelayNs = msFromNs(d), strconv.FormatInt(d, 10)
	return it
}

func uID(u float64) string {
	switch {
	case u == 1-0x1p-53:
		return "1-2^-53"
	case math.IsNaN(u):
		return "nan"
	case math.IsInf(u, 1):
		return "+inf"
	case math.IsInf(u, -1):
		return "-inf"
	}
	return strconv.FormatFloat(u, 'g', -1, 64)
}

func buildRetryFixture() retryFile {
	f := retryFile{
		Comment: "Retry-delay families other protocols use (capped exponential with full and equal jitter, gRPC's connection backoff, decorrelated jitter): shared test cases. " +
			"Generated from an exact-rational oracle (go test -run Fixture -update in the reconnect repository); do not edit by hand. See fixtures/README.md and docs/retry-policies.md.",
		Spec:          "retry-families",
		FormatVersion: 1,
		Units: fixtureUnit{
			Time:  "milliseconds, as JSON numbers with up to six decimals (whole nanoseconds)",
			Exact: "the *Ns fields repeat a value as a decimal string of whole nanoseconds: the float64 computation of the decisions below, rounded half away from zero and saturated",
		},
		Tolerance: tolerance{
			Comment:    "an actual millisecond value a passes against expected e when |a - e| <= max(absoluteMs, relative * |e|)",
			AbsoluteMs: "0.000001",
			Relative:   "1e-14",
		},
		BoundsInclusive: true,
		Decisions: []string{
			"attempt n is 1-indexed: the first retry is attempt 1; an attempt below 1 is treated as 1",
			"u is clamped into [0, 1], NaN counting as 0; every family's delay is non-decreasing in u: lower bound at u = 0, upper at u = 1",
			"arithmetic: float64 on nanoseconds, each operation rounded to float64 (never fused), in the order each formula is written; the result is rounded to the nearest nanosecond, halves away from zero, and saturates at 9223372036854775807 ns",
			"fullJitter: t * u with t = min(cap, base * 2^(n-1)) (a power of two: exact; a product beyond float64 is +Infinity, so cap)",
			"equalJitter: h + h * u with h = t * 0.5, h * u rounded before the sum",
			"grpc: attempt 1 waits b1 = min(base, cap), unjittered; attempt n waits b * (1 + jitter * (2u - 1)) (2u - 1, the product, the sum, the product each rounded) where b = min(b_prev * multiplier, cap) once per attempt from b1, each product rounded (gRPC's loop, not multiplier^(n-1)); the loop stops when b reaches cap or stops changing. cap is gRPC's MAX_BACKOFF, before the jitter",
			"decorrelated: min(cap, base + (3 * prev - base) * u), each operation rounded in that order, where prev = max(previous, base), and prev = base for attempt 1 whatever previous says",
			"parameters Validate rejects are clamped, never an error: a negative duration counts as 0; a multiplier NaN or below 1 as 1, in (1, 1.01) as 1.01, above 100 as 100; a jitter outside [0, 1] is clamped into it, NaN as 0",
		},
	}
	us := []float64{0, 0.3, 0.5, 1 - 0x1p-53, 1}
	// add writes in's delay at in.u; addAll its delay at every u of us,
	// then its bounds.
	add := func(in retryIn, id string) {
		f.Items = append(f.Items, in.item(id+"-delay-u"+uID(in.u), false))
	}
	addAll := func(in retryIn, id string) {
		for _, u := range us {
			in.u = u
			add(in, id)
		}
		f.Items = append(f.Items, in.item(id+"-bounds", true))
	}
	ms := int64(time.Millisecond)
	attempts := []int64{1, 2, 3, 4, 5, 6, 10, 64, 65, 1000, 2147483648, 9007199254740991}

	// Full and equal jitter.
	for _, fam := range []string{"fullJitter", "equalJitter"} {
		for _, p := range []struct {
			id        string
			base, cap int64
			note      string
		}{
			{"b1000-c30000", 1000 * ms, 30000 * ms, ""},
			{"b200-c20000", 200 * ms, 20000 * ms, ""},
			{"b3001-c3001", 3001 * ms, 3001 * ms, "cap equal to base: every ceiling is the base"},
			{"b0.000003-c86400000", 3, 86400000 * ms, "a 3 ns base: half-nanosecond ties round away from zero"},
			{"b1-cmax", 1 * ms, math.MaxInt64, "the largest cap: float64 rounds it up to 2^63, so large attempts saturate"},
		} {
			for _, n := range attempts {
				in := retryIn{fam: fam, baseNs: p.base, capNs: p.cap, n: n, comment: p.note}
				id := fmt.Sprintf("%s-%s-n%d", retrySpecs[fam], p.id, n)
				addAll(in, id)
			}
		}
	}
	// gRPC.
	for _, p := range []struct {
		id        string
		base, cap int64
		m, j      float64
		note      string
	}{
		{"default", 1000 * ms, 120000 * ms, 1.6, 0.2, "grpc/grpc doc/connection-backoff.md's parameters"},
		{"b100-m1.5-j0.5-c10000", 100 * ms, 10000 * ms, 1.5, 0.5, ""},
		{"b1000-m1-j0.2-c5000", 1000 * ms, 5000 * ms, 1, 0.2, "multiplier 1: a constant backoff, jittered from attempt 2"},
		{"b0.000001-m1.01-j1-cmax", 1, math.MaxInt64, 1.01, 1, "the least multiplier over the largest range: the loop's longest run; 2 x the cap saturates"},
		{"b1000-m3-j0-c1000", 1000 * ms, 1000 * ms, 3, 0, "no jitter, the cap at the base"},
	} {
		for _, n := range []int64{1, 2, 3, 5, 10, 11, 12, 20, 100, 5000, 2147483648} {
			in := retryIn{fam: "grpc", baseNs: p.base, capNs: p.cap, m: p.m, j: p.j, n: n, comment: p.note}
			id := fmt.Sprintf("grpc-%s-n%d", p.id, n)
			addAll(in, id)
		}
	}
	// Decorrelated jitter.
	for _, p := range []struct {
		id        string
		base, cap int64
	}{{"b1000-c30000", 1000 * ms, 30000 * ms}, {"b100-c20000", 100 * ms, 20000 * ms}, {"b7-c7", 7 * ms, 7 * ms}} {
		for _, prev := range []int64{0, 500 * ms, 1000 * ms, 2500 * ms, 9999 * ms, 30000 * ms, 100000 * ms, math.MaxInt64} {
			for _, n := range []int64{1, 2, 7} {
				in := retryIn{fam: "decorrelated", baseNs: p.base, capNs: p.cap, prevNs: prev, n: n}
				if n == 1 {
					in.comment = "the first retry reads base as its previous delay, whatever previous says"
				}
				id := fmt.Sprintf("decorrelated-jitter-%s-p%s-n%d", p.id, msFromNs(prev), n)
				addAll(in, id)
			}
		}
	}
	// The totality decisions: attempts below 1, draws outside [0, 1],
	// parameters Validate rejects.
	for _, fam := range []string{"fullJitter", "equalJitter", "grpc", "decorrelated"} {
		base := retryIn{fam: fam, baseNs: 1000 * ms, capNs: 30000 * ms, m: 1.6, j: 0.2, prevNs: 4000 * ms, n: 3}
		name := retrySpecs[fam]
		for _, c := range []struct {
			id   string
			mod  func(*retryIn)
			note string
		}{
			{"attempt-zero", func(in *retryIn) { in.n = 0 }, "an attempt below 1 is treated as 1"},
			{"attempt-negative", func(in *retryIn) { in.n = -9007199254740991 }, "an attempt below 1 is treated as 1"},
			{"u-negative", func(in *retryIn) { in.u = -0.5 }, "u below 0 counts as 0"},
			{"u-above-one", func(in *retryIn) { in.u = 7 }, "u above 1 counts as 1"},
			{"u-nan", func(in *retryIn) { in.u = math.NaN() }, "NaN counts as u = 0"},
			{"u-inf", func(in *retryIn) { in.u = math.Inf(1) }, "+Infinity counts as u = 1"},
			{"base-negative", func(in *retryIn) { in.baseNs = -1000 * ms }, "a negative base counts as 0"},
			{"cap-negative", func(in *retryIn) { in.capNs = -1 }, "a negative cap counts as 0"},
			{"cap-below-base", func(in *retryIn) { in.capNs = 500 * ms }, "a cap below the base: the formulas' min applies as written"},
		} {
			in := base
			in.u = 0.5
			c.mod(&in)
			in.comment = c.note
			add(in, name+"-outside-"+c.id)
		}
		if fam == "grpc" {
			for _, c := range []struct {
				id   string
				m, j float64
				note string
			}{
				{"multiplier-nan", math.NaN(), 0.2, "a NaN multiplier counts as 1"},
				{"multiplier-below-one", 0.5, 0.2, "a multiplier below 1 counts as 1"},
				{"multiplier-1.001", 1.001, 0.2, "a multiplier in (1, 1.01) counts as 1.01"},
				{"multiplier-1000", 1000, 0.2, "a multiplier above 100 counts as 100"},
				{"multiplier-inf", math.Inf(1), 0.2, "+Infinity counts as 100"},
				{"jitter-negative", 1.6, -1, "a jitter below 0 counts as 0"},
				{"jitter-above-one", 1.6, 3, "a jitter above 1 counts as 1"},
				{"jitter-nan", 1.6, math.NaN(), "a NaN jitter counts as 0"},
			} {
				in := base
				in.m, in.j, in.u, in.comment = c.m, c.j, 0.9, c.note
				add(in, name+"-outside-"+c.id)
			}
			for _, n := range []int64{10, 100} {
				in := base
				in.m, in.u, in.n, in.comment = 1.005, 0.5, n, "a multiplier in (1, 1.01) counts as 1.01"
				add(in, fmt.Sprintf("%s-outside-multiplier-1.005-n%d", name, n))
			}
		}
	}
	return f
}

// ---- Tests ---------------------------------------------------------------

func TestFixtureRetryMatchesOracle(t *testing.T) {
	checkGolden(t, "retry.json", buildRetryFixture())
}

// TestFixtureRetryAgainstFunctions runs every committed case against the
// package's functions, to the nanosecond.
func TestFixtureRetryAgainstFunctions(t *testing.T) {
	var f retryFile
	loadFixture(t, "retry.json", &f)
	if len(f.Items) < 100 {
		t.Fatalf("%d items", len(f.Items))
	}
	seen := map[string]bool{}
	for _, it := range f.Items {
		if seen[it.ID] {
			t.Errorf("duplicate id %s", it.ID)
		}
		seen[it.ID] = true
		var p RetryPolicy
		base, cap := nsFromMs(t, it.BaseMs), nsFromMs(t, it.CapMs)
		var prev time.Duration
		if it.PreviousMs != "" {
			prev = nsFromMs(t, it.PreviousMs)
		}
		fam, bounds := it.Function, false
		if s, ok := cutSuffix(fam, "Bounds"); ok {
			fam, bounds = s, true
		} else if s, ok := cutSuffix(fam, "Delay"); ok {
			fam = s
		}
		switch fam {
		case "fullJitter":
			p = FullJitter{base, cap}.Policy()
		case "equalJitter":
			p = EqualJitter{base, cap}.Policy()
		case "grpc":
			p = GRPCBackoff{base, parseFloatNumber(t, it.Multiplier), parseFloatNumber(t, it.Jitter), cap}.Policy()
		case "decorrelated":
			p = DecorrelatedJitter{base, cap}.Policy()
		default:
			t.Fatalf("%s: unknown function %q", it.ID, it.Function)
		}
		n := int(it.Attempt)
		if bounds {
			lo, hi := p.Bounds(n, prev)
			if strconv.FormatInt(int64(lo), 10) != it.ExpectedLowerNs || strconv.FormatInt(int64(hi), 10) != it.ExpectedUpperNs {
				t.Errorf("%s: Bounds = [%d, %d], want [%s, %s]", it.ID, lo, hi, it.ExpectedLowerNs, it.ExpectedUpperNs)
			}
			continue
		}
		u := parseFloatNumber(t, it.U)
		if got := p.Delay(n, prev, u); strconv.FormatInt(int64(got), 10) != it.ExpectedDelayNs {
			t.Errorf("%s: Delay = %d ns, want %s", it.ID, got, it.ExpectedDelayNs)
		}
		if ms := nsFromMs(t, it.ExpectedDelayMs); strconv.FormatInt(int64(ms), 10) != it.ExpectedDelayNs {
			t.Errorf("%s: expectedDelayMs %s and expectedDelayNs %s disagree", it.ID, it.ExpectedDelayMs, it.ExpectedDelayNs)
		}
	}
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) > len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}
