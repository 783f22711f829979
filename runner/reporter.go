package runner

import (
	"sync"
	"sync/atomic"
	"time"

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

// Dialed: the transport's TCP connection (and TLS session, if any) is up,
// before its websocket handshake, and took rtt from the start of the dial
// (the observed round trip; a negative rtt counts as 0). Report it from
// the dialing code as soon as the connection is up, before the handshake
// (for gorilla/websocket, from a Dialer.NetDialContext or
// NetDialTLSContext wrapper; for net/http, httptrace's ConnectDone or
// TLSHandshakeDone). With engine.Config.Adaptive on, the attempt's first
// websocket's report may bring the short-circuit timer forward (see
// engine.AdaptiveShortCircuit); otherwise it is ignored, so a transport may
// report it always or never. It counts once, and only before Viable,
// Connected, Failed and Closed have been reported.
func (rp Reporter) Dialed(rtt time.Duration) {
	rp.reportFull(engine.EventTransportDialed, reconnect.Failure{}, engine.Details{}, rtt)
}

// Connected: the transport received the realtime CONNECTED protocol
// message. A transport that reports Connected without Viable first is
// treated as viable, then connected. Connected is ConnectedWith with no
// details and no error: the configured connectionStateTtl stays in force
// and there is no idle timer.
func (rp Reporter) Connected() { rp.ConnectedWith(engine.Details{}, reconnect.Failure{}) }

// ConnectedWith: the transport received the realtime CONNECTED protocol
// message, whose connectionDetails say d (its connectionStateTtl and
// maxIdleInterval, RTN21; 0 for a field the message leaves out) and whose
// error is f (RTN15c7, RTN16l: a resume or recovery the server could not
// honour; the zero Failure for none). The change to CONNECTED carries f,
// or an Update does when the transport becomes active while CONNECTED.
// Otherwise as Connected: the first of Connected and ConnectedWith counts.
func (rp Reporter) ConnectedWith(d engine.Details, f reconnect.Failure) {
	rp.reportWith(engine.EventTransportConnected, f, d)
}

// Activity: the transport received something from the server (RTN23a:
// any protocol message, or a ping frame where the SDK sees them, RTN23b).
// Call it once per message, from the reading goroutine: it raises a flag
// of the transport's when it is down, and in the common case, the flag
// already raised, it is one atomic load (no clock read, no lock, no
// event, no allocation: about a nanosecond). While the engine's idle
// timer runs, the runner samples the flag every sampling period δ (the
// idle limit D, maxIdleInterval + Timeouts.IdleSlack or Config.IdleLimit, divided by 8,
// at least 10 ms, at most D) and takes the time of the last sample that
// found it raised as the last activity (see "Liveness" in the package
// doc). So a transport whose last message came at L is disconnected no
// earlier than L + D (never while messages come) and by L + D + δ, and
// the connection reconnects (RTN15); one that reports no activity at all
// is disconnected at D after its CONNECTED message. Without a
// maxIdleInterval in ConnectedWith's details there is no idle timer and
// Activity changes nothing. Reports through the Reporter of a transport
// the runner has given up are ignored.
func (rp Reporter) Activity() {
	p := rp.p
	if p == nil || p.heard.Load() != 0 {
		return
	}
	if p.state.Load()&idMask != stateFor(rp.id) {
		return
	}
	p.heard.Store(1)
}

// Details: the transport received another CONNECTED protocol message
// after the first (RTN24: after a reauthorisation, say), whose
// connectionDetails say d and whose error is f (the zero Failure for
// none). On the active transport of a CONNECTED connection it replaces
// the details in force, restarts the idle timer from now, and an Update
// with engine.ReasonDetails reports it (carrying f, which becomes the
// connection's errorReason). Unlike the other reports it counts every
// time; it is ignored before Connected or ConnectedWith, after the
// transport ended, and (by the engine) on a transport that is not the
// active one. Made before Dialer.Open has returned, it replaces the
// details and error of the CONNECTED held back meanwhile.
func (rp Reporter) Details(d engine.Details, f reconnect.Failure) {
	p := rp.p
	if p == nil {
		return
	}
	want := stateFor(rp.id)
	const connected = uint64(1) << engine.EventTransportConnected
	s := p.state.Load()
	if s&idMask != want || s&(flagEnded|flagDisposed) != 0 || s&connected == 0 {
		return
	}
	ev := engine.Event{Kind: engine.EventConnectionDetails, Transport: rp.id, Failure: f, Details: d}
	if p.pass(ev, s, want) {
		p.connD, p.connF = d, f // the held CONNECTED says what the latest said
		p.mu.Unlock()
	}
}

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
// runner's queue: at most five events per transport reach it. Reports
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
	// notify: the optional interfaces t implements (notifyBits), set with
	// t. cause: why the runner disposed of the transport, set by the
	// goroutine running the engine before the slot is marked disposed.
	notify uint8
	cause  Cause

	// t is what Open returned: set before flagOpened, read after it.
	t Transport

	mu     sync.Mutex          // held while reports are held back, until Open has returned
	early  [4]engine.EventKind // reports held while Open runs: at most three, then one that ends
	nEarly uint8
	earlyF reconnect.Failure // the failure of the held report that ends
	// earlyRTT is the round trip of a held Dialed report.
	earlyRTT time.Duration
	// heard is 1 once the transport received something since the
	// runner's last sample of it (Activity raises it, the runner lowers
	// it: liveness.go), 0 otherwise.
	heard atomic.Uint32
	// connD and connF: the details and error of the CONNECTED report
	// while it is held back.
	connD engine.Details
	connF reconnect.Failure
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
	p.t, p.nEarly, p.earlyF, p.earlyRTT, p.notify, p.cause = nil, 0, reconnect.Failure{}, 0, 0, CauseNone
	p.connD, p.connF = engine.Details{}, reconnect.Failure{}
	p.heard.Store(0)
	p.state.Store(stateFor(id))
}

// reporter returns the Reporter of the slot's transport; the caller owns
// the slot or holds one of its transport's calls.
func (p *reporter) reporter() Reporter { return Reporter{p: p, id: p.id} }

func (rp Reporter) report(k engine.EventKind, f reconnect.Failure) {
	rp.reportWith(k, f, engine.Details{})
}

// reportWith passes on a report of kind k with failure f and, for
// EventTransportConnected, details d.
func (rp Reporter) reportWith(k engine.EventKind, f reconnect.Failure, d engine.Details) {
	rp.reportFull(k, f, d, 0)
}

// reportFull is reportWith with, for EventTransportDialed, the dial's
// round trip rtt. A Dialed report after Viable, Connected or an ending
// report does not count.
func (rp Reporter) reportFull(k engine.EventKind, f reconnect.Failure, d engine.Details, rtt time.Duration) {
	p := rp.p
	if p == nil {
		return
	}
	bit := uint64(1) << k
	if k == engine.EventTransportFailed || k == engine.EventTransportClosed || k == engine.EventFatal {
		bit |= flagEnded
	}
	stop := bit | flagEnded | flagDisposed
	if k == engine.EventTransportDialed {
		stop |= 1<<engine.EventTransportViable | 1<<engine.EventTransportConnected
	}
	want := stateFor(rp.id)
	var s uint64
	for {
		s = p.state.Load()
		if s&idMask != want || s&stop != 0 {
			return // another transport's slot now, or a report that does not count
		}
		if p.state.CompareAndSwap(s, s|bit) {
			break
		}
	}
	ev := rp.event(k, f)
	ev.Details, ev.RTT = d, rtt
	if p.pass(ev, s, want) {
		p.early[p.nEarly] = k // each kind once, nothing after one that ends: never more than 4
		p.nEarly++
		switch k {
		case engine.EventTransportConnected:
			p.connD, p.connF = d, f
		case engine.EventTransportDialed:
			p.earlyRTT = rtt
		default:
			p.earlyF = f // only one that ends has a failure, and it is the last
		}
		p.mu.Unlock()
	}
}

// pass feeds ev, a report of the slot's transport read in state s (want
// is the transport's ID bits), to the runner: at once once the slot is
// ready. Before that it takes p.mu: a report of a transport disposed
// meanwhile is dropped; one made before Dialer.Open has returned is for
// the caller to hold back, and pass returns true with p.mu still held (the
// caller records it and unlocks); one made after Open returned but before
// openDone queued what it held is queued after those, since p.mu is held
// until r.mu is.
func (p *reporter) pass(ev engine.Event, s, want uint64) (hold bool) {
	if s&flagReady != 0 {
		p.r.mu.Lock()
		p.r.feed(sdkCaller, ev)
		return false
	}
	p.mu.Lock()
	s = p.state.Load()
	if s&idMask != want || s&flagDisposed != 0 {
		p.mu.Unlock() // disposed, maybe released and reused, meanwhile
		return false
	}
	if s&flagOpened == 0 {
		return true
	}
	p.r.mu.Lock()
	p.mu.Unlock()
	p.r.feed(sdkCaller, ev)
	return false
}

// event is the engine's event for a report of kind k with failure f. A
// fatal error fails the connection whichever transport said it: the engine
// does not read Transport for it, which names the transport for the state
// change and the notices.
func (rp Reporter) event(k engine.EventKind, f reconnect.Failure) engine.Event {
	return engine.Event{Kind: k, Transport: rp.id, Failure: f}
}

// openDone records what Open returned and passes on the reports held back
// meanwhile, on the goroutine that called Open (one of the runner's, or
// with Options.Inline the lead of an inline turn). It reports whether the
// runner still wants the transport; when it does not, the caller closes t.
func (p *reporter) openDone(t Transport) bool {
	p.mu.Lock()
	p.t, p.notify = t, notifyBits(t)
	// Reports are passed on at once from here: after those held, which
	// r.mu, taken before p.mu is released, queues first.
	// Of dispose and this, the one that comes second closes t.
	if p.nEarly == 0 { // the usual case: nothing held, no events to build
		old := p.state.Or(flagOpened | flagReady)
		p.mu.Unlock()
		return old&flagDisposed == 0
	}
	return p.passHeld()
}

// passHeld is openDone's end when reports were held while Open ran: it
// feeds them, in order, to the engine. p.mu is held, and released on
// return.
func (p *reporter) passHeld() bool {
	var evs [len(p.early)]engine.Event
	n := int(p.nEarly)
	rp := p.reporter()
	for i, k := range p.early[:n] {
		var f reconnect.Failure
		if i == n-1 {
			f = p.earlyF // zero unless the last report ended
		}
		evs[i] = rp.event(k, f)
		switch k {
		case engine.EventTransportConnected:
			evs[i].Failure, evs[i].Details = p.connF, p.connD
		case engine.EventTransportDialed:
			evs[i].RTT = p.earlyRTT
		}
	}
	p.nEarly, p.earlyF, p.earlyRTT = 0, reconnect.Failure{}, 0
	p.connD, p.connF = engine.Details{}, reconnect.Failure{}
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
