package runner

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// holdDialer's HTTP transports' Close waits until release is closed, as a
// Close that waits for a lock of the SDK's would.
type holdDialer struct {
	release chan struct{}

	mu     sync.Mutex
	opened []*holdTransport
}

type holdTransport struct {
	req    OpenRequest
	report Reporter
	d      *holdDialer

	mu                    sync.Mutex
	closeCalled, closeEnd bool
}

func (d *holdDialer) Open(_ context.Context, req OpenRequest, report Reporter) Transport {
	t := &holdTransport{req: req, report: report, d: d}
	d.mu.Lock()
	d.opened = append(d.opened, t)
	d.mu.Unlock()
	return t
}

func (d *holdDialer) transport(i int) *holdTransport {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.opened[i]
}

func (t *holdTransport) RequestClose() {}

func (t *holdTransport) Close() {
	t.mu.Lock()
	t.closeCalled = true
	t.mu.Unlock()
	if t.req.Kind == reconnect.HTTP {
		<-t.d.release
	}
	t.mu.Lock()
	t.closeEnd = true
	t.mu.Unlock()
}

func (t *holdTransport) closing() (called, returned bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closeCalled, t.closeEnd
}

func TestActiveIsNilWhileTheReplacedTransportCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &holdDialer{release: make(chan struct{})}
		r, err := New(t.Context(), Options{Config: engine.AblyConfig(), Dialer: d,
			CheckConnectivity: func(context.Context) bool { return true }})
		if err != nil {
			t.Fatal(err)
		}
		r.Connect()
		synctest.Wait()
		d.transport(0).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused}) // HTTP opens
		synctest.Wait()
		http := d.transport(1)
		http.report.Viable()
		http.report.Connected() // CONNECTED on HTTP; the upgrade websocket opens
		synctest.Wait()
		if r.Active() != Transport(http) {
			t.Fatalf("Active %v, want the HTTP transport", r.Active())
		}
		ws := d.transport(2)
		if ws.req.Kind != reconnect.WebSocket || ws.req.Mode != reconnect.ModeUpgrade {
			t.Fatalf("third transport %+v, want the upgrade websocket", ws.req)
		}
		ws.report.Viable()
		ws.report.Connected() // the websocket takes over: HTTP is closed, its Close held
		synctest.Wait()
		if called, returned := http.closing(); !called || returned {
			t.Fatalf("HTTP Close called %v, returned %v; want called and held", called, returned)
		}
		if a := r.Active(); a != nil || r.State() != engine.Connected {
			t.Fatalf("while the replaced HTTP transport closes: Active %v, state %v; want nil in CONNECTED", a, r.State())
		}
		close(d.release)
		synctest.Wait()
		if a := r.Active(); a != Transport(ws) {
			t.Fatalf("after the HTTP transport closed: Active %v, want the websocket", a)
		}
	})
}
