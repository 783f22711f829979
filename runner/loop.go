package runner

import (
	"context"
	"time"

	"github.com/reconnect-go/reconnect"
)

// loop drains the inbox, one event at a time, and ends when it is empty.
func (r *Runner) loop() {
	defer r.wg.Done()
	for {
		r.mu.Lock()
		if len(r.inbox) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		r.batch, r.inbox = r.inbox, r.batch[:0]
		r.mu.Unlock()
		for i, it := range r.batch {
			if it.stop {
				r.stop()
				clear(r.batch[i+1:])
				break
			}
			r.step(it.ev)
		}
		clear(r.batch) // drop references to failures' strings
	}
}

// step feeds one event to the engine at the current time and performs the
// actions it returns.
func (r *Runner) step(ev reconnect.Event) {
	now := time.Now()
	if ev.Kind == reconnect.EventTimerFired {
		if i := r.timerIndex(ev.Timer); i >= 0 {
			r.removeTimer(i) // a fired timer is finished
		}
	}
	r.actions = r.eng.Step(now, ev, r.actions[:0])
	for _, a := range r.actions {
		r.perform(now, a)
	}
	clear(r.actions) // no Host strings kept alive
}

func (r *Runner) perform(now time.Time, a reconnect.Action) {
	switch a.Kind {
	case reconnect.ActionOpenTransport:
		req := OpenRequest{ID: a.Transport, Kind: a.TransportKind, Host: a.Host, Mode: a.Mode}
		rep := &reporter{r: r, id: a.Transport}
		t := r.dialer.Open(r.ctx, req, rep)
		r.transports = append(r.transports, liveTransport{id: a.Transport, req: req, t: t, rep: rep})
	case reconnect.ActionDisposeTransport:
		r.dispose(a.Transport)
	case reconnect.ActionActivateTransport:
		if lt := r.transport(a.Transport); lt != nil {
			r.activeID = a.Transport
			r.mu.Lock()
			r.active = lt.t
			r.mu.Unlock()
		}
	case reconnect.ActionStartTimer:
		id := a.Timer
		t := time.AfterFunc(a.Due.Sub(now), func() {
			r.post(reconnect.Event{Kind: reconnect.EventTimerFired, Timer: id})
		})
		r.timers = append(r.timers, liveTimer{id: id, t: t})
	case reconnect.ActionCancelTimer:
		if i := r.timerIndex(a.Timer); i >= 0 {
			r.timers[i].t.Stop()
			r.removeTimer(i)
		}
	case reconnect.ActionCheckConnectivity:
		r.check(r.checkNet, r.timeouts.HTTPRequest, reconnect.EventConnectivity)
	case reconnect.ActionCheckWebSocket:
		r.check(r.checkWS, r.timeouts.RealtimeRequest, reconnect.EventWebSocketCheck)
	case reconnect.ActionStateChange:
		r.changeState(now, a)
	}
}

// changeState records a state change, sends the CLOSE message on entering
// CLOSING and queues the change for OnStateChange.
func (r *Runner) changeState(now time.Time, a reconnect.Action) {
	c := StateChange{At: now, From: a.From, To: a.To, Reason: a.Reason, RetryIn: a.RetryIn, Failure: a.Failure}
	if a.To == reconnect.Connected {
		if lt := r.transport(r.activeID); lt != nil {
			c.Transport, c.Host = lt.req.Kind, lt.req.Host
		}
	}
	r.mu.Lock()
	r.state = a.To
	if a.To != reconnect.Connected && a.To != reconnect.Closing {
		r.active = nil
	}
	r.mu.Unlock()
	if a.To == reconnect.Closing {
		if lt := r.transport(r.activeID); lt != nil {
			lt.t.RequestClose()
		}
	}
	r.deliver(c)
}

// check runs one connectivity or websocket check on its own goroutine and
// feeds its answer as an event of kind k.
func (r *Runner) check(fn func(context.Context) bool, timeout time.Duration, k reconnect.EventKind) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		ctx, cancel := context.WithTimeout(r.ctx, timeout)
		up := fn(ctx)
		cancel()
		r.post(reconnect.Event{Kind: k, Up: up})
	}()
}

// stop closes every transport and stops every timer: the context is done.
func (r *Runner) stop() {
	for len(r.transports) > 0 {
		r.dispose(r.transports[0].id)
	}
	for _, t := range r.timers {
		t.t.Stop()
	}
	clear(r.timers)
	r.timers = r.timers[:0]
	r.mu.Lock()
	r.active = nil
	r.inbox = r.inbox[:0]
	r.mu.Unlock()
}

// dispose closes transport id and forgets it.
func (r *Runner) dispose(id reconnect.TransportID) {
	for i := range r.transports {
		if lt := r.transports[i]; lt.id == id {
			lt.rep.closed.Store(true)
			if lt.t != nil {
				lt.t.Close()
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

func (r *Runner) transport(id reconnect.TransportID) *liveTransport {
	for i := range r.transports {
		if r.transports[i].id == id {
			return &r.transports[i]
		}
	}
	return nil
}

func (r *Runner) timerIndex(id reconnect.TimerID) int {
	for i := range r.timers {
		if r.timers[i].id == id {
			return i
		}
	}
	return -1
}

func (r *Runner) removeTimer(i int) {
	last := len(r.timers) - 1
	r.timers[i] = r.timers[last]
	r.timers[last] = liveTimer{}
	r.timers = r.timers[:last]
}
