package runner

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// reporter is the Reporter of one transport, and what the runner knows of
// that transport while Dialer.Open runs on its own goroutine.
//
// It passes each kind of report on once, and nothing after Failed, Closed
// or Fatal, so a transport that reports in a loop cannot flood the runner's
// queue: at most four events per transport reach it. Reports made before
// Open has returned (from within Open, or from a goroutine Open started)
// are held back and passed on, in order, once it has: the engine never
// hears of a transport the runner cannot yet close, activate or hand to
// Runner.Active.
type reporter struct {
	r      *Runner
	id     engine.TransportID
	req    OpenRequest
	ctx    openContext   // Open's: done once the runner no longer wants the transport
	closed atomic.Bool   // the runner disposed of the transport: ignore its reports
	sent   atomic.Uint32 // bit k: an event of kind k was passed on
	// wasActive: the engine activated the transport once. Owned by the
	// goroutine running the engine.
	wasActive bool

	mu       sync.Mutex
	t        Transport           // what Open returned; nil until it has
	opened   bool                // Open has returned (or panicked)
	disposed bool                // the runner no longer wants the transport
	early    [3]engine.EventKind // reports held while Open runs: at most two, then one that ends
	nEarly   uint8
	earlyF   reconnect.Failure // the failure of the held report that ends
	done     chan struct{}     // ctx.Done(), made when first asked for
	ctxEnded bool              // ctx is done
}

// openContext is the context Dialer.Open gets: the values of the runner's
// context, no deadline, done when the runner calls cancel. It lives inside
// the reporter and makes its Done channel only when asked, so that a
// transport costs no allocation of its own for it.
type openContext struct{ p *reporter }

func (openContext) Deadline() (time.Time, bool) { return time.Time{}, false }

func (c openContext) Done() <-chan struct{} {
	p := c.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done == nil {
		p.done = make(chan struct{})
		if p.ctxEnded {
			close(p.done)
		}
	}
	return p.done
}

func (c openContext) Err() error {
	c.p.mu.Lock()
	defer c.p.mu.Unlock()
	if c.p.ctxEnded {
		return context.Canceled
	}
	return nil
}

func (c openContext) Value(key any) any { return c.p.r.base.Value(key) }

// String names the context for debugging.
func (c openContext) String() string { return "runner.openContext" }

// cancel ends Open's context.
func (p *reporter) cancel() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ctxEnded {
		p.ctxEnded = true
		if p.done != nil {
			close(p.done)
		}
	}
}

// ended is the bit that marks a Failed, Closed or Fatal report: nothing
// follows.
const ended = 1 << 31

func (p *reporter) report(k engine.EventKind, f reconnect.Failure) {
	bit := uint32(1) << k
	if k == engine.EventTransportFailed || k == engine.EventTransportClosed || k == engine.EventFatal {
		bit |= ended
	}
	if p.closed.Load() || p.sent.Or(bit)&(bit|ended) != 0 {
		return
	}
	p.mu.Lock()
	if !p.opened {
		p.early[p.nEarly] = k // each kind once, nothing after one that ends: never more than 3
		p.nEarly++
		p.earlyF = f // only one that ends has a failure, and it is the last
		p.mu.Unlock()
		return
	}
	p.post(false, p.event(k, f))
}

// event is the engine's event for a report of kind k with failure f.
func (p *reporter) event(k engine.EventKind, f reconnect.Failure) engine.Event {
	ev := engine.Event{Kind: k, Transport: p.id, Failure: f}
	if k == engine.EventFatal {
		ev.Transport = 0 // a fatal error fails the connection, whichever transport said it
	}
	return ev
}

// post queues evs for the engine and runs it (see Runner.turn; own: on a
// goroutine of the runner's); p.mu is held, so that no report overtakes
// those openDone passes on, and is released before the engine runs, which
// may dispose of p.
func (p *reporter) post(own bool, evs ...engine.Event) {
	p.r.mu.Lock()
	p.mu.Unlock()
	p.r.feed(own, evs...)
}

// openDone records what Open returned and passes on the reports held back
// meanwhile. It reports whether the runner still wants the transport; when
// it does not, the caller closes t.
func (p *reporter) openDone(t Transport) bool {
	p.mu.Lock()
	p.t, p.opened = t, true
	if p.disposed {
		p.nEarly = 0
		p.mu.Unlock()
		return false
	}
	var evs [len(p.early)]engine.Event
	n := int(p.nEarly)
	for i, k := range p.early[:n] {
		var f reconnect.Failure
		if i == n-1 {
			f = p.earlyF // zero unless the last report ended
		}
		evs[i] = p.event(k, f)
	}
	p.nEarly, p.earlyF = 0, reconnect.Failure{}
	if n == 0 {
		p.mu.Unlock()
		return true
	}
	p.post(true, evs[:n]...) // on Open's goroutine, the runner's own
	return true
}

// dispose marks the transport unwanted and returns it, or nil while Open
// has not returned (openDone then tells the open goroutine to close it).
func (p *reporter) dispose() Transport {
	p.closed.Store(true)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.disposed = true
	return p.t
}

// transport returns what Open returned, or nil.
func (p *reporter) transport() Transport {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.t
}

func (p *reporter) Viable()    { p.report(engine.EventTransportViable, reconnect.Failure{}) }
func (p *reporter) Connected() { p.report(engine.EventTransportConnected, reconnect.Failure{}) }
func (p *reporter) Failed(f reconnect.Failure) {
	p.report(engine.EventTransportFailed, f)
}
func (p *reporter) Closed(f reconnect.Failure) {
	p.report(engine.EventTransportClosed, f)
}
func (p *reporter) Fatal(f reconnect.Failure) { p.report(engine.EventFatal, f) }
