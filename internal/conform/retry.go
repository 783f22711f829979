package conform

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
)

// The retry area (retry.json): the retry-delay families other protocols
// ship, answered by Self through reconnect.RetryPolicy.

type retryInput struct {
	BaseMs     float64  `json:"baseMs"`
	CapMs      float64  `json:"capMs"`
	Multiplier any      `json:"multiplier"`
	Jitter     any      `json:"jitter"`
	Attempt    *float64 `json:"attempt"`
	PreviousMs float64  `json:"previousMs"`
	U          any      `json:"u"`
}

// retryFamilies maps a function's prefix to its family.
var retryFamilies = map[string]reconnect.RetryFamily{
	"fullJitter":   reconnect.FamilyFullJitter,
	"equalJitter":  reconnect.FamilyEqualJitter,
	"grpc":         reconnect.FamilyGRPC,
	"decorrelated": reconnect.FamilyDecorrelatedJitter,
}

// isRetryFunction reports whether fn is one of retry.json's functions.
func isRetryFunction(fn string) bool {
	name, ok := strings.CutSuffix(fn, "Delay")
	if !ok {
		name, ok = strings.CutSuffix(fn, "Bounds")
	}
	_, known := retryFamilies[name]
	return ok && known
}

func answerRetry(req Request) (map[string]any, error) {
	var in retryInput
	if err := decode(req.Input, &in); err != nil {
		return nil, err
	}
	name, delay := strings.CutSuffix(req.Function, "Delay")
	if !delay {
		name, _ = strings.CutSuffix(req.Function, "Bounds")
	}
	fam, ok := retryFamilies[name]
	if !ok {
		return nil, fmt.Errorf("unknown function %q", req.Function)
	}
	p := reconnect.RetryPolicy{Family: fam, Base: msSaturated(in.BaseMs), Cap: msSaturated(in.CapMs)}
	if fam == reconnect.FamilyGRPC {
		var err error
		if p.Multiplier, err = number(in.Multiplier); err != nil {
			return nil, fmt.Errorf("multiplier: %w", err)
		}
		if p.Jitter, err = number(in.Jitter); err != nil {
			return nil, fmt.Errorf("jitter: %w", err)
		}
	}
	attempt := 0
	if in.Attempt != nil {
		attempt = int(math.Max(math.Min(*in.Attempt, math.MaxInt64/2), math.MinInt64/2))
	}
	prev := msSaturated(in.PreviousMs)
	if !delay {
		lo, hi := p.Bounds(attempt, prev)
		return map[string]any{"lowerMs": durationMs(lo), "upperMs": durationMs(hi), "lowerNs": durationNs(lo), "upperNs": durationNs(hi)}, nil
	}
	u, err := number(in.U)
	if err != nil {
		return nil, err
	}
	d := p.Delay(attempt, prev, u)
	return map[string]any{"delayMs": durationMs(d), "delayNs": durationNs(d)}, nil
}

// msSaturated is msDuration saturating at the largest and least Duration:
// retry.json's largest cap, 2^63 − 1 ns, is a double of 2^63 ns.
func msSaturated(ms float64) time.Duration {
	switch ns := math.Round(ms * 1e6); {
	case ns >= 0x1p63:
		return math.MaxInt64
	case ns < -0x1p63:
		return math.MinInt64
	}
	return msDuration(ms)
}
