package runner

import (
	"sync/atomic"

	"github.com/reconnect-go/reconnect"
)

// reporter is the Reporter of one transport.
type reporter struct {
	r      *Runner
	id     reconnect.TransportID
	closed atomic.Bool // the runner closed the transport: ignore its reports
}

func (p *reporter) report(k reconnect.EventKind, f reconnect.Failure) {
	if p.closed.Load() {
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
	if !p.closed.Load() {
		p.r.Fatal(f)
	}
}
