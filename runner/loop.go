package runner

import (
	"sync"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// scratch is what a goroutine running the engine works in: the engine's
// actions, and what they decide that others must see, gathered to be
// published under one lock after each item. The buffers are lent by a
// pool for the turn, so an idle runner holds none.
type scratch struct {
	actions []engine.Action
	changes []StateChange
	ops     []op
	opens   []*reporter
	state   engine.State
	// active is what Active returns from now, when activeSet.
	active    Transport
	activeRep *reporter
	activeSet bool
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// turn runs the engine for what was just queued; r.mu is held, and is
// released on return. If another goroutine is running the engine, it will
// see the queued item and turn returns at once. Otherwise the caller runs
// the engine until the inbox is empty: the engine and the runner's
// bookkeeping only, no code of the SDK's, which the drain leaves in r.ops
// and r.changes for the effects (see effects.go). On one of the runner's
// own goroutines (own) the caller then makes those calls itself; on one of
// the SDK's it starts an effects goroutine if none will get to them, so a
// call from the SDK never calls back into the SDK. With Options.Inline,
// see inlineTurn.
func (r *Runner) turn(own bool) {
	if r.inline {
		r.inlineTurn(false)
		return
	}
	if r.running {
		r.mu.Unlock()
		return
	}
	r.running = true
	r.turns.add(1)
	r.drain()
	if own {
		r.workers++
		_, _ = r.effects(true, false)
		return
	}
	if r.workers == 0 && r.effectsWaiting() {
		r.workers++
		r.wg.Add(1)
		go r.effectsFn()
	}
	r.turns.done()
	r.mu.Unlock()
}

// inlineTurn is turn with Options.Inline: the caller runs the engine, then
// the SDK's code it decided (the effects, then the Opens), and again for
// whatever arrived meanwhile, until nothing is left. While it does
// (r.busy), every other caller only queues its event, so that what the
// SDK's code causes by calling the runner runs after that code returns,
// never inside it, and no two goroutines take turns at the SDK's code of
// one runner. The stop (force) is the exception: it runs the engine
// whenever the engine is not running, even while another goroutine is in
// the SDK's code (an Open that blocks must not hold the stop), and leaves
// the rest to that goroutine. r.mu is held, and is released on return.
func (r *Runner) inlineTurn(force bool) {
	if r.running || r.busy && !force {
		r.mu.Unlock()
		return
	}
	lead := !r.busy
	r.busy = true
	for {
		r.running = true
		r.turns.add(1)
		r.drain()
		r.workers++
		p, done := r.effects(true, lead)
		if !lead || done {
			return
		}
		for p != nil {
			if p, done = r.open(p, true); done {
				return
			}
		}
		r.mu.Lock() // something is left: queued meanwhile
	}
}

// tally counts what is in progress (turns, Opens) for the stop to wait
// for; r.mu is held for each of its methods.
type tally struct {
	n   int
	end chan struct{} // closed when n reaches 0, once ended made it
}

func (t *tally) add(n int) { t.n += n }

func (t *tally) done() {
	if t.n--; t.n == 0 && t.end != nil {
		close(t.end)
		t.end = nil
	}
}

// ended returns a channel closed once nothing is in progress, or nil when
// nothing is now.
func (t *tally) ended() chan struct{} {
	if t.n == 0 {
		return nil
	}
	t.end = make(chan struct{})
	return t.end
}

// drain feeds the inbox to the engine, one item at a time, until it is
// empty, publishing after each item; r.mu is held on entry and on return,
// released while the engine runs. It sets r.running false.
func (r *Runner) drain() {
	sc := scratchPool.Get().(*scratch)
	r.sc = sc
	for len(r.inbox) > 0 {
		sc.state = r.state
		r.batch, r.inbox = r.inbox, r.batch[:0]
		if len(r.spare) == 0 && len(r.free) > 0 {
			r.spare, r.free = r.free, r.spare
		}
		r.mu.Unlock()
		last := len(r.batch) - 1
		for i, it := range r.batch {
			if it.kind != itemStop && r.ctx.Err() != nil {
				continue // stopping: no engine step once the context is done
			}
			switch it.kind {
			case itemEvent:
				now := time.Now()
				r.step(now, it.ev)
				r.rearm(now)
			case itemTimers:
				r.fireDue()
			case itemStop:
				r.stop()
			}
			if it.kind == itemStop {
				break
			}
			if i < last {
				r.mu.Lock()
				r.publish()
				r.mu.Unlock()
			}
		}
		clear(r.batch) // drop references to failures' strings
		r.mu.Lock()
		r.publish()
	}
	r.sc = nil        // before the next drain may start
	clear(sc.actions) // what the last step returned: no failure's text kept alive in the pool
	scratchPool.Put(sc)
	r.running = false
}

// publish makes what the last item decided visible to the other
// goroutines, under one lock: the state, the active transport and the
// preference for the Runner's getters, the state changes and transport
// calls for the effects, and the transports to open, each on a goroutine
// of its own; r.mu is held.
func (r *Runner) publish() {
	sc := r.sc
	r.state, r.pref = sc.state, r.eng.Preference()
	for _, c := range sc.changes {
		r.queueChange(c)
	}
	for _, o := range sc.ops {
		if o.kind == opClose && o.active {
			r.closingActive++
			if o.rep == r.activeRep { // not handed out once it is to be closed
				r.active, r.activeRep = nil, nil
			}
		}
	}
	r.ops = append(r.ops, sc.ops...)
	if sc.activeSet {
		// Active never returns a transport while one that was active
		// before is still open: with such a Close still to be made, the
		// new one is handed out by the effects once it has been.
		r.activeGen++
		if sc.active != nil && r.closingActive > 0 {
			r.ops = append(r.ops, op{kind: opActivate, rep: sc.activeRep, t: sc.active, gen: r.activeGen})
		} else {
			r.active, r.activeRep = sc.active, sc.activeRep
		}
		sc.active, sc.activeRep, sc.activeSet = nil, nil, false
	}
	r.opens = append(r.opens, sc.opens...)
	r.opening.add(len(sc.opens))
	if !r.inline {
		for range sc.opens {
			go r.openFn()
		}
	}
	clear(sc.changes)
	clear(sc.ops)
	clear(sc.opens)
	sc.changes, sc.ops, sc.opens = sc.changes[:0], sc.ops[:0], sc.opens[:0]
}

// step feeds one event to the engine at now and performs the actions it
// returns.
func (r *Runner) step(now time.Time, ev engine.Event) {
	sc := r.sc
	sc.actions = r.eng.Step(now, ev, sc.actions[:0])
	for i := range sc.actions {
		r.perform(now, &sc.actions[i])
	}
}

func (r *Runner) perform(now time.Time, a *engine.Action) {
	switch a.Kind {
	case engine.ActionOpenTransport:
		req := OpenRequest{ID: a.Transport, Kind: a.TransportKind, Host: a.Host, Mode: a.Mode}
		rep := r.slot()
		rep.reset(a.Transport, req)
		r.transports = append(r.transports, liveTransport{id: a.Transport, rep: rep})
		r.sc.opens = append(r.sc.opens, rep)
	case engine.ActionDisposeTransport:
		r.dispose(a.Transport)
	case engine.ActionActivateTransport:
		if lt := r.transport(a.Transport); lt != nil {
			r.activeID = a.Transport
			lt.rep.wasActive = true
			// Its reports waited for Open: t is set, and was before the
			// report that led here was queued.
			r.sc.active, r.sc.activeRep, r.sc.activeSet = lt.rep.t, lt.rep, true
			if r.sc.state == engine.Closing {
				// Closed while connecting, this transport connected
				// (RTN12f): it sends CLOSE (RTN12a).
				r.sc.ops = append(r.sc.ops, op{kind: opRequestClose, rep: lt.rep, t: lt.rep.t})
			}
		}
	case engine.ActionStartTimer:
		r.timers = append(r.timers, liveTimer{id: a.Timer, due: a.Due})
	case engine.ActionCancelTimer:
		if i := r.timerIndex(a.Timer); i >= 0 {
			r.removeTimer(i)
		}
	case engine.ActionCheckConnectivity:
		r.check(r.checkNet, r.timeouts.HTTPRequest, engine.EventConnectivity, a.Check)
	case engine.ActionCheckWebSocket:
		r.check(r.checkWS, r.timeouts.RealtimeRequest, engine.EventWebSocketCheck, a.Check)
	case engine.ActionStateChange:
		r.changeState(now, a)
	}
}

// changeState records a state change, asks the active transport to send
// the CLOSE message on entering CLOSING and queues the change for
// OnStateChange.
func (r *Runner) changeState(now time.Time, a *engine.Action) {
	c := StateChange{At: now, From: a.From, To: a.To, Reason: a.Reason, RetryIn: a.RetryIn, Failure: a.Failure}
	if a.To == engine.Connected {
		if lt := r.transport(r.activeID); lt != nil {
			c.Transport, c.Host = lt.rep.req.Kind, lt.rep.req.Host
		}
	}
	r.sc.state = a.To
	if a.To != engine.Connected && a.To != engine.Closing {
		r.sc.active, r.sc.activeRep, r.sc.activeSet = nil, nil, true
	}
	r.sc.changes = append(r.sc.changes, c)
	if a.To == engine.Closing {
		if lt := r.transport(r.activeID); lt != nil {
			// Active: it reported, so Open has returned.
			r.sc.ops = append(r.sc.ops, op{kind: opRequestClose, rep: lt.rep, t: lt.rep.t})
		}
	}
}

// stop closes every transport and stops every timer: the context is done.
// The state goes CLOSED unless it is CLOSED or FAILED already, with one
// last change (see New).
func (r *Runner) stop() {
	for len(r.transports) > 0 {
		r.dispose(r.transports[0].id)
	}
	r.timers = r.timers[:0]
	r.stopClock()
	r.mu.Lock()
	r.inbox = r.inbox[:0]
	r.mu.Unlock()
	sc := r.sc
	sc.active, sc.activeRep, sc.activeSet = nil, nil, true
	from := sc.state
	if from == engine.Closed || from == engine.Failed {
		return
	}
	sc.state = engine.Closed
	if r.onChange != nil {
		sc.changes = append(sc.changes, StateChange{At: time.Now(), From: from, To: engine.Closed, Reason: engine.ReasonClosed, Stopped: true})
	}
}

// dispose gives transport id up: it is closed (see effects) and forgotten.
func (r *Runner) dispose(id engine.TransportID) {
	for i := range r.transports {
		if lt := r.transports[i]; lt.id == id {
			if t := lt.rep.dispose(); t != nil {
				r.sc.ops = append(r.sc.ops, op{kind: opClose, rep: lt.rep, t: t, active: lt.rep.wasActive})
			} // else Open has not returned: its goroutine closes what it returns
			if id == r.activeID {
				r.activeID = 0
				r.sc.active, r.sc.activeRep, r.sc.activeSet = nil, nil, true
			}
			last := len(r.transports) - 1
			r.transports[i] = r.transports[last]
			r.transports[last] = liveTransport{}
			r.transports = r.transports[:last]
			return
		}
	}
}

// slot returns a reporter for a new transport: one the effects released,
// or a new one.
func (r *Runner) slot() *reporter {
	if n := len(r.spare); n > 0 {
		p := r.spare[n-1]
		r.spare[n-1] = nil
		r.spare = r.spare[:n-1]
		return p
	}
	return &reporter{r: r}
}

func (r *Runner) transport(id engine.TransportID) *liveTransport {
	for i := range r.transports {
		if r.transports[i].id == id {
			return &r.transports[i]
		}
	}
	return nil
}
