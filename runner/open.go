package runner

import "github.com/reconnect-go/reconnect"

// openNext is the goroutine of one transport's Dialer.Open
// (settings.openFn): publish queues the transport in r.sh.opens and starts
// one such goroutine for it.
func (r *Runner) openNext() {
	r.mu.Lock()
	p := r.nextOpen()
	r.mu.Unlock()
	r.open(p)
	r.mu.Unlock()
}

// open calls Dialer.Open for p, on a goroutine of its own, or with
// Options.Inline on the goroutine leading the inline turn (see lead),
// never where the engine runs: an Open that blocks (for example on a DNS
// lookup or a dial) holds up no timer, no Close and no Done. When it
// returns, the reports it held back go to the engine, or, if the runner no
// longer wants the transport (the engine disposed of it, or the runner
// stopped, meanwhile), the transport is closed at once. A transport given
// up before its Open was called is not opened. r.mu is held on return.
func (r *Runner) open(p *reporter) {
	var t Transport = noTransport{}
	if p.state.Load()&flagDisposed == 0 {
		t = r.callOpen(p)
	}
	closed := !p.openDone(t)
	if closed {
		r.closeTransport(p, t, p.cause) // set before the slot was marked disposed, which openDone saw
	}
	r.mu.Lock()
	if closed {
		r.release(p)
	}
	r.sh.opening.done()
}

// nextOpen takes the transport whose Open is next, or returns nil; r.mu
// is held. With Options.Inline, the lead calls these Opens itself, after
// the turn's effects and outside r.wg (Done waits for an Open at most
// Timeouts.Connect, as for one on a goroutine of its own).
func (r *Runner) nextOpen() *reporter {
	opens := r.sh.opens
	if len(opens) == 0 {
		return nil
	}
	p := opens[0]
	n := copy(opens, opens[1:])
	opens[n] = nil
	r.sh.opens = opens[:n]
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
	t = r.set.dialer.Open(r.set.openCtx, p.req, p.reporter())
	if t == nil {
		t = noTransport{} // a Dialer that broke its contract
	}
	return t
}

// noTransport stands for a nil Transport from Dialer.Open.
type noTransport struct{}

func (noTransport) RequestClose() {}
func (noTransport) Close()        {}
