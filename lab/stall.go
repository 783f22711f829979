package lab

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// StallSummary is what a fleet did after a stall (HostFault.Stall): how
// many clients noticed the silence by their idle timer (RTN23a), how long
// after their CONNECTED, and how many were CONNECTED again.
type StallSummary struct {
	// Clients is the fleet's size; Connected how many reached CONNECTED.
	Clients, Connected int
	// Detected is how many dropped the stalled connection by the idle
	// timer (DISCONNECTED, ReasonDropped, FailureTimeout); Other how many
	// lost it another way.
	Detected, Other int
	// Limit is maxIdleInterval + realtimeRequestTimeout and Sampling the
	// runner's sampling period for it (runner.IdleSamplePeriod): a
	// detection is due between Limit and Limit + Sampling after the last
	// message, here the CONNECTED message.
	Limit, Sampling time.Duration
	// Within is how many detections came within [Limit, Limit+Sampling]
	// of CONNECTED; Early how many before Limit (a false detection).
	Within, Early int
	// Min, Median and Max are the detections' times after CONNECTED.
	Min, Median, Max time.Duration
	// Reconnected is how many were CONNECTED again after the loss.
	Reconnected int
}

// SummarizeStall summarizes results of a stall with the given idle limit
// and sampling period.
func SummarizeStall(results []ClientResult, limit, sampling time.Duration) StallSummary {
	s := StallSummary{Clients: len(results), Limit: limit, Sampling: sampling}
	var ts []time.Duration
	for _, r := range results {
		if !r.Connected {
			continue
		}
		s.Connected++
		if r.Reconnected {
			s.Reconnected++
		}
		if r.Lost.To == engine.Initialized {
			continue
		}
		if r.Lost.To != engine.Disconnected || r.Lost.Reason != engine.ReasonDropped || r.Lost.Failure.Kind != reconnect.FailureTimeout {
			s.Other++
			continue
		}
		s.Detected++
		t := r.Lost.At.Sub(r.ConnectedAt)
		ts = append(ts, t)
		switch {
		case t < limit:
			s.Early++
		case t <= limit+sampling:
			s.Within++
		}
	}
	if len(ts) > 0 {
		slices.Sort(ts)
		s.Min, s.Median, s.Max = ts[0], Percentile(ts, 0.5), ts[len(ts)-1]
	}
	return s
}

// String is two lines: the detections, then "R of N reconnected".
func (s StallSummary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stall: %d of %d detected it by the idle timer", s.Detected, s.Connected)
	if s.Detected > 0 {
		fmt.Fprintf(&b, ", %v to %v after CONNECTED (median %v); %d within [%v, %v + %v] (maxIdleInterval + realtimeRequestTimeout, + the runner's sampling period)",
			s.Min.Round(time.Millisecond), s.Max.Round(time.Millisecond), s.Median.Round(time.Millisecond), s.Within, s.Limit, s.Limit, s.Sampling)
	}
	if s.Early > 0 {
		fmt.Fprintf(&b, "; %d before %v", s.Early, s.Limit)
	}
	if s.Other > 0 {
		fmt.Fprintf(&b, "; %d lost the connection otherwise", s.Other)
	}
	fmt.Fprintf(&b, "\n%d of %d reconnected", s.Reconnected, s.Clients)
	return b.String()
}
