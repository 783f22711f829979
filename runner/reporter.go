package runner

import (
	"sync/atomic"

	"github.com/reconnect-go/reconnect"
)

// reporter is the Reporter of one transport. It passes each kind of report
// on once, and nothing after Failed or Closed, so a transport that reports
// in a loop cannot flood the runner's queue: at most four events per
// transport reach it.
type reporter struct {
	r      *Runner
	id     reconnect.TransportID
	closed atomic.Bool   // the runner closed the transport: ignore its reports
	sent   atomic.Uint32 // bit k: an event of kind k was passed on
}

// ended is the bit that marks a Failed or Closed report: nothing follows.
const ended = 1 << 31

func (p *reporter) report(k reconnect.EventKind, f reconnect.Failure) {
	bit := uint32(1) << k
	if k == reconnect.EventTransportFailed || k == reconnect.EventTransportClosed {
		bit = ended
	}
	if p.closed.Load() || p.sent.Or(bit)&(bit|ended) != 0 {
		return
	}
	p.r.post(reconnect.Event{Kind: k, Transport: p.id, Failure: f})
}

func (p *reporter) Viable()    { p.report(reconnect.EventTransportViable, reconnect.Failure{}) }
func (p *reporter) Connected() { p.report(reconnect.EventTransportConnected, reconnect.Failure{}) }
func (p *reporter) Failed(f reconnect.Failure) {
	p.report(reconnect.EventTransportFailed, f)
}
func (p *reporter) Closed(f reconnect.Failure) {
	p.report(reconnect.EventTransportClosed, f)
}
func (p *reporter) Fatal(f reconnect.Failure) {
	if !p.closed.Load() && p.sent.Or(1<<reconnect.EventFatal)&(1<<reconnect.EventFatal) == 0 {
		p.r.Fatal(f)
	}
}
