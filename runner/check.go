package runner

import (
	"context"

	"github.com/reconnect-go/reconnect/engine"
)

// checkIDKey is the context key of the check ID a check runs for.
type checkIDKey struct{}

// CheckIDFrom returns the engine's ID of the check that the
// Options.CheckConnectivity or Options.CheckWebSocket call given ctx runs
// for, and whether ctx carries one. The runner feeds the check's answer to
// the engine with this ID whenever it comes, also after the engine has
// stopped waiting for it (the attempt ended, the check's timer fired): the
// engine ignores such an answer (see engine.CheckID), so a check function
// that cannot stop its request early needs to do nothing about it. The ID
// is for logs and test doubles.
func CheckIDFrom(ctx context.Context) (engine.CheckID, bool) {
	id, ok := ctx.Value(checkIDKey{}).(engine.CheckID)
	return id, ok
}

// startCheck runs c, a connectivity or websocket check the core queued, on
// a goroutine of its own and feeds its answer as an event of c's kind
// carrying c's ID. The answer is fed whenever it comes: the engine ignores
// one whose check is no longer in flight. r.mu is held (see publish).
func (r *Runner) startCheck(c check) {
	fn, timeout, where := r.set.checkNet, r.set.timeouts.HTTPRequest, "CheckConnectivity"
	if c.kind == engine.EventWebSocketCheck {
		fn, timeout, where = r.set.checkWS, r.set.timeouts.RealtimeRequest, "CheckWebSocket"
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		ctx, cancel := context.WithTimeout(context.WithValue(r.set.ctx, checkIDKey{}, c.id), timeout)
		up := r.runCheck(fn, ctx, where)
		cancel()
		r.mu.Lock()
		r.feed(ownCaller, engine.Event{Kind: c.kind, Check: c.id, Up: up})
	}()
}

// runCheck calls the check fn; a check that panics answered down.
func (r *Runner) runCheck(fn func(context.Context) bool, ctx context.Context, where string) (up bool) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered(where, 0, v)
			up = false
		}
	}()
	return fn(ctx)
}
