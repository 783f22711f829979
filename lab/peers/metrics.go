package peers

import (
	"slices"
	"time"
)

// Never is the time of a client that did not get there within the
// window.
const Never = time.Duration(1<<63 - 1)

// Result is what one Cell measured, per client.
type Result struct {
	// Times is each client's time to its first application message:
	// from its start, or from the fault for a fault after connected;
	// Never for a client that had none within the window.
	Times []time.Duration
	// Detect is each client's time from the fault to its library's first
	// report of the connection lost (Never when none came within the
	// window), for a fault after connected.
	Detect []time.Duration
	// Usage is each client's traffic from its start (or the fault) until
	// Options.Settle after its first message, or the window's end.
	Usage []Usage
	// Before is each client's traffic until its first message (until
	// the window's end for a client that had none): the requests and
	// sockets a client spends before its application hears anything.
	Before []Usage
	// Transports counts the transports of the first messages.
	Transports map[string]int
	// Upgrades counts the socket.io clients that moved to another
	// transport in the same span.
	Upgrades int
	// AcceptPeak is, for a restart, the most connections the proxy
	// accepted within one second after the hosts came back; Accepts are
	// the times, from the fault, of every connection it accepted (on the
	// realtime hosts: the connectivity check is another service).
	AcceptPeak int
	Accepts    []time.Duration
}

// Reached returns how many clients had their first message within the
// window.
func (r Result) Reached() int {
	n := 0
	for _, t := range r.Times {
		if t != Never {
			n++
		}
	}
	return n
}

// measure computes a cell's Result from its events and traffic.
func measure(c Cell, settle time.Duration) Result {
	res := Result{Transports: map[string]int{}}
	if c.Traffic == nil || (c.Start.IsZero() && c.FaultAt.IsZero()) {
		return res
	}
	for i := range c.Clients {
		from := c.FaultAt
		if !c.Fault.afterConnected() {
			e, ok := firstEvent(c.Events, i, EventStart, time.Time{})
			if !ok {
				continue
			}
			from = e.At
		}
		if from.IsZero() {
			continue
		}
		end := from.Add(c.Window)
		before := end
		t := Never
		if at, tr, ok := firstMessage(c.Events, i, from); ok && at.Sub(from) <= c.Window {
			t = at.Sub(from)
			res.Transports[tr]++
			end, before = at.Add(settle), at
		}
		res.Before = append(res.Before, c.Traffic.Usage(i, from, before))
		res.Times = append(res.Times, t)
		if c.Fault.afterConnected() {
			d := Never
			if e, ok := firstEvent(c.Events, i, EventDisconnect, from); ok && e.At.Sub(from) <= c.Window {
				d = e.At.Sub(from)
			}
			res.Detect = append(res.Detect, d)
		}
		if e, ok := firstEvent(c.Events, i, EventUpgrade, from); ok && !e.At.After(end) {
			res.Upgrades++
		}
		res.Usage = append(res.Usage, c.Traffic.Usage(i, from, end))
	}
	if c.Fault == Restart && !c.BackAt.IsZero() {
		res.AcceptPeak, _ = c.Traffic.AcceptPeak(c.BackAt, checkHost)
		for _, at := range c.Traffic.Accepts(c.FaultAt, checkHost) {
			res.Accepts = append(res.Accepts, at.Sub(c.FaultAt))
		}
	}
	return res
}

// Spread summarizes durations in which Never may appear: the median with
// a distribution-free 95 % confidence interval (order statistics of the
// binomial; with fewer than 6 values, the lowest and the highest, which
// cover less), the 90th and 99th percentiles and the largest. Never sorts
// last, so a median is Never when half the clients never got there.
type Spread struct {
	N                        int
	Median, Lo, Hi, P90, P99 time.Duration
	Max                      time.Duration
}

// spreadOf summarizes ts.
func spreadOf(ts []time.Duration) Spread {
	n := len(ts)
	if n == 0 {
		return Spread{}
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(n-1, max(0, int(q*float64(n)+0.999999)-1))] }
	sp := Spread{N: n, Median: at(0.5), P90: at(0.9), P99: at(0.99), Max: s[n-1]}
	lo, hi := medianCI(n)
	sp.Lo, sp.Hi = s[lo], s[hi]
	return sp
}

// medianCI returns the 0-based ranks of a distribution-free 95 %
// confidence interval for the median of n values (n ≥ 6): [x(j), x(n−j+1)]
// in 1-based order statistics for the largest j with P(Binomial(n, ½) ≤
// j−1) ≤ 2.5 %.
func medianCI(n int) (int, int) {
	if n < 6 {
		return 0, n - 1
	}
	// cdf accumulates P(X ≤ j) for X ~ Binomial(n, ½).
	p := 1.0
	for range n {
		p /= 2
	}
	cdf, pj := 0.0, p
	j := 0
	for ; j < n; j++ {
		cdf += pj
		if cdf > 0.025 {
			break
		}
		pj = pj * float64(n-j) / float64(j+1)
	}
	// P(X ≤ j−1) ≤ 2.5 % < P(X ≤ j): the j-th value (1-based) is the
	// lower bound, [x(j), x(n−j+1)] covers at least 95 %.
	return j - 1, n - j
}

// meanUsage returns the mean of each count over the clients.
func meanUsage(us []Usage) (sockets, requests, kib float64) {
	if len(us) == 0 {
		return 0, 0, 0
	}
	for _, u := range us {
		sockets += float64(u.Sockets)
		requests += float64(u.Requests)
		kib += float64(u.Bytes) / 1024
	}
	n := float64(len(us))
	return sockets / n, requests / n, kib / n
}
