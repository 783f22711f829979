package sim

import (
	"errors"
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
)

// StormConfig describes a server restart: Clients connected clients all
// lose their connection at time 0; the server refuses every attempt until
// Downtime has passed, and from then on accepts at most Capacity attempts
// per second (0: no limit), refusing the rest. Clients follow Strategy:
// under the engine's rules an immediate reconnect at 0 (RTN15a), then
// jittered RTB1 delays from Timeouts.DisconnectedRetry, and once
// Timeouts.ConnectionStateTTL has passed, Timeouts.SuspendedRetry retries
// (RTN14e); peers' strategies follow their own schedules.
type StormConfig struct {
	Clients  int
	Strategy Strategy
	// Safe are the options of StrategyRTB1Safe (ignored by the others).
	Safe SafeOptions
	// First is the rule of StrategyFirstRetry (ignored by the others).
	First    FirstRetry
	Timeouts reconnect.Timeouts
	Downtime time.Duration
	Capacity int
	Horizon  time.Duration
	Seed     uint64
	// Bucket is the width of the histogram's intervals; 0 means 100 ms.
	// Horizon / Bucket may be at most MaxBuckets.
	Bucket time.Duration
	// Progress, if set, is called once per simulated second with the
	// seconds simulated and the horizon in seconds.
	Progress func(done, total int)
	// MaxAttempts stops the run with ErrStormBudget once this many
	// attempts have been simulated; 0 means DefaultStormBudget.
	MaxAttempts int
}

// MaxBuckets bounds the storm histogram's length.
const MaxBuckets = 1_000_000

// DefaultStormBudget is the default StormConfig.MaxAttempts: about a
// minute of simulation.
const DefaultStormBudget = 2_000_000_000

// ErrStormBudget is returned (wrapped) when a storm needs more attempts
// than its budget.
var ErrStormBudget = errors.New("storm: attempt budget exceeded")

// StormResult counts the attempts of a storm.
type StormResult struct {
	Jitter      string        `json:"jitter"` // the strategy's name
	Clients     int           `json:"clients"`
	Bucket      time.Duration `json:"bucketNs"`
	Attempts    []int         `json:"attemptsPerBucket"`
	Total       int           `json:"totalAttempts"`
	Reconnected int           `json:"reconnected"`
	// Refused is the number of attempts the server refused (down, or over
	// its capacity): Total − Reconnected.
	Refused int `json:"refusedAttempts"`
	// GaveUp is the number of clients whose strategy stopped retrying.
	GaveUp int `json:"gaveUp"`
	// PeakPerSecond is the largest bucket scaled to a second;
	// RetryPeakPerSecond the same without the first bucket, which holds
	// the immediate reconnects every engine-rule strategy shares.
	PeakPerSecond      float64 `json:"peakPerSecond"`
	RetryPeakPerSecond float64 `json:"retryPeakPerSecond"`
	// AcceptPeakPerSecond is the most attempts the server accepted in
	// one second (from one whole second to the next): the load a restart
	// puts on it once it is up, at most Capacity.
	AcceptPeakPerSecond int `json:"acceptPeakPerSecond"`
	// AcceptPeak is the most attempts the server accepted within any one
	// second (a window sliding by the millisecond, as the lab counts a
	// restart's accepts), whatever Bucket is.
	AcceptPeak int `json:"acceptPeak"`
	// PeakToMean is the largest bucket over the mean bucket from 0 to the
	// last attempt.
	PeakToMean float64 `json:"peakToMean"`
	// T99 is when 99% of the clients had reconnected (the horizon if they
	// never did).
	T99 time.Duration `json:"t99Ns"`
	// The time each client spent disconnected, from the drop to its
	// accepted attempt; a client that never reconnected counts as the
	// horizon. P99Disconnected equals T99.
	MedianDisconnected time.Duration `json:"medianDisconnectedNs"`
	P99Disconnected    time.Duration `json:"p99DisconnectedNs"`
	MeanDisconnected   time.Duration `json:"meanDisconnectedNs"`
}

// slotWidth is the storm's time resolution.
const slotWidth = time.Millisecond

// stormUniform is the draw of client id for its k-th retry: a
// counter-based SplitMix64 stream, so a client's draws do not depend on the
// order clients are processed in (and an engine fed the same stream makes
// the same choices).
func stormUniform(seed uint64, id uint32, k int) float64 {
	x := seed ^ uint64(id)*0xd1b54a32d192ed03 + uint64(k)*0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) * 0x1p-53
}

// StormSource is the Source the storm's client id draws from, for
// replaying one client through a real engine.
type StormSource struct {
	Seed uint64
	ID   uint32
	k    int
}

// Float64 returns the client's next draw.
func (s *StormSource) Float64() float64 {
	s.k++
	return stormUniform(s.Seed, s.ID, s.k)
}

// noClient ends a wheel slot's list.
const noClient = ^uint32(0)

// stormWheel is a timing wheel of millisecond slots whose lists are
// threaded through one next-index per client, so its memory is one word
// per client and two per slot, whatever the horizon: a client is in at
// most one list at a time.
type stormWheel struct {
	head, tail []uint32
	next       []uint32
	mask       int64
}

func newStormWheel(clients int, span time.Duration) *stormWheel {
	size := 1
	for time.Duration(size)*slotWidth <= span+slotWidth {
		size <<= 1
	}
	w := &stormWheel{head: make([]uint32, size), tail: make([]uint32, size), next: make([]uint32, clients), mask: int64(size - 1)}
	for i := range w.head {
		w.head[i], w.tail[i] = noClient, noClient
	}
	return w
}

// push appends client id to slot's list.
func (w *stormWheel) push(slot int64, id uint32) {
	i := slot & w.mask
	w.next[id] = noClient
	if w.tail[i] == noClient {
		w.head[i] = id
	} else {
		w.next[w.tail[i]] = id
	}
	w.tail[i] = id
}

// take detaches slot's list and returns its first client.
func (w *stormWheel) take(slot int64) uint32 {
	i := slot & w.mask
	h := w.head[i]
	w.head[i], w.tail[i] = noClient, noClient
	return h
}

// Storm simulates the restart. It keeps a few bytes per client and a
// timing wheel of millisecond slots (memory proportional to clients, not
// to the horizon), so a million clients take well under a second per
// simulated ten minutes.
func Storm(sc StormConfig) (StormResult, error) {
	if sc.Clients <= 0 || sc.Clients > 10_000_000 {
		return StormResult{}, fmt.Errorf("clients must be between 1 and 10000000, got %d", sc.Clients)
	}
	if err := sc.Timeouts.Validate(); err != nil {
		return StormResult{}, err
	}
	if err := sc.Safe.validate(); err != nil {
		return StormResult{}, err
	}
	if err := sc.First.validate(); err != nil {
		return StormResult{}, err
	}
	if sc.Bucket <= 0 {
		sc.Bucket = 100 * time.Millisecond
	}
	if sc.MaxAttempts <= 0 {
		sc.MaxAttempts = DefaultStormBudget
	}
	switch {
	case sc.Horizon <= 0 || sc.Downtime < 0 || sc.Capacity < 0:
		return StormResult{}, fmt.Errorf("storm: horizon must be positive and downtime, capacity non-negative")
	case sc.Strategy >= numStrategies:
		return StormResult{}, fmt.Errorf("storm: unknown strategy %d", sc.Strategy)
	case sc.Horizon/sc.Bucket >= MaxBuckets:
		return StormResult{}, fmt.Errorf("storm: horizon %v / bucket %v is over %d buckets", sc.Horizon, sc.Bucket, MaxBuckets)
	}
	st := sc.Strategy
	w := newStormWheel(sc.Clients, st.maxDelay(&sc))
	fails := make([]uint16, sc.Clients) // attempts refused so far
	var prev []uint32                   // decorrelated's previous delay, in ms
	if st == StrategyDecorrelated || st == StrategyFirstRetry {
		prev = make([]uint32, sc.Clients) // first-retry: the early retries made
	}
	prevOf := func(id uint32) *uint32 {
		if prev == nil {
			return nil
		}
		return &prev[id]
	}
	var prevNs []time.Duration // StrategyPolicyDecorrelated's previous retry delay
	if st == StrategyPolicyDecorrelated {
		prevNs = make([]time.Duration, sc.Clients)
	}
	prevNsOf := func(id uint32) *time.Duration {
		if prevNs == nil {
			return nil
		}
		return &prevNs[id]
	}

	res := StormResult{Jitter: st.String(), Clients: sc.Clients, Bucket: sc.Bucket,
		Attempts: make([]int, int(sc.Horizon/sc.Bucket)+1)}
	horizonSlots := int64(sc.Horizon / slotWidth)
	pending := 0
	for id := range uint32(sc.Clients) {
		d, _ := st.delay(&sc, 0, stormUniform(sc.Seed, id, sc.drawIndex(0, false)), prevOf(id), prevNsOf(id))
		if s := int64(d / slotWidth); s <= horizonSlots {
			w.push(s, id)
			pending++
		}
	}
	ttlSlot := int64(-1)
	if st.engineRules() {
		ttlSlot = int64(sc.Timeouts.ConnectionStateTTL / slotWidth)
	}
	var window int64 = -1 // the current one-second capacity window
	accepted := 0
	need50, need99 := (sc.Clients+1)/2, (sc.Clients*99+99)/100
	res.T99, res.MedianDisconnected = sc.Horizon, sc.Horizon
	var sumDisconnected float64
	lastAttempt := int64(0)
	var acc acceptWindow
	for slot := int64(0); slot <= horizonSlots && pending > 0; slot++ {
		if slot == ttlSlot {
			suspend(&sc, w, slot, fails)
		}
		if sc.Progress != nil && slot%1000 == 0 {
			sc.Progress(int(slot/1000), int(horizonSlots/1000)+1)
		}
		id := w.take(slot)
		if id == noClient {
			continue
		}
		t := time.Duration(slot) * slotWidth
		lastAttempt = slot
		if s := slot / 1000; s != window {
			window, accepted = s, 0
		}
		n := 0
		for ; id != noClient; n++ {
			nextID := w.next[id]
			if t >= sc.Downtime && (sc.Capacity == 0 || accepted < sc.Capacity) {
				accepted++
				res.AcceptPeakPerSecond = max(res.AcceptPeakPerSecond, accepted)
				pending--
				res.Reconnected++
				sumDisconnected += float64(t)
				if res.Reconnected == need50 {
					res.MedianDisconnected = t
				}
				if res.Reconnected == need99 {
					res.T99 = t
				}
				id = nextID
				continue
			}
			if fails[id] < 1<<15 {
				fails[id]++
			}
			suspended := slot >= ttlSlot && ttlSlot >= 0
			u := stormUniform(sc.Seed, id, sc.drawIndex(int(fails[id]), suspended))
			var d time.Duration
			ok := true
			if suspended {
				d = st.suspendedDelay(&sc, u)
			} else {
				d, ok = st.delayAt(&sc, int(fails[id]), t, u, prevOf(id), prevNsOf(id))
			}
			if next := slot + max(int64(d/slotWidth), 1); ok && next <= horizonSlots {
				w.push(next, id)
			} else {
				pending--
				if !ok {
					res.GaveUp++
				}
			}
			id = nextID
		}
		acc.add(slot, res.Reconnected)
		res.Attempts[t/sc.Bucket] += n
		res.Total += n
		if res.Total > sc.MaxAttempts {
			return res, fmt.Errorf("%w: more than %d attempts by %v", ErrStormBudget, sc.MaxAttempts, t)
		}
	}
	res.Refused = res.Total - res.Reconnected
	res.AcceptPeak = acc.peak
	res.P99Disconnected = res.T99
	sumDisconnected += float64(sc.Clients-res.Reconnected) * float64(sc.Horizon)
	res.MeanDisconnected = time.Duration(sumDisconnected / float64(sc.Clients))
	res.Attempts = res.Attempts[:int(time.Duration(lastAttempt)*slotWidth/sc.Bucket)+1]
	peak, retryPeak := 0, 0
	for k, a := range res.Attempts {
		peak = max(peak, a)
		if k > 0 {
			retryPeak = max(retryPeak, a)
		}
	}
	perSecond := float64(time.Second) / float64(sc.Bucket)
	res.PeakPerSecond = float64(peak) * perSecond
	res.RetryPeakPerSecond = float64(retryPeak) * perSecond
	if res.Total > 0 {
		res.PeakToMean = float64(peak) / (float64(res.Total) / float64(len(res.Attempts)))
	}
	return res, nil
}

// suspend applies connectionStateTtl at slot: every client still waiting
// becomes SUSPENDED and retries after the strategy's SUSPENDED delay from
// now (the engine cancels its pending RTB1 retry).
func suspend(sc *StormConfig, w *stormWheel, slot int64, fails []uint16) {
	// Gather every waiting client into one list first, so none is moved
	// twice.
	first, last := noClient, noClient
	for s := slot + 1; s <= slot+w.mask; s++ {
		h := w.take(s)
		if h == noClient {
			continue
		}
		if first == noClient {
			first = h
		} else {
			w.next[last] = h
		}
		for last = h; w.next[last] != noClient; last = w.next[last] {
		}
	}
	for id := first; id != noClient; {
		nextID := w.next[id]
		u := stormUniform(sc.Seed, id, sc.drawIndex(int(fails[id]), true))
		w.push(slot+max(int64(sc.Strategy.suspendedDelay(sc, u)/slotWidth), 1), id)
		id = nextID
	}
}
