package sim

import (
	"fmt"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Jitter is a retry-jitter strategy applied to the RTB1 backoff envelope
// upper(n) = initial × min((n+2)/3, 2).
type Jitter uint8

const (
	// JitterRTB1 is the spec: upper(n) × (1 − 0.2u), in [0.8, 1] × upper.
	JitterRTB1 Jitter = iota
	// JitterNone is upper(n) exactly.
	JitterNone
	// JitterFull is AWS's full jitter: upper(n) × u, in [0, 1] × upper.
	JitterFull
	// JitterEqual is AWS's equal jitter: upper(n)/2 + upper(n)/2 × u.
	JitterEqual
	numJitters
)

var jitterNames = [numJitters]string{"rtb1", "none", "full", "equal"}

// String returns "rtb1", "none", "full" or "equal".
func (j Jitter) String() string {
	if j < numJitters {
		return jitterNames[j]
	}
	return fmt.Sprintf("Jitter(%d)", j)
}

// ParseJitter returns the strategy named s.
func ParseJitter(s string) (Jitter, error) {
	for j, n := range jitterNames {
		if n == s {
			return Jitter(j), nil
		}
	}
	return 0, fmt.Errorf("unknown jitter %q (known: rtb1, none, full, equal)", s)
}

// delay is the strategy's delay before retry n for the draw u.
func (j Jitter) delay(initial time.Duration, n int, u float64) time.Duration {
	upper := reconnect.RetryDelay(initial, n, 0)
	switch j {
	case JitterNone:
		return upper
	case JitterFull:
		return time.Duration(float64(upper) * u)
	case JitterEqual:
		return upper/2 + time.Duration(float64(upper/2)*u)
	}
	return reconnect.RetryDelay(initial, n, u)
}

// StormConfig describes a server restart: Clients connected clients all
// lose their connection at time 0; the server refuses every attempt until
// Downtime has passed, and from then on accepts at most Capacity attempts
// per second (0: no limit), refusing the rest. Clients follow the engine's
// rules: an immediate reconnect at 0 (RTN15a), then Jitter-ed RTB1 delays
// from Timeouts.DisconnectedRetry, and once Timeouts.ConnectionStateTTL has
// passed, flat Timeouts.SuspendedRetry retries (RTN14e).
type StormConfig struct {
	Clients  int
	Jitter   Jitter
	Timeouts reconnect.Timeouts
	Downtime time.Duration
	Capacity int
	Horizon  time.Duration
	Seed     uint64
	// Bucket is the width of the histogram's intervals; 0 means 100 ms.
	Bucket time.Duration
}

// StormResult counts the attempts of a storm.
type StormResult struct {
	Jitter      string        `json:"jitter"`
	Clients     int           `json:"clients"`
	Bucket      time.Duration `json:"bucketNs"`
	Attempts    []int         `json:"attemptsPerBucket"`
	Total       int           `json:"totalAttempts"`
	Reconnected int           `json:"reconnected"`
	// PeakPerSecond is the largest bucket scaled to a second;
	// RetryPeakPerSecond the same without the first bucket, which holds
	// the immediate reconnects every strategy shares.
	PeakPerSecond      float64 `json:"peakPerSecond"`
	RetryPeakPerSecond float64 `json:"retryPeakPerSecond"`
	// PeakToMean is the largest bucket over the mean bucket from 0 to the
	// last attempt.
	PeakToMean float64 `json:"peakToMean"`
	// T99 is when 99% of the clients had reconnected (the horizon if they
	// never did).
	T99 time.Duration `json:"t99Ns"`
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

// Storm simulates the restart. It keeps one small record per client and a
// timing wheel of millisecond slots, so a million clients take well under a
// few seconds.
func Storm(sc StormConfig) (StormResult, error) {
	if sc.Clients <= 0 || sc.Clients > 10_000_000 {
		return StormResult{}, fmt.Errorf("clients must be between 1 and 10000000, got %d", sc.Clients)
	}
	if err := sc.Timeouts.Validate(); err != nil {
		return StormResult{}, err
	}
	if sc.Bucket <= 0 {
		sc.Bucket = 100 * time.Millisecond
	}
	if sc.Horizon <= 0 || sc.Downtime < 0 || sc.Capacity < 0 || sc.Jitter >= numJitters {
		return StormResult{}, fmt.Errorf("storm: horizon must be positive and downtime, capacity non-negative")
	}
	maxDelay := max(reconnect.RetryDelay(sc.Timeouts.DisconnectedRetry, 4, 0), sc.Timeouts.SuspendedRetry)
	wheelSize := 1
	for time.Duration(wheelSize)*slotWidth <= maxDelay+slotWidth {
		wheelSize <<= 1
	}
	wheel := make([][]uint32, wheelSize)
	mask := int64(wheelSize - 1)
	retries := make([]uint16, sc.Clients) // retries taken so far

	res := StormResult{Jitter: sc.Jitter.String(), Clients: sc.Clients, Bucket: sc.Bucket,
		Attempts: make([]int, int(sc.Horizon/sc.Bucket)+1)}
	first := make([]uint32, sc.Clients)
	for i := range first {
		first[i] = uint32(i)
	}
	wheel[0] = first
	pending := sc.Clients
	ttlSlot := int64(sc.Timeouts.ConnectionStateTTL / slotWidth)
	suspendedSlots := int64(sc.Timeouts.SuspendedRetry / slotWidth)
	horizonSlots := int64(sc.Horizon / slotWidth)
	var window int64 = -1 // the current one-second capacity window
	accepted := 0
	need99 := (sc.Clients*99 + 99) / 100
	res.T99 = sc.Horizon
	lastAttempt := int64(0)
	for slot := int64(0); slot <= horizonSlots && pending > 0; slot++ {
		if slot == ttlSlot {
			// connectionStateTtl: every client still waiting is now
			// SUSPENDED and retries suspendedRetryTimeout from now.
			target := (slot + suspendedSlots) & mask
			for s := slot + 1; s <= slot+int64(wheelSize)-1; s++ {
				if i := s & mask; i != target && len(wheel[i]) > 0 {
					wheel[target] = append(wheel[target], wheel[i]...)
					wheel[i] = wheel[i][:0]
				}
			}
		}
		i := slot & mask
		ids := wheel[i]
		if len(ids) == 0 {
			continue
		}
		wheel[i] = nil // the slot may be refilled below; keep this batch intact
		t := time.Duration(slot) * slotWidth
		res.Attempts[t/sc.Bucket] += len(ids)
		res.Total += len(ids)
		lastAttempt = slot
		if w := slot / 1000; w != window {
			window, accepted = w, 0
		}
		for _, id := range ids {
			if t >= sc.Downtime && (sc.Capacity == 0 || accepted < sc.Capacity) {
				accepted++
				pending--
				res.Reconnected++
				if res.Reconnected == need99 {
					res.T99 = t
				}
				continue
			}
			var d time.Duration
			if slot >= ttlSlot {
				d = sc.Timeouts.SuspendedRetry
			} else {
				if retries[id] < 1<<15 {
					retries[id]++
				}
				d = sc.Jitter.delay(sc.Timeouts.DisconnectedRetry, int(retries[id]), stormUniform(sc.Seed, id, int(retries[id])))
			}
			next := slot + max(int64(d/slotWidth), 1)
			if next > horizonSlots {
				continue
			}
			wheel[next&mask] = append(wheel[next&mask], id)
		}
		if cap(ids) > 0 && len(wheel[i]) == 0 {
			wheel[i] = ids[:0] // reuse the batch's storage
		}
	}
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
