package peers

import (
	"sort"
	"sync"
	"time"
)

// Traffic is what a Proxy saw, stamped with the time it saw it: every
// TCP connection it accepted, and per client (by the "client" query
// parameter of the requests) the connections, the HTTP requests (a
// websocket upgrade is one) and the bytes either way. A connection is
// the client's from its first request that names one; one that never
// names a client is counted only as accepted. Its methods are safe for
// concurrent use.
type Traffic struct {
	mu      sync.Mutex
	accepts []accept
	clients map[int]*clientTraffic
}

type accept struct {
	at   time.Time
	host string
}

type stamped struct {
	at time.Time
	n  int
}

type clientTraffic struct {
	sockets, requests []time.Time
	bytes             []stamped
}

func newTraffic() *Traffic { return &Traffic{clients: map[int]*clientTraffic{}} }

func (t *Traffic) of(id int) *clientTraffic {
	ct := t.clients[id]
	if ct == nil {
		ct = &clientTraffic{}
		t.clients[id] = ct
	}
	return ct
}

func (t *Traffic) accepted(at time.Time, host string) {
	t.mu.Lock()
	t.accepts = append(t.accepts, accept{at, host})
	t.mu.Unlock()
}

func (t *Traffic) socket(id int, at time.Time) {
	t.mu.Lock()
	t.of(id).sockets = append(t.of(id).sockets, at)
	t.mu.Unlock()
}

func (t *Traffic) request(id int, at time.Time) {
	if id < 0 {
		return
	}
	t.mu.Lock()
	t.of(id).requests = append(t.of(id).requests, at)
	t.mu.Unlock()
}

func (t *Traffic) bytes(id int, at time.Time, n int) {
	if id < 0 || n <= 0 {
		return
	}
	t.mu.Lock()
	t.of(id).bytes = append(t.of(id).bytes, stamped{at, n})
	t.mu.Unlock()
}

// Usage is what one client opened and exchanged in a span of time.
type Usage struct {
	Sockets, Requests int
	Bytes             int64 // both ways
}

// Usage returns what client id opened and exchanged from from to to
// (both included).
func (t *Traffic) Usage(id int, from, to time.Time) Usage {
	t.mu.Lock()
	defer t.mu.Unlock()
	ct := t.clients[id]
	if ct == nil {
		return Usage{}
	}
	in := func(at time.Time) bool { return !at.Before(from) && !at.After(to) }
	var u Usage
	for _, at := range ct.sockets {
		if in(at) {
			u.Sockets++
		}
	}
	for _, at := range ct.requests {
		if in(at) {
			u.Requests++
		}
	}
	for _, b := range ct.bytes {
		if in(b.at) {
			u.Bytes += int64(b.n)
		}
	}
	return u
}

// AcceptPeak returns the largest number of connections the proxy
// accepted on hosts other than except within any one second from from
// on, and when that second began.
func (t *Traffic) AcceptPeak(from time.Time, except string) (int, time.Time) {
	ts := t.Accepts(from, except)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
	best, at, j := 0, time.Time{}, 0
	for i := range ts {
		for ts[i].Sub(ts[j]) >= time.Second {
			j++
		}
		if n := i - j + 1; n > best {
			best, at = n, ts[j]
		}
	}
	return best, at
}

// Accepts returns the times of the connections accepted on hosts other
// than except from from on.
func (t *Traffic) Accepts(from time.Time, except string) []time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []time.Time
	for _, a := range t.accepts {
		if !a.at.Before(from) && a.host != except {
			out = append(out, a.at)
		}
	}
	return out
}
