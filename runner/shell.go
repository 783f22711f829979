package runner

import (
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// shell is what the Runner's goroutines share: the events waiting for the
// engine, who is running it, what the getters return, and the calls into
// the SDK's code waiting for a goroutine to make them.
//
// Ownership: guarded by Runner.mu; every field is read and written only
// with it held.
type shell struct {
	inbox    []item
	running  bool  // a goroutine is running the engine: it owns Runner.core
	busy     bool  // Options.Inline: a goroutine is running the engine or the SDK's code (see lead)
	stopping bool  // the context is done: no new events
	turns    tally // turns begun and not ended (the engine's, then their effects)
	workers  int   // goroutines in effects that will look at the queues again
	state    engine.State
	pref     reconnect.Preference
	lastErr  reconnect.Failure // what LastError returns
	active   activeView        // what Active returns
	ops      opQueue           // transport calls waiting for an effects goroutine
	changes  changeQueue       // state changes waiting for OnStateChange
	opens    []*reporter       // transports waiting for their Open
	opening  tally             // Dialer.Open calls queued or running
	free     []*reporter       // slots released by the effects, for the core's spare
}

// activeView is what Active returns, and what holds a new one back.
type activeView struct {
	t   Transport
	rep *reporter // t's
	// gen counts the changes of what Active returns; closing the Close
	// calls still to be made on transports that were active.
	gen     uint64
	closing int
}

// caller says whose goroutine brings an event to the engine.
type caller uint8

const (
	// sdkCaller: a call of the SDK's (a method of the Runner or of a
	// Reporter), which the runner never makes wait for the SDK's code
	// (unless Options.Inline).
	sdkCaller caller = iota
	// ownCaller: one of the runner's own goroutines (the clock's, a
	// check's, an Open's, the stop's), which makes the calls the engine
	// decided itself.
	ownCaller
)

// post feeds ev to the engine from one of the SDK's goroutines (see turn).
func (r *Runner) post(ev engine.Event) {
	r.mu.Lock()
	r.feed(sdkCaller, ev)
}

// feed queues evs for the engine, unless the runner is stopping, and runs
// it (see turn). r.mu is held, and is released on return.
func (r *Runner) feed(by caller, evs ...engine.Event) {
	if r.sh.stopping || r.set.ctx.Err() != nil {
		r.mu.Unlock()
		return
	}
	for _, ev := range evs {
		r.sh.inbox = append(r.sh.inbox, item{kind: itemEvent, ev: ev})
	}
	r.turn(by)
}

// turn runs the engine for what was just queued; r.mu is held, and is
// released on return. If another goroutine is running the engine (or,
// with Options.Inline, the SDK's code), it will see the queued item and
// turn returns at once. Otherwise the caller runs the engine until the
// inbox is empty: the engine and the runner's bookkeeping only, no code of
// the SDK's, which the drain leaves in r.sh.ops and r.sh.changes for the
// effects (see effects.go). One of the runner's own goroutines then makes
// those calls itself; one of the SDK's starts an effects goroutine if none
// will get to them, so a call from the SDK never calls back into the SDK.
// With Options.Inline the caller leads instead (see lead).
func (r *Runner) turn(by caller) {
	switch {
	case r.sh.running || r.sh.busy: // busy: Options.Inline only
		r.mu.Unlock()
	case r.set.inline:
		r.lead()
	case by == ownCaller:
		r.engineThenEffects()
		r.mu.Unlock()
	default:
		r.startTurn()
		if r.sh.workers == 0 && r.effectsWaiting() {
			r.sh.workers++
			r.wg.Add(1)
			go r.set.effectsFn()
		}
		r.sh.turns.done()
		r.mu.Unlock()
	}
}

// inlineStop is turn for the stop with Options.Inline: it runs the engine
// whenever the engine is not running, even while another goroutine is in
// the SDK's code (an Open that blocks must not hold the stop): it leads
// when nobody does, and otherwise runs the engine and the effects and
// leaves the rest (the Opens, what arrived meanwhile) to the lead. r.mu is
// held, and is released on return.
func (r *Runner) inlineStop() {
	switch {
	case r.sh.running:
		r.mu.Unlock()
	case !r.sh.busy:
		r.lead()
	default:
		r.engineThenEffects()
		r.mu.Unlock()
	}
}

// lead runs an inline turn: the caller runs the engine, then the SDK's
// code it decided (the effects, then the Opens), and again for whatever
// arrived meanwhile, until nothing is left. While it does (r.sh.busy),
// every other caller only queues its event, so that what the SDK's code
// causes by calling the runner runs after that code returns, never inside
// it, and no two goroutines take turns at the SDK's code of one runner.
// r.mu is held, and is released on return.
func (r *Runner) lead() {
	r.sh.busy = true
	for {
		r.engineThenEffects()
		p, done := r.leadNext()
		for p != nil {
			r.open(p)
			p, done = r.leadNext()
		}
		if done {
			return
		}
		r.mu.Lock() // something is left: queued meanwhile
	}
}

// leadNext takes the transport whose Open the lead calls next, if any;
// when nothing is left for the lead at all (no Open, no event, no effect)
// it ends r.sh.busy and reports done. r.mu is held, and is released on
// return.
func (r *Runner) leadNext() (next *reporter, done bool) {
	next = r.nextOpen()
	if next == nil && len(r.sh.inbox) == 0 && !r.effectsWaiting() {
		r.sh.busy, done = false, true
	}
	r.mu.Unlock()
	return next, done
}

// engineThenEffects runs the engine (startTurn), then the effects it
// decided on this goroutine, and ends the turn. r.mu is held on entry and
// on return.
func (r *Runner) engineThenEffects() {
	r.startTurn()
	r.sh.workers++
	r.effects()
	r.sh.turns.done()
}

// startTurn takes the engine and drains the inbox; r.mu is held on entry
// and on return, and the caller ends the turn (r.sh.turns.done).
func (r *Runner) startTurn() {
	r.sh.running = true
	r.sh.turns.add(1)
	r.drain()
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

// drain feeds the inbox to the core, one item at a time, until it is
// empty, publishing after each item; r.mu is held on entry and on return,
// released while the engine runs. It sets r.sh.running false. The stop is
// the last item ever queued (r.sh.stopping is set with it), and every item
// before it in its batch is skipped: the context is done.
func (r *Runner) drain() {
	c := &r.core
	sc := scratchPool.Get().(*scratch)
	c.out = sc
	for len(r.sh.inbox) > 0 {
		c.batch, r.sh.inbox = r.sh.inbox, c.batch[:0]
		if len(c.spare) == 0 && len(r.sh.free) > 0 {
			c.spare, r.sh.free = r.sh.free, c.spare
		}
		r.mu.Unlock()
		last := len(c.batch) - 1
		for i, it := range c.batch {
			if it.kind != itemStop && r.set.ctx.Err() != nil {
				if it.kind == itemWait {
					it.w.done <- &ConnectError{State: c.state, Stopped: true}
				}
				continue // stopping: no engine step once the context is done
			}
			switch it.kind {
			case itemEvent:
				now := time.Now()
				c.step(now, it.ev)
				c.rearm(now)
			case itemTimers:
				c.fireDue()
			case itemStop:
				c.stop()
			case itemWait:
				c.wait(it.w)
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
		for i := range c.batch { // drop the references to failures (their text, the SDK's errors) and waiters
			c.batch[i].ev.Failure, c.batch[i].w = reconnect.Failure{}, nil
		}
		r.mu.Lock()
		r.publish()
	}
	c.out = nil                 // before the next drain may start
	for i := range sc.actions { // what the last step returned: no failure kept alive in the pool
		sc.actions[i].Failure = reconnect.Failure{}
	}
	scratchPool.Put(sc)
	r.sh.running = false
}

// publish makes what the last item decided visible to the other
// goroutines, under one lock: the state, the active transport and the
// preference for the Runner's getters, the state changes and transport
// calls for the effects, the transports to open and the checks to start,
// each on a goroutine of its own; r.mu is held.
func (r *Runner) publish() {
	sh, sc := &r.sh, r.core.out
	sh.state, sh.pref = r.core.state, r.core.eng.Preference()
	if len(sc.changes) > 0 { // the engine's LastError changes only with a change or an update
		sh.lastErr = r.core.eng.LastError()
	}
	if r.set.onChange != nil {
		for i := range sc.changes {
			sh.changes.push(&sc.changes[i])
		}
	}
	for _, o := range sc.ops {
		if o.kind == opClose && o.active {
			sh.active.closing++
			if o.rep == sh.active.rep { // not handed out once it is to be closed
				sh.active.t, sh.active.rep = nil, nil
			}
		}
	}
	if len(sc.ops) > 0 { // most turns queue none: no copy, no clear
		sh.ops.queue = append(sh.ops.queue, sc.ops...)
		clear(sc.ops)
		sc.ops = sc.ops[:0]
	}
	if sc.activeSet {
		// Active never returns a transport while one that was active
		// before is still open, nor a Notified one before its Activated
		// has returned: with such a call still to be made (queued above),
		// the new one is handed out by the effects once it has been.
		sh.active.gen++
		if sc.active != nil && (sh.active.closing > 0 || sc.activeRep.notify&notifyActive != 0) {
			sh.ops.queue = append(sh.ops.queue, op{kind: opActivate, rep: sc.activeRep, t: sc.active, gen: sh.active.gen})
		} else {
			sh.active.t, sh.active.rep = sc.active, sc.activeRep
		}
		sc.active, sc.activeRep, sc.activeSet = nil, nil, false
	}
	for i, w := range sc.wakes {
		r.wake(w)
		sc.wakes[i] = nil
	}
	sc.wakes = sc.wakes[:0]
	if len(sc.opens) > 0 {
		sh.opens = append(sh.opens, sc.opens...)
		sh.opening.add(len(sc.opens))
		if !r.set.inline {
			for range sc.opens {
				go r.set.openFn()
			}
		}
		clear(sc.opens)
		sc.opens = sc.opens[:0]
	}
	for _, ck := range sc.checks {
		r.startCheck(ck)
	}
	sc.checks = sc.checks[:0]
	// Only the fields that hold the SDK's values are cleared: a field's
	// store costs less than clearing the whole change, or the whole action
	// and item above, which the runtime does with a barrier-checked bulk
	// clear (3.4 % of BenchmarkRunnerEventInline's cycle when it did).
	for i := range sc.changes {
		ch := &sc.changes[i]
		ch.Failure, ch.Transport, ch.Host = reconnect.Failure{}, nil, ""
	}
	sc.changes = sc.changes[:0]
}
