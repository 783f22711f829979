package sim

import (
	"errors"
	"math"
	"slices"
	"time"
)

// z95 is the standard normal quantile of a two-sided 95 % interval.
const z95 = 1.959964

// Interval is an estimate with its 95 % confidence interval [Lo, Hi].
type Interval struct {
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// Half is the interval's half-width (for a symmetric one).
func (i Interval) Half() float64 { return (i.Hi - i.Lo) / 2 }

// DurationInterval is a duration with its 95 % confidence interval.
type DurationInterval struct {
	Value time.Duration `json:"valueNs"`
	Lo    time.Duration `json:"loNs"`
	Hi    time.Duration `json:"hiNs"`
}

// Intervals are a cell's 95 % confidence intervals. The mean's and the
// wasted transports' are normal intervals (mean ± 1.96 standard errors);
// a quantile's is distribution-free, between the order statistics of
// ranks nq ± 1.96·√(nq(1−q)); the connected share's is Wilson's score
// interval.
type Intervals struct {
	Mean      DurationInterval `json:"mean"`
	P50       DurationInterval `json:"p50"`
	P90       DurationInterval `json:"p90"`
	P99       DurationInterval `json:"p99"`
	Wasted    Interval         `json:"wastedPerConnection"`
	Connected Interval         `json:"connectedShare"`
	// Outcomes[k] is the share of outcome k+1 (Wilson).
	Outcomes [5]Interval `json:"outcomes"`
	// Per connection, as the cell's figures of the same names.
	Opened             Interval `json:"openedPerConnection"`
	HTTPOpened         Interval `json:"httpOpenedPerConnection"`
	HTTPWasted         Interval `json:"httpWastedPerConnection"`
	FallbackRequests   Interval `json:"fallbackRequestsPerConnection"`
	ConnectivityChecks Interval `json:"connectivityChecksPerConnection"`
	WebSocketChecks    Interval `json:"webSocketChecksPerConnection"`
}

// running accumulates a mean and its variance in one pass (Welford).
type running struct {
	n        int
	mean, m2 float64
}

func (r *running) add(x float64) {
	r.n++
	d := x - r.mean
	r.mean += d / float64(r.n)
	r.m2 += d * (x - r.mean)
}

// interval is the mean with its normal 95 % interval, never below 0 (the
// figures are counts).
func (r running) interval() Interval {
	if r.n < 2 {
		return Interval{r.mean, r.mean, r.mean}
	}
	se := math.Sqrt(r.m2/float64(r.n-1)) / math.Sqrt(float64(r.n))
	return Interval{r.mean, max(0, r.mean-z95*se), r.mean + z95*se}
}

// meanInterval returns the mean of xs with its normal 95 % interval.
func meanInterval(xs []float64) Interval {
	n := float64(len(xs))
	if n == 0 {
		return Interval{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / n
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	se := 0.0
	if n > 1 {
		se = math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	}
	return Interval{mean, mean - z95*se, mean + z95*se}
}

// quantileInterval is the distribution-free 95 % interval of quantile q
// of sorted values.
func quantileInterval(sorted []time.Duration, q float64) DurationInterval {
	n := float64(len(sorted))
	if n == 0 {
		return DurationInterval{}
	}
	w := z95 * math.Sqrt(n*q*(1-q))
	lo := int(math.Floor(n*q-w)) - 1
	hi := int(math.Ceil(n*q+w)) - 1
	at := func(i int) time.Duration { return sorted[min(max(i, 0), len(sorted)-1)] }
	return DurationInterval{quantile(sorted, q), at(lo), at(hi)}
}

// wilson is the Wilson score 95 % interval of k successes in n trials.
func wilson(k, n int) Interval {
	if n == 0 {
		return Interval{}
	}
	p, nf := float64(k)/float64(n), float64(n)
	z2 := z95 * z95
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / (1 + z2/nf)
	i := Interval{p, max(0, centre-half), min(1, centre+half)}
	if k == 0 {
		i.Lo = 0
	}
	if k == n {
		i.Hi = 1
	}
	return i
}

func intervals(samples []Sample, sorted []time.Duration) Intervals {
	secs := make([]float64, len(samples))
	wasted := make([]float64, len(samples))
	connected := 0
	for i, s := range samples {
		secs[i], wasted[i] = s.TimeToConnect.Seconds(), float64(s.Wasted)
		if s.Connected {
			connected++
		}
	}
	m := meanInterval(secs)
	sec := func(v float64) time.Duration { return time.Duration(math.Round(v * 1e9)) }
	return Intervals{
		Mean:      DurationInterval{sec(m.Value), sec(max(m.Lo, 0)), sec(m.Hi)},
		P50:       quantileInterval(sorted, 0.5),
		P90:       quantileInterval(sorted, 0.9),
		P99:       quantileInterval(sorted, 0.99),
		Wasted:    clampLow(meanInterval(wasted)),
		Connected: wilson(connected, len(samples)),
	}
}

func clampLow(i Interval) Interval {
	i.Lo = max(i.Lo, 0)
	return i
}

// Equivalence is the practical-equivalence threshold of a band: a timeout
// whose cost exceeds the best's by less than max(Rel × the best's cost,
// Abs) is as good as the best.
type Equivalence struct {
	Rel float64 `json:"relative"`
	Abs float64 `json:"absolute"`
}

// DefaultEquivalence is 2.5 % of the best cost, and never less than
// 10 ms (0.010 in cost units of a second). Ten milliseconds a connection
// is below what a user waiting for a connection can notice and below
// what the lab's real sockets resolve on a loaded machine; 2.5 % is about
// half the simulator's agreement with the lab (within 10 %, most profiles
// within 5 %), so a difference below it is not a claim the simulator can
// make about a real network. On the built-in profiles it gives the same
// bands for 200 and 2,000 clients and seeds 1 to 5, and for 30 seeds at
// 200 clients (docs/short-circuit.md).
var DefaultEquivalence = Equivalence{Rel: 0.025, Abs: 0.010}

// Verdict is how a timeout compares with the best of its band.
type Verdict int

// The verdicts, from the best to the worst.
const (
	// VerdictBest is the timeout of least mean cost in this sample.
	VerdictBest Verdict = iota
	// VerdictTied: the 95 % interval of its cost minus the best's lies
	// below the threshold: as good as the best.
	VerdictTied
	// VerdictUndecided: that interval straddles the threshold; whether it
	// belongs to the band depends on the sample (more clients decide).
	VerdictUndecided
	// VerdictWorse: that interval lies above the threshold.
	VerdictWorse
)

var verdictNames = [...]string{"best", "tied", "undecided", "worse"}

func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return "unknown"
	}
	return verdictNames[v]
}

// MarshalText writes the verdict's name.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Choice is one short-circuit timeout's figures in a band.
type Choice struct {
	Timeout time.Duration `json:"timeoutNs"`
	// Cost is the mean cost per connection; Seconds the mean time to
	// CONNECTED in seconds (a client that never connected counts as the
	// horizon); Wasted the healthy transports thrown away per connection.
	Cost    Interval `json:"cost"`
	Seconds Interval `json:"meanSeconds"`
	Wasted  Interval `json:"wasted"`
	// Diff is the cost minus the best timeout's, client by client
	// (paired: the same clients saw the same network under both).
	Diff      Interval `json:"diffFromBest"`
	Connected float64  `json:"connectedShare"`
	Verdict   Verdict  `json:"verdict"`
}

// Band is the set of short-circuit timeouts as good as the best, for one
// profile or for a mix.
type Band struct {
	Of        string        `json:"of"` // a profile's name, or "mix"
	Best      time.Duration `json:"bestNs"`
	Threshold float64       `json:"threshold"` // in cost units
	Choices   []Choice      `json:"choices"`   // every timeout, ascending
	// Tied is the band: the best and every timeout tied with it,
	// ascending; Undecided those whose membership depends on the sample.
	Tied      []time.Duration `json:"tiedNs"`
	Undecided []time.Duration `json:"undecidedNs"`
	// Connected is the least share of clients that connected under any
	// timeout (0: nobody ever connected, and the timeouts are tied only
	// because every client waited the horizon).
	Connected float64 `json:"connectedShare"`
}

// Bands returns the band of every profile with websocket-first cells, in
// the order of the study's cells.
func Bands(st Study, cost Cost, eq Equivalence) []Band {
	var bands []Band
	for _, name := range profileOrder(st) {
		ts, idx := wsFirstCells(st, name)
		if len(ts) == 0 {
			continue
		}
		bands = append(bands, bandOf(name, ts, profileStats(st, idx, cost), eq))
	}
	return bands
}

// MixBand returns the band of a mix of profiles (profile name → weight;
// weights normalized, each finite and non-negative with a positive sum).
// Profiles are independent samples, so a mix's variance is Σ w²·σ²/n over
// its profiles.
func MixBand(st Study, mix map[string]float64, cost Cost, eq Equivalence) (Band, error) {
	if _, err := Recommend(st.Cells, mix, cost); err != nil { // the same checks of the mix
		return Band{}, err
	}
	total := 0.0
	for _, w := range mix {
		total += w
	}
	names := make([]string, 0, len(mix))
	for n := range mix {
		names = append(names, n)
	}
	slices.Sort(names)
	var ts []time.Duration
	var combined []choiceStats
	for _, name := range names {
		w := mix[name] / total
		pts, idx := wsFirstCells(st, name)
		stats := profileStats(st, idx, cost)
		if ts == nil {
			ts, combined = pts, make([]choiceStats, len(pts))
			for i := range combined {
				combined[i].diffVar = make([]float64, len(pts))
				combined[i].connected = 1
			}
		}
		if !slices.Equal(ts, pts) {
			return Band{}, errMixTimeouts
		}
		for i, s := range stats {
			c := &combined[i]
			c.cost.add(w, s.cost)
			c.secs.add(w, s.secs)
			c.wasted.add(w, s.wasted)
			for j := range s.diffVar {
				c.diffVar[j] += w * w * s.diffVar[j]
			}
			c.connected = min(c.connected, s.connected)
			if c.sumsDiff == nil {
				c.sumsDiff = make([]float64, len(pts))
			}
			for j := range s.sumsDiff {
				c.sumsDiff[j] += w * s.sumsDiff[j]
			}
		}
	}
	return bandOf("mix", ts, combined, eq), nil
}

// moments are a mean and the variance of that mean.
type moments struct{ mean, variance float64 }

func (m *moments) add(w float64, o moments) {
	m.mean += w * o.mean
	m.variance += w * w * o.variance
}

func (m moments) interval() Interval {
	se := math.Sqrt(max(m.variance, 0))
	return Interval{m.mean, m.mean - z95*se, m.mean + z95*se}
}

// choiceStats are one timeout's moments; sumsDiff[j] and diffVar[j] the
// mean and the variance of the mean of its cost minus timeout j's, client
// by client.
type choiceStats struct {
	cost, secs, wasted moments
	sumsDiff, diffVar  []float64
	connected          float64
}

func profileOrder(st Study) []string {
	var names []string
	for _, c := range st.Cells {
		if !slices.Contains(names, c.Profile) {
			names = append(names, c.Profile)
		}
	}
	return names
}

// wsFirstCells returns the websocket-first timeouts of a profile,
// ascending, and the index of each one's cell.
func wsFirstCells(st Study, name string) ([]time.Duration, []int) {
	var ts []time.Duration
	var idx []int
	for i, c := range st.Cells {
		if c.Profile == name && c.Policy == "websocket-first" {
			ts, idx = append(ts, c.ShortCircuit), append(idx, i)
		}
	}
	order := make([]int, len(ts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return int(ts[a] - ts[b]) })
	sts, sidx := make([]time.Duration, len(ts)), make([]int, len(ts))
	for k, i := range order {
		sts[k], sidx[k] = ts[i], idx[i]
	}
	return sts, sidx
}

func momentsOf(xs []float64) moments {
	n := float64(len(xs))
	if n == 0 {
		return moments{}
	}
	i := meanInterval(xs)
	se := (i.Hi - i.Value) / z95
	return moments{i.Value, se * se}
}

// profileStats computes the moments of each of a profile's cells (idx,
// ascending timeouts) and of every pair's client-by-client differences.
func profileStats(st Study, idx []int, cost Cost) []choiceStats {
	costs := make([][]float64, len(idx))
	out := make([]choiceStats, len(idx))
	for i, ci := range idx {
		ss := st.Samples[ci]
		costs[i] = make([]float64, len(ss))
		secs, wasted := make([]float64, len(ss)), make([]float64, len(ss))
		connected := 0
		for k, s := range ss {
			secs[k], wasted[k] = s.TimeToConnect.Seconds(), float64(s.Wasted)
			costs[i][k] = cost.PerSecond*secs[k] + cost.PerWasted*wasted[k]
			if s.Connected {
				connected++
			}
		}
		out[i] = choiceStats{cost: momentsOf(costs[i]), secs: momentsOf(secs), wasted: momentsOf(wasted),
			connected: float64(connected) / float64(max(len(ss), 1))}
	}
	diff := make([]float64, 0, len(costs[0]))
	for i := range out {
		out[i].sumsDiff, out[i].diffVar = make([]float64, len(idx)), make([]float64, len(idx))
		for j := range out {
			diff = diff[:0]
			for k := range min(len(costs[i]), len(costs[j])) {
				diff = append(diff, costs[i][k]-costs[j][k])
			}
			m := momentsOf(diff)
			out[i].sumsDiff[j], out[i].diffVar[j] = m.mean, m.variance
		}
	}
	return out
}

// bandOf classifies timeouts ts by their statistics.
func bandOf(name string, ts []time.Duration, stats []choiceStats, eq Equivalence) Band {
	b := Band{Of: name, Connected: 1}
	best := 0
	for i, s := range stats {
		if s.cost.mean < stats[best].cost.mean {
			best = i
		}
		b.Connected = min(b.Connected, s.connected)
	}
	b.Best = ts[best]
	b.Threshold = max(eq.Rel*stats[best].cost.mean, eq.Abs)
	for i, s := range stats {
		d := moments{s.sumsDiff[best], s.diffVar[best]}.interval()
		ch := Choice{Timeout: ts[i], Cost: s.cost.interval(), Seconds: s.secs.interval(), Wasted: s.wasted.interval(),
			Diff: d, Connected: s.connected}
		switch {
		case i == best:
			ch.Verdict = VerdictBest
		case d.Hi <= b.Threshold:
			ch.Verdict = VerdictTied
		case d.Lo > b.Threshold:
			ch.Verdict = VerdictWorse
		default:
			ch.Verdict = VerdictUndecided
		}
		if ch.Verdict <= VerdictTied {
			b.Tied = append(b.Tied, ts[i])
		} else if ch.Verdict == VerdictUndecided {
			b.Undecided = append(b.Undecided, ts[i])
		}
		b.Choices = append(b.Choices, ch)
	}
	return b
}

var errMixTimeouts = errors.New("the mix's profiles were simulated with different short-circuit timeouts")
