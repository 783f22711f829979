package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// memDialer opens in-memory transports and records what the runner asked
// of them, with the time it asked.
type memDialer struct {
	mu     sync.Mutex
	opened map[engine.TransportID]*memTransport
	log    []string // "open …", "dispose …", "close-request …", with times
	start  time.Time
	notify bool // Open returns notedMem transports
}

func newMemDialer() *memDialer {
	return &memDialer{opened: map[engine.TransportID]*memTransport{}, start: time.Now()}
}

type memTransport struct {
	d       *memDialer
	req     OpenRequest
	report  Reporter
	closed  bool
	closeRq bool
	// activated, deactivated: the notices a notedMem heard.
	activated, deactivated bool
}

func (d *memDialer) Open(_ context.Context, req OpenRequest, report Reporter) Transport {
	t := &memTransport{d: d, req: req, report: report}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.opened[req.ID] = t
	d.logf("open T%d %v %s %v", req.ID, req.Kind, req.Host, req.Mode)
	if d.notify {
		return notedMem{t}
	}
	return t
}

// notedMem is a memTransport that implements Notified and CauseCloser
// (memDialer.notify) and panics when the notices break their order:
// Activated once, before any close; Deactivated once, only after
// Activated, before the close; CloseFor with a Cause, after Deactivated
// if it was activated.
type notedMem struct{ *memTransport }

func (n notedMem) Activated() {
	n.d.mu.Lock()
	defer n.d.mu.Unlock()
	if n.activated || n.closed {
		panic(fmt.Sprintf("T%d activated again or after its close", n.req.ID))
	}
	n.activated = true
}

func (n notedMem) Deactivated(why Cause) {
	n.d.mu.Lock()
	defer n.d.mu.Unlock()
	if !n.activated || n.deactivated || n.closed || why == CauseNone || why >= numCauses {
		panic(fmt.Sprintf("T%d deactivated (%v) out of order", n.req.ID, why))
	}
	n.deactivated = true
}

func (n notedMem) CloseFor(why Cause) {
	n.d.mu.Lock()
	broken := why == CauseNone || why >= numCauses || n.activated && !n.deactivated
	n.d.mu.Unlock()
	if broken {
		panic(fmt.Sprintf("T%d closed (%v) without a cause, or while still active", n.req.ID, why))
	}
	n.memTransport.Close()
}

func (n notedMem) Close() { panic("Close on a CauseCloser") }

// asMem returns the memTransport t is, or nil.
func asMem(t Transport) *memTransport {
	switch t := t.(type) {
	case *memTransport:
		return t
	case notedMem:
		return t.memTransport
	}
	return nil
}

// logf records a line with the time since start; d.mu is held.
func (d *memDialer) logf(format string, args ...any) {
	d.log = append(d.log, fmt.Sprintf("%d ", scenarioMs(time.Since(d.start)))+fmt.Sprintf(format, args...))
}

func (t *memTransport) RequestClose() {
	t.d.mu.Lock()
	defer t.d.mu.Unlock()
	t.closeRq = true
	t.d.logf("close-request T%d", t.req.ID)
}

func (t *memTransport) Close() {
	t.d.mu.Lock()
	defer t.d.mu.Unlock()
	if t.closed {
		panic("transport closed twice")
	}
	t.closed = true
	t.d.logf("dispose T%d", t.req.ID)
}

// isClosed reports whether the runner closed t.
func (t *memTransport) isClosed() bool {
	t.d.mu.Lock()
	defer t.d.mu.Unlock()
	return t.closed
}

// transport returns transport id, or nil.
func (d *memDialer) transport(id engine.TransportID) *memTransport {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.opened[id]
}

// lines returns the log so far.
func (d *memDialer) lines() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.log...)
}

// memCheck is a check answered by the test: the runner's call waits until
// answer is called or its context ends.
type memCheck struct {
	asks chan chan bool
	mu   sync.Mutex
	byID map[engine.CheckID]chan bool // every call's channel, by check ID
}

func newMemCheck() *memCheck {
	return &memCheck{asks: make(chan chan bool, 4), byID: map[engine.CheckID]chan bool{}}
}

func (c *memCheck) check(ctx context.Context) bool {
	ch := make(chan bool, 1)
	if id, ok := CheckIDFrom(ctx); ok {
		c.mu.Lock()
		c.byID[id] = ch
		c.mu.Unlock()
	}
	select {
	case c.asks <- ch:
	case <-ctx.Done():
		return false
	}
	select {
	case up := <-ch:
		return up
	case <-ctx.Done():
		return false
	}
}

// answer answers the oldest call still waiting, if any, whatever its
// check, and reports whether there was one.
func (c *memCheck) answer(up bool) bool {
	select {
	case ch := <-c.asks:
		c.mu.Lock()
		for id, q := range c.byID {
			if q == ch {
				delete(c.byID, id)
			}
		}
		c.mu.Unlock()
		ch <- up
		return true
	default:
		return false
	}
}

// answerID answers the call the runner made for check id, if any (its
// answer reaches the engine only if the call still waits), and reports
// whether there was one.
func (c *memCheck) answerID(id engine.CheckID, up bool) bool {
	c.mu.Lock()
	ch, ok := c.byID[id]
	delete(c.byID, id)
	c.mu.Unlock()
	if !ok {
		return false
	}
	for range len(c.asks) { // take it out of the queue of asks
		if q := <-c.asks; q != ch {
			c.asks <- q
		}
	}
	ch <- up
	return true
}

// recorder collects state changes.
type recorder struct {
	mu      sync.Mutex
	changes []StateChange
}

func (r *recorder) add(c StateChange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = append(r.changes, c)
}

func (r *recorder) all() []StateChange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]StateChange(nil), r.changes...)
}
