package runner

import (
	"sync/atomic"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// reporter is the Reporter of one transport. It passes each kind of report
// on once, and nothing after Failed or Closed, so a transport that reports
// in a loop cannot flood the runner's queue: at most four events per
// transport reach it.
type reporter struct {
	r      *Runner
	id     engine.TransportID
	closed atomic.Bool   // the runner closed the transport: ignore its reports
	sent   atomic.Uint32 // bit k: an event of kind k was passed on
}

// ended is the bit that marks a Failed or Closed report: nothing follows.
const ended = 1 << 31

func (p *reporter) report(k engine.EventKind, f reconnect.Failure) {
	bit := uint32(1) << k
	if k == engine.EventTransportFailed || k == engine.EventTransportClosed {
		bit = ended
	}
	if p.closed.Load() || p.sent.Or(bit)&(bit|ended) != 0 {
		return
	}
	p.r.post(engine.Event{Kind: k, Transport: p.id, Failure: f})
}

func (p *reporter) Viable()    { p.report(engine.EventTransportViable, reconnect.Failure{}) }
func (p *reporter) Connected() { p.report(engine.EventTransportConnected, reconnect.Failure{}) }
func (p *reporter) Failed(f reconnect.Failure) {
	p.report(engine.EventTransportFailed, f)
}
func (p *reporter) Closed(f reconnect.Failure) {
	p.report(engine.EventTransportClosed, f)
}
func (p *reporter) Fatal(f reconnect.Failure) {
	if !p.closed.Load() && p.sent.Or(1<<engine.EventFatal)&(1<<engine.EventFatal) == 0 {
		p.r.Fatal(f)
	}
}
