package sim

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Strategy is a reconnect schedule a storm's clients follow after their
// connection drops. The first six follow this package's engine rules (an
// attempt at once or within the safe window, retries on the RTB1 envelope
// upper(n) = initial × min((n+2)/3, 2), and flat SUSPENDED retries once
// connectionStateTtl has passed) with different jitters; the other five are
// the schedules other realtime clients ship, with their own defaults and no
// SUSPENDED state.
type Strategy uint8

const (
	// StrategyRTB1 is the spec: upper(n) × (1 − 0.2u), in [0.8, 1] × upper.
	StrategyRTB1 Strategy = iota
	// StrategyNone is upper(n) exactly.
	StrategyNone
	// StrategyFull is AWS's full jitter: upper(n) × u, in [0, 1] × upper.
	StrategyFull
	// StrategyEqual is AWS's equal jitter: upper(n)/2 + upper(n)/2 × u.
	StrategyEqual
	// StrategyDecorrelated is AWS's decorrelated jitter ("Exponential
	// Backoff And Jitter", AWS Architecture Blog, 2015):
	// sleep = min(cap, U[base, 3 × previous sleep]), with base 1 s and cap
	// 30 s (RTB1's largest delay), the first previous sleep being base.
	StrategyDecorrelated
	// StrategyRTB1Safe is RTB1 with the storm-safe options of
	// StormConfig.Safe: the immediate reconnect spread over a window, wider
	// retry jitter and jittered SUSPENDED retries.
	StrategyRTB1Safe
	// StrategySocketIO is socket.io-client 4.7.5 (lib/manager.ts with
	// lib/contrib/backo2.ts): reconnectionDelay 1 s, factor 2,
	// randomizationFactor 0.5, reconnectionDelayMax 5 s; the n-th delay
	// (n from 0) is ms = 1000·2ⁿ, deviation = ⌊r·0.5·ms⌋ and ms − deviation
	// when ⌊10r⌋ is even, ms + deviation otherwise, for one draw r; then
	// min(ms, 5000) truncated to an integer, so jitter comes before the cap.
	// Once 1000·2ⁿ overflows a float64 (n ≥ 1015), JavaScript computes
	// ∞ − ∞ = NaN for the "minus" branch and NaN | 0 = 0: a zero delay.
	StrategySocketIO
	// StrategyCentrifugeJS is centrifuge-js 5.7.1 (src/utils.ts backoff,
	// minReconnectDelay 500 ms, maxReconnectDelay 20 s): the n-th delay
	// (n from 0, capped at 31) is min(20 s, 500 ms + randomInt(0,
	// min(20 s, 500 ms·2ⁿ))) whole milliseconds.
	StrategyCentrifugeJS
	// StrategyCentrifugeGo is centrifuge-go 0.12.1 (reconnect.go, on
	// jpillora/backoff 1.0.0 ForAttempt with Min 200 ms, Max 20 s, Factor
	// 2, Jitter): the attempt counter is incremented before the first delay,
	// so the n-th delay (n from 0) is U[200 ms, 200 ms·2ⁿ⁺¹] clamped to
	// [200 ms, 20 s]: jitter before the cap.
	StrategyCentrifugeGo
	// StrategyPhoenix is phoenix.js 1.8.12 (assets/js/phoenix/socket.js
	// reconnectAfterMs): 10, 50, 100, 150, 200, 250, 500, 1000, 2000 ms,
	// then 5 s for ever, no jitter.
	StrategyPhoenix
	// StrategySignalR is @microsoft/signalr's DefaultReconnectPolicy
	// (dotnet/aspnetcore src/SignalR/clients/ts/signalr): 0, 2, 10 and
	// 30 s, then it gives up (the connection closes for good).
	StrategySignalR
	// StrategyRTB1NoImmediate is the engine with Config.ImmediateReconnect
	// ImmediateOff: no reconnect at once after the drop; the drop takes
	// RTB1's retry 1, and every later attempt the next retry number.
	StrategyRTB1NoImmediate
	// StrategyPolicyFullJitter, StrategyPolicyEqualJitter,
	// StrategyPolicyGRPC and StrategyPolicyDecorrelated are the engine with
	// Config.Retry set to that family at PolicyOf's parameters (full and
	// equal jitter and decorrelated jitter base 1 s, cap 30 s; gRPC's
	// DefaultGRPCBackoff, 1 s × 1.6 ± 0.2 up to 120 s) and the immediate
	// reconnect kept: the engine's arithmetic, so a storm client and an
	// engine agree to the nanosecond.
	StrategyPolicyFullJitter
	StrategyPolicyEqualJitter
	StrategyPolicyGRPC
	StrategyPolicyDecorrelated
	// StrategyFirstRetry is RTB1 after a first-retry rule (StormConfig.First,
	// FirstRetry): the immediate reconnect, then early retries while less
	// than First.Span has passed since the drop (one when Span is 0), then
	// RTB1 retries counted from 1; SUSPENDED as rtb1.
	StrategyFirstRetry
	numStrategies
)

var strategyNames = [numStrategies]string{"rtb1", "none", "full", "equal", "decorrelated", "rtb1-safe",
	"socketio", "centrifuge-js", "centrifuge-go", "phoenix", "signalr",
	"rtb1-no-immediate", "policy-full-jitter", "policy-equal-jitter", "policy-grpc", "policy-decorrelated-jitter", "first-retry"}

// Strategies returns every strategy, in the order of their constants.
func Strategies() []Strategy {
	out := make([]Strategy, numStrategies)
	for i := range out {
		out[i] = Strategy(i)
	}
	return out
}

// DefaultStrategies returns the strategies simulate storm compares by
// default: the first eleven (docs/storms.md's first table).
func DefaultStrategies() []Strategy { return Strategies()[:StrategySignalR+1] }

// RetryPolicyStrategies returns the engine's retry choices: RTB1 with and
// without the immediate reconnect and each retry family at PolicyOf's
// parameters (docs/storms.md, "Retry policies").
func RetryPolicyStrategies() []Strategy {
	return []Strategy{StrategyRTB1, StrategyRTB1NoImmediate, StrategyPolicyFullJitter, StrategyPolicyEqualJitter, StrategyPolicyGRPC, StrategyPolicyDecorrelated}
}

// PolicyOf returns the engine's Config.Retry for a policy strategy, and
// the zero RetryPolicy (RTB1) for the others.
func PolicyOf(s Strategy) reconnect.RetryPolicy {
	switch s {
	case StrategyPolicyFullJitter:
		return reconnect.FullJitter{Base: time.Second, Cap: 30 * time.Second}.Policy()
	case StrategyPolicyEqualJitter:
		return reconnect.EqualJitter{Base: time.Second, Cap: 30 * time.Second}.Policy()
	case StrategyPolicyGRPC:
		return reconnect.DefaultGRPCBackoff().Policy()
	case StrategyPolicyDecorrelated:
		return reconnect.DecorrelatedJitter{Base: time.Second, Cap: 30 * time.Second}.Policy()
	}
	return reconnect.RetryPolicy{}
}

// String returns the strategy's name as ParseStrategy accepts it.
func (s Strategy) String() string {
	if s < numStrategies {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", s)
}

// ParseStrategy returns the strategy named name.
func ParseStrategy(name string) (Strategy, error) {
	for s, n := range strategyNames {
		if n == name {
			return Strategy(s), nil
		}
	}
	return 0, fmt.Errorf("unknown strategy %q; want one of %s", name, strings.Join(strategyNames[:], ", "))
}

// engineRules reports whether the strategy follows the engine's rules
// (immediate reconnect, RTB1 retries, SUSPENDED after connectionStateTtl).
func (s Strategy) engineRules() bool { return s <= StrategyRTB1Safe || s >= StrategyRTB1NoImmediate }

// EngineRules reports whether the strategy follows the engine's rules: an
// immediate reconnect (unless rtb1-no-immediate), the engine's retries and
// SUSPENDED retries once connectionStateTtl has passed.
func (s Strategy) EngineRules() bool { return s.engineRules() }

// SafeOptions are the storm-safe options StrategyRTB1Safe adds to RTB1.
type SafeOptions struct {
	// Window spreads the immediate reconnect after a drop uniformly over
	// [0, Window]; 0 keeps it immediate.
	Window time.Duration `json:"windowNs"`
	// ImmediateShare is the share of clients that still reconnect at once
	// within a window: Config.ImmediateShare.
	ImmediateShare float64 `json:"immediateShare"`
	// RetrySpread is the width of the retry jitter: a retry waits
	// upper(n) × (1 − RetrySpread·u); 0.2 is RTB1, 1 is full jitter.
	RetrySpread float64 `json:"retrySpread"`
	// SuspendedSpread jitters SUSPENDED retries the same way:
	// suspendedRetryTimeout × (1 − SuspendedSpread·u); 0 keeps them flat.
	SuspendedSpread float64 `json:"suspendedSpread"`
}

// DefaultSafe are the storm-safe options this package proposes, chosen
// from the trade-off in docs/storm-safe-reconnect.md.
var DefaultSafe = SafeOptions{Window: time.Second, ImmediateShare: 0.05, RetrySpread: 1, SuspendedSpread: 0.5}

func (o SafeOptions) validate() error {
	switch {
	case o.Window < 0 || o.Window > time.Minute:
		return fmt.Errorf("safe window must be between 0 and 1m, got %v", o.Window)
	case !(o.ImmediateShare >= 0 && o.ImmediateShare < 1):
		return fmt.Errorf("safe immediate share must be at least 0 and below 1, got %v", o.ImmediateShare)
	case !(o.RetrySpread >= 0 && o.RetrySpread <= 1):
		return fmt.Errorf("safe retry spread must be between 0 and 1, got %v", o.RetrySpread)
	case !(o.SuspendedSpread >= 0 && o.SuspendedSpread <= 1):
		return fmt.Errorf("safe suspended spread must be between 0 and 1, got %v", o.SuspendedSpread)
	}
	return nil
}

// decorrelated's parameters.
const (
	decorrelatedBase = time.Second
	decorrelatedCap  = 30 * time.Second
)

// maxDelay bounds every delay the strategy can return for sc.
func (s Strategy) maxDelay(sc *StormConfig) time.Duration {
	_, policyMax := PolicyOf(s).Bounds(math.MaxInt, math.MaxInt64)
	if PolicyOf(s).Family == reconnect.FamilyRTB1 {
		policyMax = 0
	}
	return max(reconnect.RetryDelay(sc.Timeouts.DisconnectedRetry, 4, 0), sc.Timeouts.SuspendedRetry,
		decorrelatedCap, sc.Safe.Window, policyMax, sc.First.Max)
}

// delay is the wait before the next attempt of a client that has failed
// a attempts since the drop (a = 0: the first attempt after the drop), for
// the draw u; prev is the client's previous delay in milliseconds (used by
// decorrelated only), prevNs its previous retry delay in nanoseconds (used
// by StrategyPolicyDecorrelated only, as the engine keeps it). ok is false
// when the strategy gives up.
func (s Strategy) delay(sc *StormConfig, a int, u float64, prev *uint32, prevNs *time.Duration) (d time.Duration, ok bool) {
	return s.delayAt(sc, a, 0, u, prev, prevNs)
}

// PeerDelay is the wait of a peer's schedule (StrategySocketIO,
// StrategyCentrifugeJS, StrategyCentrifugeGo, StrategyPhoenix) before the
// attempt that follows refused attempt a (a = 0: the first wait after the
// drop), for the draw u in [0, 1): the models of the field's clients the
// lab checked against the real ones (docs/peers.md). 0 for any other
// strategy, whose delays depend on the engine's configuration.
func (s Strategy) PeerDelay(a int, u float64) time.Duration {
	switch s {
	case StrategySocketIO, StrategyCentrifugeJS, StrategyCentrifugeGo, StrategyPhoenix:
		d, _ := s.delayAt(&StormConfig{}, a, 0, u, nil, nil)
		return d
	}
	return 0
}

// delayAt is delay for a client whose attempt at t (since the drop) was
// refused: only StrategyFirstRetry looks at t.
func (s Strategy) delayAt(sc *StormConfig, a int, t time.Duration, u float64, prev *uint32, prevNs *time.Duration) (d time.Duration, ok bool) {
	initial := sc.Timeouts.DisconnectedRetry
	upper := func() time.Duration { return reconnect.RetryDelay(initial, a, 0) }
	switch s {
	case StrategyFirstRetry:
		if a == 0 {
			return 0, true
		}
		return sc.First.delay(a, t, u, prev, initial), true
	case StrategyRTB1NoImmediate:
		return reconnect.RetryDelay(initial, a+1, u), true
	case StrategyPolicyFullJitter, StrategyPolicyEqualJitter, StrategyPolicyGRPC, StrategyPolicyDecorrelated:
		if a == 0 {
			return 0, true
		}
		var previous time.Duration
		if prevNs != nil {
			previous = *prevNs
		}
		d := PolicyOf(s).Delay(a, previous, u)
		if prevNs != nil {
			*prevNs = d
		}
		return d, true
	case StrategyRTB1, StrategyNone, StrategyFull, StrategyEqual:
		if a == 0 {
			return 0, true
		}
		switch s {
		case StrategyNone:
			return upper(), true
		case StrategyFull:
			return time.Duration(float64(upper()) * u), true
		case StrategyEqual:
			return upper()/2 + time.Duration(float64(upper()/2)*u), true
		}
		return reconnect.RetryDelay(initial, a, u), true
	case StrategyRTB1Safe:
		// The engine's arithmetic (Config.ReconnectWindow, RetrySpread),
		// so that a storm client and an engine agree to the nanosecond.
		if a == 0 {
			return reconnect.WindowWait(sc.Safe.Window, sc.Safe.ImmediateShare, u), true
		}
		return reconnect.SpreadRetryDelay(initial, a, sc.Safe.RetrySpread, u), true
	case StrategyDecorrelated:
		if a == 0 {
			*prev = uint32(decorrelatedBase / time.Millisecond)
			return 0, true
		}
		hi := 3 * time.Duration(*prev) * time.Millisecond
		d := min(decorrelatedCap, decorrelatedBase+time.Duration(float64(hi-decorrelatedBase)*u))
		*prev = uint32(d / time.Millisecond)
		return d, true
	case StrategySocketIO:
		ms := 1000 * math.Pow(2, float64(a))
		dev := math.Floor(u * 0.5 * ms)
		if int(math.Floor(u*10))&1 == 0 {
			ms -= dev
		} else {
			ms += dev
		}
		if math.IsNaN(ms) {
			return 0, true // JavaScript: Math.min(NaN, 5000) | 0 is 0
		}
		return time.Duration(math.Min(ms, 5000)) * time.Millisecond, true
	case StrategyCentrifugeJS:
		step := float64(min(a, 31))
		hi := math.Min(20000, 500*math.Pow(2, step))
		return time.Duration(math.Min(20000, 500+math.Floor(u*(hi+1)))) * time.Millisecond, true
	case StrategyCentrifugeGo:
		const lo, hi = float64(200 * time.Millisecond), 20 * time.Second
		durf := lo * math.Pow(2, float64(a+1))
		durf = u*(durf-lo) + lo
		if durf > math.MaxInt64 {
			return hi, true
		}
		return min(max(time.Duration(durf), 200*time.Millisecond), hi), true
	case StrategyPhoenix:
		table := [...]time.Duration{10, 50, 100, 150, 200, 250, 500, 1000, 2000}
		if a < len(table) {
			return table[a] * time.Millisecond, true
		}
		return 5 * time.Second, true
	case StrategySignalR:
		table := [...]time.Duration{0, 2 * time.Second, 10 * time.Second, 30 * time.Second}
		if a < len(table) {
			return table[a], true
		}
		return 0, false
	}
	return 0, false
}

// suspendedDelay is the wait before a SUSPENDED retry for the draw u.
func (s Strategy) suspendedDelay(sc *StormConfig, u float64) time.Duration {
	if s == StrategyRTB1Safe {
		return reconnect.SpreadDelay(sc.Timeouts.SuspendedRetry, sc.Safe.SuspendedSpread, u)
	}
	return sc.Timeouts.SuspendedRetry
}

// drawIndex is the index k of stormUniform for the draw a client makes
// after fails refused attempts (fails 0: the drop), in the order an Engine
// with the same options draws from its Source (StormSource counts from 1):
// one for the reconnect window, one per RTB1 retry, and with a SUSPENDED
// spread one at connectionStateTtl and one per SUSPENDED retry. Peers'
// strategies draw at the drop too.
func (sc *StormConfig) drawIndex(fails int, suspended bool) int {
	k := fails
	switch {
	case !sc.Strategy.engineRules(), sc.Strategy == StrategyRTB1NoImmediate:
		k++ // a draw at the drop too
	case sc.Strategy == StrategyRTB1Safe:
		if sc.Safe.Window > 0 {
			k++
		}
		if suspended && sc.Safe.SuspendedSpread > 0 {
			k++
		}
	}
	return k
}
