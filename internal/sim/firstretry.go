package sim

import (
	"fmt"
	"slices"
	"time"

	"github.com/reconnect-go/reconnect"
)

// FirstRetry is a first-retry rule for StrategyFirstRetry: after a failed
// immediate reconnect, the retries made while less than Span has passed
// since the drop (only the first retry when Span is 0) are early ones: the
// first waits a draw uniform in [Min, Max], each later one the same draw,
// or with Steady Max × (1 − 0.2u) (RTB1's jitter on a constant period,
// which keeps the phases the first draw spread). The retries after them
// are RTB1's, counted from 1 as if the early ones had not been made.
type FirstRetry struct {
	Min    time.Duration `json:"minNs"`
	Max    time.Duration `json:"maxNs"`
	Span   time.Duration `json:"spanNs"`
	Steady bool          `json:"steady"`
	// Jitter is the steady retries' jitter: Max × (1 − Jitter·u); 0 means
	// RTB1's 0.2, a negative value none.
	Jitter float64 `json:"jitter"`
}

// jitter is the steady retries' jitter width.
func (f FirstRetry) jitter() float64 {
	switch {
	case f.Jitter == 0:
		return 0.2
	case f.Jitter < 0:
		return 0
	}
	return f.Jitter
}

// String is "U[0s, 5s]", with " then every 5s" or " then 5s×[0.8, 1]"
// when Steady and " for 15s" when Span is set.
func (f FirstRetry) String() string {
	s := fmt.Sprintf("U[%v, %v]", f.Min, f.Max)
	switch {
	case f.Steady && f.jitter() == 0:
		s += fmt.Sprintf(" then every %v", f.Max)
	case f.Steady:
		s += fmt.Sprintf(" then %v×[%.2g, 1]", f.Max, 1-f.jitter())
	}
	if f.Span > 0 {
		s += fmt.Sprintf(" for %v", f.Span)
	}
	return s
}

func (f FirstRetry) validate() error {
	switch {
	case f.Min < 0 || f.Max < f.Min || f.Max > 10*time.Minute:
		return fmt.Errorf("first retry: want 0 ≤ min ≤ max ≤ 10m, got min %v, max %v", f.Min, f.Max)
	case f.Span < 0 || f.Span > time.Hour:
		return fmt.Errorf("first retry: span must be between 0 and 1h, got %v", f.Span)
	case f.Jitter > 1:
		return fmt.Errorf("first retry: the steady jitter must be at most 1, got %v", f.Jitter)
	case f.Span > 0 && f.Max == 0:
		return fmt.Errorf("first retry: a span of %v needs a positive max", f.Span)
	}
	return nil
}

// delay is the wait before retry a (a ≥ 1) after an attempt refused at t
// since the drop, for the draw u; early counts the client's early retries
// so far (and is advanced by an early one); initial is
// disconnectedRetryTimeout.
func (f FirstRetry) delay(a int, t time.Duration, u float64, early *uint32, initial time.Duration) time.Duration {
	if f.Max > 0 && (f.Span == 0 && *early == 0 || t < f.Span) {
		k := *early
		*early++
		if k > 0 && f.Steady {
			return time.Duration(float64(f.Max) * (1 - f.jitter()*u))
		}
		return f.Min + time.Duration(float64(f.Max-f.Min)*u)
	}
	return reconnect.RetryDelay(initial, max(1, a-int(*early)), u)
}

// acceptWindow tracks the most attempts accepted within any one second,
// a window sliding by the storm's millisecond slots: add is called for
// each slot with attempts, in order, with the accepts so far.
type acceptWindow struct {
	slots []int64 // slots within the last second with attempts
	cums  []int   // the accepts so far at each of them
	base  int     // the accepts so far one second before the current slot
	peak  int
}

func (w *acceptWindow) add(slot int64, cum int) {
	i := 0
	for i < len(w.slots) && w.slots[i] <= slot-int64(time.Second/slotWidth) {
		w.base = w.cums[i]
		i++
	}
	w.slots, w.cums = append(w.slots[i:], slot), append(w.cums[i:], cum)
	w.peak = max(w.peak, cum-w.base)
}

// FrontPoint is one strategy's storm on the restart front: when 99 % were
// back against the most connections the server accepted in a second.
type FrontPoint struct {
	Name     string     `json:"name"`
	Strategy Strategy   `json:"strategy"`
	First    FirstRetry `json:"first"`
	// Rule is true for the first-retry rules, false for the references
	// (today's RTB1, the peers, the other jitters).
	Rule       bool          `json:"rule"`
	T99        time.Duration `json:"t99Ns"`
	Median     time.Duration `json:"medianNs"`
	AcceptPeak int           `json:"acceptPeak"`
	Attempts   int           `json:"attempts"`
	// Pareto is true when no other point is at least as good on both
	// T99 and AcceptPeak and better on one.
	Pareto bool `json:"pareto"`
}

// RestartFront runs the restart base (Strategy and First ignored) for
// each reference strategy and for StrategyFirstRetry with each rule, and
// marks the Pareto front of (T99, AcceptPeak), both lower is better.
// progress, if set, is called after each storm.
func RestartFront(base StormConfig, refs []Strategy, rules []FirstRetry, progress func(done, total int)) ([]FrontPoint, error) {
	var out []FrontPoint
	total := len(refs) + len(rules)
	run := func(s Strategy, f FirstRetry) error {
		sc := base
		sc.Strategy, sc.First, sc.Progress = s, f, nil
		r, err := Storm(sc)
		if err != nil {
			return err
		}
		p := FrontPoint{Name: s.String(), Strategy: s, First: f, Rule: s == StrategyFirstRetry, T99: r.T99,
			Median: r.MedianDisconnected, AcceptPeak: r.AcceptPeak, Attempts: r.Total}
		if p.Rule {
			p.Name = "first-retry " + f.String()
		}
		out = append(out, p)
		if progress != nil {
			progress(len(out), total)
		}
		return nil
	}
	for _, s := range refs {
		if err := run(s, FirstRetry{}); err != nil {
			return nil, err
		}
	}
	for _, f := range rules {
		if err := run(StrategyFirstRetry, f); err != nil {
			return nil, err
		}
	}
	markPareto(out)
	return out, nil
}

// markPareto sets Pareto on the points no other point dominates.
func markPareto(ps []FrontPoint) {
	for i := range ps {
		ps[i].Pareto = !slices.ContainsFunc(ps, func(q FrontPoint) bool {
			return q.T99 <= ps[i].T99 && q.AcceptPeak <= ps[i].AcceptPeak && (q.T99 < ps[i].T99 || q.AcceptPeak < ps[i].AcceptPeak)
		})
	}
}

// ChooseFirstRetry returns, among the first-retry rules of ps that are
// ahead of every peer in T99 with an accept peak no higher than any
// peer's (the lowest), the one with the lowest T99 (ties: the lower
// peak), and false when none is. peers names the reference strategies
// that are peers.
func ChooseFirstRetry(ps []FrontPoint, peers []Strategy) (FrontPoint, bool) {
	var bestT99 time.Duration = 1<<63 - 1
	lowPeak := -1
	for _, p := range ps {
		if !p.Rule && slices.Contains(peers, p.Strategy) {
			bestT99 = min(bestT99, p.T99)
			if lowPeak < 0 || p.AcceptPeak < lowPeak {
				lowPeak = p.AcceptPeak
			}
		}
	}
	var best FrontPoint
	found := false
	for _, p := range ps {
		if !p.Rule || p.T99 >= bestT99 || p.AcceptPeak > lowPeak {
			continue
		}
		if !found || p.T99 < best.T99 || p.T99 == best.T99 && p.AcceptPeak < best.AcceptPeak {
			best, found = p, true
		}
	}
	return best, found
}

// DefaultFrontRules is the grid of first-retry rules the restart front
// explores, four families: one early retry uniform over [min, max]; early
// retries each uniform over [min, max] for disconnectedRetryTimeout; and
// a first early retry uniform over [0, P] then steady ones every P,
// exactly or with RTB1's jitter (P × [0.8, 1]), for
// disconnectedRetryTimeout.
func DefaultFrontRules(t reconnect.Timeouts) []FirstRetry {
	const s = time.Second
	var out []FirstRetry
	grid := func(f FirstRetry, mins, maxs []time.Duration) {
		for _, lo := range mins {
			for _, hi := range maxs {
				if hi > lo {
					f.Min, f.Max = lo, hi
					out = append(out, f)
				}
			}
		}
	}
	span := t.DisconnectedRetry
	grid(FirstRetry{}, []time.Duration{0, s / 2, s}, []time.Duration{2 * s, 3 * s, 5 * s, 15 * s / 2, 10 * s, 15 * s})
	grid(FirstRetry{Span: span}, []time.Duration{0, s / 2, s, 2 * s}, []time.Duration{2 * s, 3 * s, 4 * s, 5 * s, 15 * s / 2, 10 * s})
	periods := []time.Duration{2 * s, 5 * s / 2, 3 * s, 7 * s / 2, 4 * s, 9 * s / 2, 5 * s, 6 * s, 15 * s / 2}
	grid(FirstRetry{Span: span, Steady: true, Jitter: -1}, []time.Duration{0}, periods)
	grid(FirstRetry{Span: span, Steady: true}, []time.Duration{0}, periods)
	return out
}

// Family names the rule's family, as the front's chart and table group
// them.
func (f FirstRetry) Family() string {
	switch {
	case f.Span == 0:
		return "one early retry U[min, max]"
	case !f.Steady:
		return "early retries U[min, max]"
	case f.jitter() == 0:
		return "U[0, P] then every P"
	}
	return "U[0, P] then P×[0.8, 1]"
}
