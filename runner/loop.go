package runner

import (
	"context"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// actionBuffers lend the loops their action slices while they run, so an
// idle runner holds none.
var actionBuffers = sync.Pool{New: func() any { return new([]engine.Action) }}

// loop drains the inbox, one event at a time, and ends when it is empty.
func (r *Runner) loop() {
	defer r.wg.Done()
	buf := actionBuffers.Get().(*[]engine.Action)
	r.actions = *buf
	for {
		r.mu.Lock()
		if len(r.inbox) == 0 {
			*buf, r.actions = r.actions[:0], nil // before the next loop may start
			actionBuffers.Put(buf)
			r.running = false
			r.mu.Unlock()
			return
		}
		r.batch, r.inbox = r.inbox, r.batch[:0]
		r.mu.Unlock()
		for _, it := range r.batch {
			if it.kind != itemStop && r.ctx.Err() != nil {
				continue // stopping: no engine step once the context is done
			}
			switch it.kind {
			case itemEvent:
				r.step(it.ev)
			case itemTimers:
				r.fireDue()
			case itemStop:
				r.stop()
			}
			if it.kind == itemStop {
				break
			}
		}
		clear(r.batch) // drop references to failures' strings
	}
}

// step feeds one event to the engine at the current time and performs the
// actions it returns.
func (r *Runner) step(ev engine.Event) {
	now := time.Now()
	r.actions = r.eng.Step(now, ev, r.actions[:0])
	if p := r.eng.Preference(); p != r.pref {
		r.mu.Lock()
		r.pref = p
		r.mu.Unlock()
	}
	for _, a := range r.actions {
		r.perform(now, a)
	}
	clear(r.actions) // no Host strings kept alive
	r.rearm()
}

func (r *Runner) perform(now time.Time, a engine.Action) {
	switch a.Kind {
	case engine.ActionOpenTransport:
		req := OpenRequest{ID: a.Transport, Kind: a.TransportKind, Host: a.Host, Mode: a.Mode}
		rep := &reporter{r: r, id: a.Transport, req: req}
		rep.ctx = openContext{rep}
		r.transports = append(r.transports, liveTransport{id: a.Transport, rep: rep})
		r.mu.Lock()
		r.opening++
		r.mu.Unlock()
		go r.open(rep)
	case engine.ActionDisposeTransport:
		r.dispose(a.Transport)
	case engine.ActionActivateTransport:
		if lt := r.transport(a.Transport); lt != nil {
			r.activeID = a.Transport
			t := lt.rep.transport() // never nil: its reports wait for Open
			r.mu.Lock()
			r.active = t
			r.mu.Unlock()
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

// changeState records a state change, sends the CLOSE message on entering
// CLOSING and queues the change for OnStateChange.
func (r *Runner) changeState(now time.Time, a engine.Action) {
	c := StateChange{At: now, From: a.From, To: a.To, Reason: a.Reason, RetryIn: a.RetryIn, Failure: a.Failure}
	if a.To == engine.Connected {
		if lt := r.transport(r.activeID); lt != nil {
			c.Transport, c.Host = lt.rep.req.Kind, lt.rep.req.Host
		}
	}
	r.mu.Lock()
	r.state = a.To
	if a.To != engine.Connected && a.To != engine.Closing {
		r.active = nil
	}
	r.mu.Unlock()
	if a.To == engine.Closing {
		if lt := r.transport(r.activeID); lt != nil {
			if t := lt.rep.transport(); t != nil {
				r.requestClose(lt.rep, t)
			}
		}
	}
	r.deliver(c)
}

// check runs check id, a connectivity or websocket check, on its own
// goroutine and feeds its answer as an event of kind k carrying id. The
// answer is posted whenever it comes: the engine ignores one whose check is
// no longer in flight.
func (r *Runner) check(fn func(context.Context) bool, timeout time.Duration, k engine.EventKind, id engine.CheckID) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		ctx, cancel := context.WithTimeout(context.WithValue(r.ctx, checkIDKey{}, id), timeout)
		up := r.runCheck(fn, ctx, k)
		cancel()
		r.post(engine.Event{Kind: k, Check: id, Up: up})
	}()
}

// runCheck calls the check fn; a check that panics answered down.
func (r *Runner) runCheck(fn func(context.Context) bool, ctx context.Context, k engine.EventKind) (up bool) {
	defer func() {
		if v := recover(); v != nil {
			where := "CheckConnectivity"
			if k == engine.EventWebSocketCheck {
				where = "CheckWebSocket"
			}
			r.recovered(where, 0, v)
			up = false
		}
	}()
	return fn(ctx)
}

// open calls Dialer.Open for p on a goroutine of its own, so that an Open
// that blocks (for example on a DNS lookup or a dial, ignoring its
// context) holds up no timer, no Close and no Done. When it returns, the
// reports it held back go to the loop, or, if the runner no longer wants
// the transport (the engine disposed of it, or the runner stopped,
// meanwhile), the transport is closed at once.
func (r *Runner) open(p *reporter) {
	t := r.callOpen(p)
	if !p.openDone(t) {
		r.closeTransport(p, t)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.opening--; r.opening == 0 && r.opensEnd != nil {
		close(r.opensEnd)
		r.opensEnd = nil
	}
}

// callOpen calls Dialer.Open; an Open that panics failed with
// FailureOther and returns a Transport with nothing to close.
func (r *Runner) callOpen(p *reporter) (t Transport) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Dialer.Open", p.id, v)
			p.Failed(reconnect.Failure{Kind: reconnect.FailureOther})
			t = noTransport{}
		}
	}()
	t = r.dialer.Open(p.ctx, p.req, p)
	if t == nil {
		t = noTransport{} // a Dialer that broke its contract
	}
	return t
}

// requestClose calls t.RequestClose; one that panics closed the transport
// with FailureOther.
func (r *Runner) requestClose(p *reporter, t Transport) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Transport.RequestClose", p.id, v)
			p.Closed(reconnect.Failure{Kind: reconnect.FailureOther})
		}
	}()
	t.RequestClose()
}

// closeTransport calls t.Close, then ends the context Open had: the
// transport is closed before that context is done. A Close that panics
// counts as closed.
func (r *Runner) closeTransport(p *reporter, t Transport) {
	defer p.cancel()
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Transport.Close", p.id, v)
		}
	}()
	t.Close()
}

// noTransport stands for a nil Transport from Dialer.Open.
type noTransport struct{}

func (noTransport) RequestClose() {}
func (noTransport) Close()        {}

// stop closes every transport and stops every timer: the context is done.
// The state goes CLOSED unless it is CLOSED or FAILED already, with one
// last change (see New).
func (r *Runner) stop() {
	for len(r.transports) > 0 {
		r.dispose(r.transports[0].id)
	}
	r.timers = r.timers[:0]
	r.rearm()
	r.mu.Lock()
	r.active = nil
	r.inbox = r.inbox[:0]
	from := r.state
	final := from == engine.Closed || from == engine.Failed
	r.state = engine.Closed
	if final {
		r.state = from
	}
	r.mu.Unlock()
	if !final {
		r.deliver(StateChange{At: time.Now(), From: from, To: engine.Closed, Reason: engine.ReasonClosed, Stopped: true})
	}
}

// dispose closes transport id and forgets it.
func (r *Runner) dispose(id engine.TransportID) {
	for i := range r.transports {
		if lt := r.transports[i]; lt.id == id {
			if t := lt.rep.dispose(); t != nil {
				r.closeTransport(lt.rep, t)
			} else {
				lt.rep.cancel() // Open has not returned: its goroutine closes what it returns
			}
			if id == r.activeID {
				r.activeID = 0
				r.mu.Lock()
				r.active = nil
				r.mu.Unlock()
			}
			last := len(r.transports) - 1
			r.transports[i] = r.transports[last]
			r.transports[last] = liveTransport{}
			r.transports = r.transports[:last]
			return
		}
	}
}

func (r *Runner) transport(id engine.TransportID) *liveTransport {
	for i := range r.transports {
		if r.transports[i].id == id {
			return &r.transports[i]
		}
	}
	return nil
}
