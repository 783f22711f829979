package lab

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Summary is a fleet's time to CONNECTED.
type Summary struct {
	Clients, Connected     int
	Min, Median, P90, P99  time.Duration // over the clients that connected
	Max, Mean              time.Duration
	Why                    map[string]int // for clients not connected: their last state and reason
	ByTransport            map[reconnect.TransportKind]int
	MeanWithHorizon        time.Duration // counting a client not connected as horizon, as the simulator does
	horizonForNotConnected time.Duration
}

// Summarize summarizes results; a client that did not connect counts as
// horizon in MeanWithHorizon.
func Summarize(results []ClientResult, horizon time.Duration) Summary {
	s := Summary{Clients: len(results), Why: map[string]int{}, ByTransport: map[reconnect.TransportKind]int{}, horizonForNotConnected: horizon}
	var ts []time.Duration
	var total time.Duration
	for _, r := range results {
		if r.Connected {
			ts = append(ts, r.TimeToConnect)
			s.ByTransport[r.Transport]++
			total += r.TimeToConnect
			continue
		}
		total += horizon
		why := r.Last.To.String()
		if r.Last.Reason != engine.ReasonNone {
			why += " (" + r.Last.Reason.String() + ")"
		}
		s.Why[why]++
	}
	s.Connected = len(ts)
	if s.Clients > 0 {
		s.MeanWithHorizon = total / time.Duration(s.Clients)
	}
	if len(ts) == 0 {
		return s
	}
	slices.Sort(ts)
	var sum time.Duration
	for _, t := range ts {
		sum += t
	}
	s.Min, s.Max, s.Mean = ts[0], ts[len(ts)-1], sum/time.Duration(len(ts))
	s.Median, s.P90, s.P99 = Percentile(ts, 0.5), Percentile(ts, 0.9), Percentile(ts, 0.99)
	return s
}

// Percentile returns the q-quantile (0 ≤ q ≤ 1) of sorted by the
// nearest-rank method, or 0 for an empty slice.
func Percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// String is the demo's one-line summary, e.g. "10/10 connected; time to
// CONNECTED min 61ms median 84ms p99 142ms".
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d connected", s.Connected, s.Clients)
	if s.Connected > 0 {
		fmt.Fprintf(&b, "; time to CONNECTED min %v median %v p99 %v", round(s.Min), round(s.Median), round(s.P99))
		var kinds []string
		for _, k := range []reconnect.TransportKind{reconnect.WebSocket, reconnect.HTTP} {
			if n := s.ByTransport[k]; n > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %v", n, k))
			}
		}
		fmt.Fprintf(&b, " (%s)", strings.Join(kinds, ", "))
	}
	if n := s.Clients - s.Connected; n > 0 {
		whys := make([]string, 0, len(s.Why))
		for w, c := range s.Why {
			whys = append(whys, fmt.Sprintf("%d %s", c, w))
		}
		sort.Strings(whys)
		fmt.Fprintf(&b, "; %d never connected within %v: %s", n, round(s.horizonForNotConnected), strings.Join(whys, ", "))
	}
	return b.String()
}

// round rounds d for people: to the millisecond below 10 s, to 100 ms above.
func round(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}
