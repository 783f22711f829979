package runner

import (
	"sync"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// core is the runner's synchronous half, as raft's RawNode is to its Node:
// it steps the engine, performs the actions that stay on the engine's
// side (timers, transport slots, which transport is active) and queues in
// out what only the shell may do: the transports to open, the checks to
// start, the calls to the transports, the state changes to deliver and
// what Active returns. It starts no goroutine, takes no lock and calls no
// code of the SDK's; the shell (Runner) publishes out after each item it
// feeds (see Runner.drain).
//
// Ownership: every field is owned by the goroutine running the engine, the
// one that set shell.running; no other goroutine reads or writes one.
type core struct {
	r          *Runner // the shell: the owner of new slots, the clock's callback
	eng        *engine.Engine
	state      engine.State // after the last step, or the stop's CLOSED
	out        *scratch     // lent by the shell for the turn
	batch      []item       // the items being fed, swapped with shell.inbox
	transports []liveTransport
	spare      []*reporter // released slots, taken from shell.free
	timers     []liveTimer
	clock      *time.Timer // set for the earliest of timers
	armed      time.Time   // when clock fires; zero when stopped or fired
	activeID   engine.TransportID
	live       sampler       // the active transport's activity, for the idle timer (liveness.go)
	st         stepInfo      // the step being performed (notice.go)
	gone       []*reporter   // the transports the step disposed of, for its state changes
	reason     engine.Reason // of the last state change
	waits      []*waiter     // WaitConnected calls waiting (wait.go)
}

type liveTransport struct {
	id  engine.TransportID
	rep *reporter
}

type liveTimer struct {
	id   engine.TimerID
	kind engine.TimerKind
	tr   engine.TransportID // a TimerConnect's transport
	due  time.Time
}

// scratch is what the core decided that the shell must publish, gathered
// over one item and published under one lock after it, and the engine's
// actions. The buffers are lent by a pool for the turn, so an idle runner
// holds none.
type scratch struct {
	actions []engine.Action
	changes []StateChange
	ops     []op
	opens   []*reporter
	checks  []check
	wakes   []*waiter // WaitConnected answers, sent after the calls queued before them
	// active is what Active returns from now, when activeSet.
	active    Transport
	activeRep *reporter
	activeSet bool
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// setActive records what Active returns from now: t through p, or nil.
func (sc *scratch) setActive(t Transport, p *reporter) {
	sc.active, sc.activeRep, sc.activeSet = t, p, true
}

// check is a check the engine asked for: kind is the event its answer
// becomes (engine.EventConnectivity, engine.EventWebSocketCheck, or
// engine.EventTokenRenewal for a token renewal).
type check struct {
	kind engine.EventKind
	id   engine.CheckID
}

// item is one entry of the shell's inbox.
type item struct {
	kind itemKind
	ev   engine.Event
	w    *waiter // itemWait
}

type itemKind uint8

const (
	itemEvent  itemKind = iota // feed ev to the engine
	itemTimers                 // the clock fired: feed the timers that are due
	itemStop                   // the context is done
	itemWait                   // WaitConnected: register w
)

// step feeds one event to the engine at now and performs the actions it
// returns.
func (c *core) step(now time.Time, ev engine.Event) {
	c.stepTimer(now, ev, 0, ev.Transport)
}

// stepTimer is step for an event with what the runner knows of it: the
// kind of the timer that fired and the transport the event concerns (see
// stepInfo).
func (c *core) stepTimer(now time.Time, ev engine.Event, timer engine.TimerKind, subject engine.TransportID) {
	c.st = stepInfo{kind: ev.Kind, timer: timer, subject: subject, from: c.state, active: c.activeID}
	c.gone = c.gone[:0]
	sc := c.out
	sc.actions = c.eng.Step(now, ev, sc.actions[:0])
	for i := range sc.actions {
		c.perform(now, &sc.actions[i])
	}
	// c.gone keeps its pointers until the next step overwrites them: the
	// runner's own slots, alive anyway (clearing them costs every step).
}

func (c *core) perform(now time.Time, a *engine.Action) {
	switch a.Kind {
	case engine.ActionOpenTransport:
		req := OpenRequest{ID: a.Transport, Kind: a.TransportKind, Host: a.Host, Mode: a.Mode}
		rep := c.slot()
		rep.reset(a.Transport, req)
		c.transports = append(c.transports, liveTransport{id: a.Transport, rep: rep})
		c.out.opens = append(c.out.opens, rep)
	case engine.ActionDisposeTransport:
		c.dispose(a.Transport, c.causeFor(a.Transport))
	case engine.ActionActivateTransport:
		// The engine disposes of the transport active before, if any,
		// first (an upgrade): its Deactivated came with that.
		if lt := c.transport(a.Transport); lt != nil {
			c.activeID = a.Transport
			lt.rep.wasActive = true
			// Its reports waited for Open: t is set, and was before the
			// report that led here was queued.
			if lt.rep.notify&notifyActive != 0 {
				c.out.ops = append(c.out.ops, op{kind: opActivated, rep: lt.rep, t: lt.rep.t})
			}
			c.out.setActive(lt.rep.t, lt.rep)
			if c.state == engine.Closing {
				// Closed while connecting, this transport connected
				// (RTN12f): it sends CLOSE (RTN12a).
				c.out.ops = append(c.out.ops, op{kind: opRequestClose, rep: lt.rep, t: lt.rep.t})
			}
		}
	case engine.ActionStartTimer:
		c.timers = append(c.timers, liveTimer{id: a.Timer, kind: a.TimerKind, tr: a.Transport, due: a.Due})
		if a.TimerKind == engine.TimerIdle {
			c.idleStarted(now, a.Due)
		}
	case engine.ActionCancelTimer:
		if i := c.timerIndex(a.Timer); i >= 0 {
			idle := c.timers[i].kind == engine.TimerIdle
			c.removeTimer(i)
			if idle {
				c.idleStopped()
			}
		}
	case engine.ActionCheckConnectivity:
		c.out.checks = append(c.out.checks, check{kind: engine.EventConnectivity, id: a.Check})
	case engine.ActionCheckWebSocket:
		c.out.checks = append(c.out.checks, check{kind: engine.EventWebSocketCheck, id: a.Check})
	case engine.ActionRenewToken:
		c.out.checks = append(c.out.checks, check{kind: engine.EventTokenRenewal, id: a.Check})
	case engine.ActionStateChange:
		c.changeState(now, a)
	case engine.ActionUpdate:
		c.update(now, a)
	}
}

// changeState records a state change, asks the active transport to send
// the CLOSE message on entering CLOSING and queues the change for
// OnStateChange.
func (c *core) changeState(now time.Time, a *engine.Action) {
	sc := c.out
	// Written in place: a StateChange is some 140 bytes, copied once
	// more on its way to OnStateChange (the shell's queue, then the
	// delivery's copy), never more.
	sc.changes = append(sc.changes, StateChange{At: now, From: a.From, To: a.To, Reason: a.Reason, RetryIn: a.RetryIn, Failure: a.Failure})
	ch := &sc.changes[len(sc.changes)-1]
	c.name(ch, c.subject(a.From))
	c.state, c.reason = a.To, a.Reason
	if len(c.waits) > 0 {
		c.settle(ch)
	}
	if a.To != engine.Connected && a.To != engine.Closing {
		sc.setActive(nil, nil)
	}
	if a.To == engine.Closing {
		if lt := c.transport(c.activeID); lt != nil {
			// Active: it reported, so Open has returned.
			sc.ops = append(sc.ops, op{kind: opRequestClose, rep: lt.rep, t: lt.rep.t})
		}
	}
}

// stop closes every transport and stops every timer: the context is done.
// The state goes CLOSED unless it is CLOSED or FAILED already, with one
// last change (see New).
func (c *core) stop() {
	c.st = stepInfo{from: c.state, active: c.activeID}
	c.gone = c.gone[:0]
	for len(c.transports) > 0 {
		c.dispose(c.transports[0].id, CauseStopped)
	}
	c.timers = c.timers[:0]
	c.stopClock()
	c.out.setActive(nil, nil)
	from := c.state
	if from == engine.Closed || from == engine.Failed {
		clear(c.gone) // no WaitConnected waits: only CONNECTING holds them
		return
	}
	c.state, c.reason = engine.Closed, engine.ReasonClosed
	ch := StateChange{At: time.Now(), From: from, To: engine.Closed, Reason: engine.ReasonClosed, Stopped: true}
	c.name(&ch, c.st.active)
	c.out.changes = append(c.out.changes, ch)
	if len(c.waits) > 0 {
		c.settle(&ch)
	}
	clear(c.gone)
}

// dispose gives transport id up, for why: it is closed (see effects),
// told why, and forgotten; the active transport is deactivated first.
func (c *core) dispose(id engine.TransportID, why Cause) {
	for i := range c.transports {
		if lt := c.transports[i]; lt.id == id {
			p := lt.rep
			p.cause = why // before dispose: Open's goroutine reads it once it sees the transport disposed
			if t := p.dispose(); t != nil {
				deact := id == c.activeID && p.notify&notifyActive != 0
				c.out.ops = append(c.out.ops, op{kind: opClose, cause: why, active: p.wasActive, deactivate: deact, rep: p, t: t})
			} // else Open has not returned: its goroutine closes what it returns
			c.gone = append(c.gone, p)
			if id == c.activeID {
				c.activeID = 0
				c.out.setActive(nil, nil)
			}
			last := len(c.transports) - 1
			c.transports[i] = c.transports[last]
			c.transports[last] = liveTransport{}
			c.transports = c.transports[:last]
			return
		}
	}
}

// slot returns a reporter for a new transport: one the effects released,
// or a new one.
func (c *core) slot() *reporter {
	if n := len(c.spare); n > 0 {
		p := c.spare[n-1]
		c.spare[n-1] = nil
		c.spare = c.spare[:n-1]
		return p
	}
	return &reporter{r: c.r}
}

func (c *core) transport(id engine.TransportID) *liveTransport {
	for i := range c.transports {
		if c.transports[i].id == id {
			return &c.transports[i]
		}
	}
	return nil
}

// subject is the transport a state change from state from names: the
// one the step's event names, for the step's first change; else, for a
// change from CONNECTED or CLOSING, the transport active before the step
// (a drop's, NetworkDown's, Close's, a fatal error's); else none.
func (c *core) subject(from engine.State) engine.TransportID {
	if id := c.st.subject; id != 0 {
		c.st.subject = 0
		return id
	}
	if from == engine.Connected || from == engine.Closing {
		return c.st.active
	}
	return 0
}

// name fills in the transport ch names: transport id's ID, kind and host,
// and the Transport Open returned for it once Open has returned; nothing
// for 0 or a transport the runner no longer knows.
func (c *core) name(ch *StateChange, id engine.TransportID) {
	if id == 0 {
		return
	}
	p := c.known(id)
	if p == nil {
		return
	}
	ch.TransportID, ch.TransportKind, ch.Host = id, p.req.Kind, p.req.Host
	if p.state.Load()&flagOpened != 0 {
		ch.Transport = p.t
	}
}

// known returns the slot of transport id: a live one, or one the step
// disposed of; nil for none.
func (c *core) known(id engine.TransportID) *reporter {
	if lt := c.transport(id); lt != nil {
		return lt.rep
	}
	for _, p := range c.gone {
		if p.id == id {
			return p
		}
	}
	return nil
}
