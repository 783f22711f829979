package runner

import (
	"sync"
	"sync/atomic"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Reporter is how a transport tells the runner what happened to it (see
// "Transport reports" in the package doc). The runner gives each transport
// its own Reporter in Dialer.Open: a small value, copy it freely. Its
// methods are safe for concurrent use from any goroutine; where the engine
// and the SDK's code they cause run is said under "Goroutines" and "Inline
// calls" in the package doc. The runner feeds the reports to the engine in
// the order they were made, once Dialer.Open has returned. Each kind of
// report counts once, and nothing counts after Failed, Closed or Fatal:
// later and repeated reports are ignored (a Fatal after Failed or Closed
// too), as are reports after the runner has closed the transport, however
// long the transport's goroutines keep the Reporter.
//
// The zero Reporter ignores every report. A transport that wants to be
// tested without a runner declares the interface it needs, which Reporter
// satisfies, for example:
//
//	type reporter interface {
//		Viable()
//		Connected()
//		Failed(reconnect.Failure)
//		Closed(reconnect.Failure)
//		Fatal(reconnect.Failure)
//	}
type Reporter struct {
	p  *reporter
	id engine.TransportID
}

// Viable: the transport has shown itself viable (see the package doc for
// the exact moment for websocket and HTTP).
func (rp Reporter) Viable() { rp.report(engine.EventTransportViable, reconnect.Failure{}) }

// Connected: the transport received the realtime CONNECTED protocol
// message. A transport that reports Connected without Viable first is
// treated as viable, then connected.
func (rp Reporter) Connected() { rp.report(engine.EventTransportConnected, reconnect.Failure{}) }

// Failed: the transport ended, failed; f says how (its Kind decides
// whether the engine moves on to a fallback host; see
// reconnect.ShouldFallback). When to report Failed and when Closed:
// "Transport reports" in the package doc.
func (rp Reporter) Failed(f reconnect.Failure) { rp.report(engine.EventTransportFailed, f) }

// Closed: the transport ended, closed; f says how, the zero Failure for a
// clean close. When to report Closed and when Failed: "Transport reports"
// in the package doc.
func (rp Reporter) Closed(f reconnect.Failure) { rp.report(engine.EventTransportClosed, f) }

// Fatal: the server sent an error no retry can fix (for example a revoked
// key): the connection goes FAILED. It counts only before the transport's
// Failed or Closed.
func (rp Reporter) Fatal(f reconnect.Failure) { rp.report(engine.EventFatal, f) }

// reporter is what the runner knows of one transport: a slot the runner
// reuses for a later transport once this one is closed and its Open has
// returned, so that a runner allocates a slot only for each transport open
// at once, not for each transport it opens. A Reporter names the transport
// it was made for by its ID, which is also in the slot's state word: a
// report for an ID the slot no longer holds is ignored.
//
// Each kind of report is passed on once, and nothing after Failed, Closed
// or Fatal, so a transport that reports in a loop cannot flood the
// runner's queue: at most four events per transport reach it. Reports
// made before Open has returned (from within Open, or from a goroutine
// Open started) are held back and passed on, in order, once it has: the
// engine never hears of a transport the runner cannot yet close, activate
// or hand to Runner.Active.
type reporter struct {
	r *Runner
	// state: the low 32 bits of the transport's ID in the top half; below
	// them bit k when an event of kind k was passed on, and the flag bits.
	state atomic.Uint64
	id    engine.TransportID // written by reset, before the state word names it
	req   OpenRequest        // owned by the goroutine running the engine, and Open's
	// wasActive: the engine activated the transport once. Owned by the
	// goroutine running the engine.
	wasActive bool

	// t is what Open returned: set before flagOpened, read after it.
	t Transport

	mu     sync.Mutex          // held while reports are held back, until Open has returned
	early  [3]engine.EventKind // reports held while Open runs: at most two, then one that ends
	nEarly uint8
	earlyF reconnect.Failure // the failure of the held report that ends
}

// The flag bits of reporter.state, above the event kinds' bits.
const (
	flagOpened   = 1 << 28 // Open has returned: t is set
	flagEnded    = 1 << 29 // a Failed, Closed or Fatal was passed on: nothing follows
	flagReady    = 1 << 30 // Open has returned and its held reports are queued: pass reports on at once
	flagDisposed = 1 << 31 // the runner no longer wants the transport: ignore its reports
)

// idMask selects the transport's ID in reporter.state.
const idMask = ^uint64(1<<32 - 1)

// stateFor is a fresh state word for transport id.
func stateFor(id engine.TransportID) uint64 { return uint64(uint32(id)) << 32 }

// reset readies the slot for transport id, asked for by req; the goroutine
// running the engine owns it (a new slot, or one released by release).
// Only a report through an earlier transport's Reporter can reach it
// meanwhile, and such a report reads nothing but the state word, which
// says disposed until the last store here gives it the new ID.
func (p *reporter) reset(id engine.TransportID, req OpenRequest) {
	p.id, p.req, p.wasActive = id, req, false
	p.t, p.nEarly, p.earlyF = nil, 0, reconnect.Failure{}
	p.state.Store(stateFor(id))
}

// reporter returns the Reporter of the slot's transport; the caller owns
// the slot or holds one of its transport's calls.
func (p *reporter) reporter() Reporter { return Reporter{p: p, id: p.id} }

func (rp Reporter) report(k engine.EventKind, f reconnect.Failure) {
	p := rp.p
	if p == nil {
		return
	}
	bit := uint64(1) << k
	if k == engine.EventTransportFailed || k == engine.EventTransportClosed || k == engine.EventFatal {
		bit |= flagEnded
	}
	want := stateFor(rp.id)
	var s uint64
	for {
		s = p.state.Load()
		if s&idMask != want || s&(bit|flagEnded|flagDisposed) != 0 {
			return // another transport's slot now, or a report that does not count
		}
		if p.state.CompareAndSwap(s, s|bit) {
			break
		}
	}
	ev := rp.event(k, f)
	if s&flagReady != 0 {
		p.r.mu.Lock()
		p.r.feed(sdkCaller, ev)
		return
	}
	p.mu.Lock()
	s = p.state.Load()
	if s&idMask != want || s&flagDisposed != 0 {
		p.mu.Unlock() // disposed, maybe released and reused, meanwhile
		return
	}
	if s&flagOpened == 0 {
		p.early[p.nEarly] = k // each kind once, nothing after one that ends: never more than 3
		p.nEarly++
		p.earlyF = f // only one that ends has a failure, and it is the last
		p.mu.Unlock()
		return
	}
	// Open has returned, but openDone has not yet queued what it held:
	// p.mu is held until r.mu is, so this report is queued after those.
	p.r.mu.Lock()
	p.mu.Unlock()
	p.r.feed(sdkCaller, ev)
}

// event is the engine's event for a report of kind k with failure f.
func (rp Reporter) event(k engine.EventKind, f reconnect.Failure) engine.Event {
	ev := engine.Event{Kind: k, Transport: rp.id, Failure: f}
	if k == engine.EventFatal {
		ev.Transport = 0 // a fatal error fails the connection, whichever transport said it
	}
	return ev
}

// openDone records what Open returned and passes on the reports held back
// meanwhile, on the goroutine that called Open (one of the runner's, or
// with Options.Inline the lead of an inline turn). It reports whether the
// runner still wants the transport; when it does not, the caller closes t.
func (p *reporter) openDone(t Transport) bool {
	p.mu.Lock()
	p.t = t
	var evs [len(p.early)]engine.Event
	n := int(p.nEarly)
	rp := p.reporter()
	for i, k := range p.early[:n] {
		var f reconnect.Failure
		if i == n-1 {
			f = p.earlyF // zero unless the last report ended
		}
		evs[i] = rp.event(k, f)
	}
	p.nEarly, p.earlyF = 0, reconnect.Failure{}
	// Reports are passed on at once from here: after those held, which
	// r.mu, taken before p.mu is released, queues first.
	// Of dispose and this, the one that comes second closes t.
	if n == 0 {
		old := p.state.Or(flagOpened | flagReady)
		p.mu.Unlock()
		return old&flagDisposed == 0
	}
	p.r.mu.Lock()
	old := p.state.Or(flagOpened | flagReady)
	p.mu.Unlock()
	if old&flagDisposed != 0 {
		p.r.mu.Unlock()
		return false
	}
	p.r.feed(ownCaller, evs[:n]...)
	return true
}

// dispose marks the transport unwanted and returns it, or nil while Open
// has not returned (openDone then tells the open goroutine to close it).
func (p *reporter) dispose() Transport {
	if p.state.Or(flagDisposed)&flagOpened != 0 {
		return p.t
	}
	return nil
}
