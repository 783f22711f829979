package runner

import (
	"context"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// openNext is the goroutine of one transport's Dialer.Open (r.openFn): the
// engine's turn queues the transport in r.opens and starts one such
// goroutine for it.
func (r *Runner) openNext() {
	r.mu.Lock()
	p := r.nextOpen()
	r.mu.Unlock()
	_, _ = r.open(p, false)
}

// open calls Dialer.Open for p, on a goroutine of its own, or with
// Options.Inline on the goroutine that ran the engine's turn, never where
// the engine runs: an Open that blocks (for example on a DNS lookup or a
// dial) holds up no timer, no Close and no Done. When it returns, the
// reports it held back go to the engine, or, if the runner no longer wants
// the transport (the engine disposed of it, or the runner stopped,
// meanwhile), the transport is closed at once. A transport given up
// before its Open was called is not opened. With lead (inlineTurn's), open
// returns the transport whose Open is next (see nextOpen), if any, or
// else, when nothing else is left for the lead either, ends its r.busy and
// reports done.
func (r *Runner) open(p *reporter, lead bool) (next *reporter, done bool) {
	var t Transport = noTransport{}
	if p.state.Load()&flagDisposed == 0 {
		t = r.callOpen(p)
	}
	closed := !p.openDone(t)
	if closed {
		r.closeTransport(p, t)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if closed {
		r.release(p)
	}
	r.opening.done()
	if lead {
		next = r.nextOpen()
		if next == nil && len(r.inbox) == 0 && !r.effectsWaiting() {
			r.busy, done = false, true
		}
	}
	return next, done
}

// nextOpen takes the transport whose Open is next, or returns nil; r.mu
// is held. With Options.Inline, the goroutine that ran the engine's turn
// calls these Opens itself, after the turn's effects and outside r.wg
// (Done waits for an Open at most realtimeRequestTimeout, as for one on a
// goroutine of its own).
func (r *Runner) nextOpen() *reporter {
	if len(r.opens) == 0 {
		return nil
	}
	p := r.opens[0]
	n := copy(r.opens, r.opens[1:])
	r.opens[n] = nil
	r.opens = r.opens[:n]
	return p
}

// callOpen calls Dialer.Open; an Open that panics failed with
// FailureOther and returns a Transport with nothing to close.
func (r *Runner) callOpen(p *reporter) (t Transport) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("Dialer.Open", p.id, v)
			p.reporter().Failed(reconnect.Failure{Kind: reconnect.FailureOther})
			t = noTransport{}
		}
	}()
	t = r.dialer.Open(r.openCtx, p.req, p.reporter())
	if t == nil {
		t = noTransport{} // a Dialer that broke its contract
	}
	return t
}

// noTransport stands for a nil Transport from Dialer.Open.
type noTransport struct{}

func (noTransport) RequestClose() {}
func (noTransport) Close()        {}

// check runs check id, a connectivity or websocket check, on its own
// goroutine and feeds its answer as an event of kind k carrying id. The
// answer is fed whenever it comes: the engine ignores one whose check is
// no longer in flight.
func (r *Runner) check(fn func(context.Context) bool, timeout time.Duration, k engine.EventKind, id engine.CheckID) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		ctx, cancel := context.WithTimeout(context.WithValue(r.ctx, checkIDKey{}, id), timeout)
		up := r.runCheck(fn, ctx, k)
		cancel()
		r.postOwn(engine.Event{Kind: k, Check: id, Up: up})
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
