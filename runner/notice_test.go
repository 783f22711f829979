package runner

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// noteDialer opens transports that implement Notified and CauseCloser
// and logs, in one list, every call the runner makes into them and every
// state change, each change with the transport it names.
type noteDialer struct {
	mu   sync.Mutex
	byID map[engine.TransportID]*noteTransport
	log  []string
	r    *Runner
}

type noteTransport struct {
	d      *noteDialer
	req    OpenRequest
	report Reporter
}

func (d *noteDialer) Open(_ context.Context, req OpenRequest, report Reporter) Transport {
	t := &noteTransport{d: d, req: req, report: report}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.byID[req.ID] = t
	return t
}

func (d *noteDialer) logf(format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.log = append(d.log, fmt.Sprintf(format, args...))
}

func (d *noteDialer) transport(id engine.TransportID) *noteTransport {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.byID[id]
}

// take returns the log so far and empties it.
func (d *noteDialer) take() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	l := d.log
	d.log = nil
	return l
}

func (d *noteDialer) onChange(c StateChange) {
	var named string
	if c.TransportID != 0 {
		named = fmt.Sprintf(" T%d %v", c.TransportID, c.TransportKind)
		if c.Transport != Transport(d.transport(c.TransportID)) {
			named += " (not the transport Open returned)"
		}
	}
	kind := "state"
	if c.Update {
		kind = "update"
	}
	d.logf("%s %v→%v %v%s", kind, c.From, c.To, c.Reason, named)
}

// Activated logs whether Active returns the transport yet: it must not.
func (t *noteTransport) Activated() {
	t.d.logf("activated T%d active=%v", t.req.ID, t.d.r.Active() == Transport(t))
}

func (t *noteTransport) Deactivated(why Cause) {
	t.d.logf("deactivated T%d %v active=%v", t.req.ID, why, t.d.r.Active() == Transport(t))
}

func (t *noteTransport) CloseFor(why Cause) { t.d.logf("close T%d %v", t.req.ID, why) }
func (t *noteTransport) RequestClose()      { t.d.logf("close-request T%d", t.req.ID) }
func (t *noteTransport) Close()             { t.d.logf("Close T%d: CloseFor was due", t.req.ID) }

// newNoteRunner makes a runner over a noteDialer, connected on its first
// transport when connect is set.
func newNoteRunner(t *testing.T, ctx context.Context, inline, connect bool) (*Runner, *noteDialer) {
	t.Helper()
	d := &noteDialer{byID: map[engine.TransportID]*noteTransport{}}
	r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck,
		OnStateChange: d.onChange, Inline: inline})
	if err != nil {
		t.Fatal(err)
	}
	d.r = r
	if connect {
		r.Connect()
		synctest.Wait()
		tr := d.transport(1)
		tr.report.Viable()
		tr.report.ConnectedWith(engine.Details{MaxIdleInterval: 15 * time.Second}, reconnect.Failure{})
		synctest.Wait()
		if got, want := d.take(), []string{
			"state initialized→connecting connect-requested",
			"activated T1 active=false",
			"state connecting→connected connected T1 websocket",
		}; !slices.Equal(got, want) {
			t.Fatalf("connecting:\n got %q\nwant %q", got, want)
		}
		if r.Active() != Transport(tr) {
			t.Fatal("Active is not T1 once Activated returned")
		}
	}
	return r, d
}

// Each way a transport stops being active or is closed, with the Cause
// derived from the event, and the state change naming the transport.
func TestNoticesSayWhyATransportStopsBeingActive(t *testing.T) {
	drop := reconnect.Failure{Kind: reconnect.FailureUnreachable}
	cases := []struct {
		name string
		do   func(r *Runner, d *noteDialer, cancel func())
		want []string
	}{
		{"drop", func(r *Runner, d *noteDialer, _ func()) { d.transport(1).report.Closed(drop) }, []string{
			"deactivated T1 ended active=false",
			"close T1 ended",
			"state connected→disconnected dropped T1 websocket",
			"state disconnected→connecting reconnect",
		}},
		{"idle timeout", func(*Runner, *noteDialer, func()) { time.Sleep(25 * time.Second) }, []string{
			"deactivated T1 idle-timeout active=false",
			"close T1 idle-timeout",
			"state connected→disconnected dropped T1 websocket",
			"state disconnected→connecting reconnect",
		}},
		{"network down", func(r *Runner, _ *noteDialer, _ func()) { r.NetworkDown() }, []string{
			"deactivated T1 network-down active=false",
			"close T1 network-down",
			"state connected→disconnected network-down T1 websocket",
			"state disconnected→connecting reconnect",
		}},
		{"fatal from the runner", func(r *Runner, _ *noteDialer, _ func()) { r.Fatal(reconnect.Failure{Kind: reconnect.FailureOther}) }, []string{
			"deactivated T1 fatal active=false",
			"close T1 fatal",
			"state connected→failed fatal T1 websocket",
		}},
		{"fatal from the transport", func(_ *Runner, d *noteDialer, _ func()) {
			d.transport(1).report.Fatal(reconnect.Failure{Kind: reconnect.FailureOther})
		}, []string{
			"deactivated T1 fatal active=false",
			"close T1 fatal",
			"state connected→failed fatal T1 websocket",
		}},
		{"close", func(r *Runner, d *noteDialer, _ func()) {
			r.Close()
			synctest.Wait()
			d.transport(1).report.Closed(reconnect.Failure{})
		}, []string{
			"close-request T1",
			"state connected→closing close-requested T1 websocket",
			"deactivated T1 close-requested active=false",
			"close T1 close-requested",
			"state closing→closed closed T1 websocket",
		}},
		{"close that times out", func(r *Runner, _ *noteDialer, _ func()) {
			r.Close()
			time.Sleep(10 * time.Second)
		}, []string{
			"close-request T1",
			"state connected→closing close-requested T1 websocket",
			"deactivated T1 close-requested active=false",
			"close T1 close-requested",
			"state closing→closed closed T1 websocket",
		}},
		{"stop", func(_ *Runner, _ *noteDialer, cancel func()) { cancel() }, []string{
			"deactivated T1 stopped active=false",
			"close T1 stopped",
			"state connected→closed closed T1 websocket",
		}},
	}
	for _, inline := range []bool{false, true} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/inline=%v", c.name, inline), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					ctx, cancel := context.WithCancel(t.Context())
					defer cancel()
					r, d := newNoteRunner(t, ctx, inline, true)
					c.do(r, d, cancel)
					synctest.Wait()
					if got := d.take(); !slices.Equal(got, c.want) {
						t.Fatalf("\n got %q\nwant %q", got, c.want)
					}
					if r.Active() != nil {
						t.Fatalf("Active = %v after the transport was deactivated", r.Active())
					}
				})
			})
		}
	}
}

// Transports that never became active are closed with why, and hear no
// Deactivated.
func TestNoticesSayWhyATransportNeverActiveIsClosed(t *testing.T) {
	for _, inline := range []bool{false, true} {
		t.Run(fmt.Sprintf("inline=%v", inline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, d := newNoteRunner(t, t.Context(), inline, false)
				r.Connect()
				synctest.Wait()
				d.transport(1).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused}) // a proxy rejects the websocket
				synctest.Wait()
				if got, want := d.take(), []string{
					"state initialized→connecting connect-requested",
					"close T1 ended",
				}; !slices.Equal(got, want) {
					t.Fatalf("the websocket refused:\n got %q\nwant %q", got, want)
				}
				r.NetworkUp() // while CONNECTING: the attempt starts again
				synctest.Wait()
				if got := d.take(); !slices.Contains(got, "close T2 abandoned") {
					t.Fatalf("network up while connecting: %q, want T2 (HTTP) closed as abandoned", got)
				}
				time.Sleep(10 * time.Second) // realtimeRequestTimeout: the new attempt's websocket times out
				synctest.Wait()
				if got := d.take(); !slices.Contains(got, "close T3 connect-timeout") || slices.ContainsFunc(got, func(s string) bool { return s[:5] == "deact" }) {
					t.Fatalf("after realtimeRequestTimeout: %q, want T3 closed for connect-timeout and no Deactivated", got)
				}
			})
		})
	}
}

// The upgrade: HTTP is deactivated as superseded, then the websocket is
// activated, and the update names it.
func TestNoticesFollowTheUpgrade(t *testing.T) {
	for _, inline := range []bool{false, true} {
		t.Run(fmt.Sprintf("inline=%v", inline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r, d := newNoteRunner(t, t.Context(), inline, false)
				r.Connect()
				synctest.Wait()
				d.transport(1).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
				synctest.Wait()
				http := d.transport(2)
				http.report.Connected()
				synctest.Wait()
				d.take()
				up := d.transport(3)
				up.report.Viable()
				up.report.Connected()
				synctest.Wait()
				if got, want := d.take(), []string{
					"deactivated T2 superseded active=false",
					"close T2 superseded",
					"activated T3 active=false",
					"update connected→connected transport T3 websocket",
				}; !slices.Equal(got, want) {
					t.Fatalf("the upgrade:\n got %q\nwant %q", got, want)
				}
				if r.Active() != Transport(up) {
					t.Fatal("the upgrade websocket is not active")
				}
			})
		})
	}
}

// A panic in Activated closes the transport with FailureOther: the
// connection drops and reconnects.
func TestAnActivatedThatPanicsDropsTheTransport(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var panics []string
		var mu sync.Mutex
		d := &panicNoteDialer{}
		rec := &recorder{}
		r, err := New(t.Context(), Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck,
			OnStateChange: rec.add, OnPanic: func(p *PanicError) {
				mu.Lock()
				defer mu.Unlock()
				panics = append(panics, p.Where)
			}})
		if err != nil {
			t.Fatal(err)
		}
		r.Connect()
		synctest.Wait()
		d.report.Connected()
		synctest.Wait()
		cs := rec.all()
		last := cs[len(cs)-1]
		if !slices.Equal(panics, []string{"Transport.Activated"}) || last.To != engine.Connecting {
			t.Fatalf("panics %q, changes %+v: want the panic recovered and a reconnect", panics, cs)
		}
		if drop := cs[len(cs)-2]; drop.Reason != engine.ReasonDropped || drop.Failure.Kind != reconnect.FailureOther {
			t.Fatalf("drop %+v, want FailureOther", drop)
		}
	})
}

type panicNoteDialer struct{ report Reporter }

func (d *panicNoteDialer) Open(_ context.Context, _ OpenRequest, report Reporter) Transport {
	d.report = report
	return panicNote{}
}

type panicNote struct{ noTransport }

func (panicNote) Activated()            { panic("activated") }
func (panicNote) Deactivated(why Cause) {}

func TestCauseString(t *testing.T) {
	want := []string{"none", "ended", "superseded", "connect-timeout", "idle-timeout", "close-requested",
		"network-down", "fatal", "stopped", "abandoned"}
	for i, w := range want {
		if got := Cause(i).String(); got != w {
			t.Errorf("Cause(%d) = %q, want %q", i, got, w)
		}
	}
	if got := Cause(len(want)).String(); got != fmt.Sprintf("Cause(%d)", len(want)) {
		t.Errorf("an unknown Cause renders %q", got)
	}
}

// blockingNoteDialer's Open waits for release: the runner gives the
// transport up meanwhile, and Open's goroutine closes it with why.
type blockingNoteDialer struct {
	release chan struct{}
	closed  chan Cause
}

type closeForRecorder struct {
	noTransport
	closed chan Cause
}

func (c closeForRecorder) CloseFor(why Cause) { c.closed <- why }

func (d *blockingNoteDialer) Open(context.Context, OpenRequest, Reporter) Transport {
	<-d.release
	return closeForRecorder{closed: d.closed}
}

func TestATransportGivenUpWhileItsOpenRunsIsClosedWithWhy(t *testing.T) {
	for _, c := range []struct {
		name string
		end  func(cancel func())
		want Cause
	}{
		{"connect timeout", func(func()) { time.Sleep(10 * time.Second) }, CauseConnectTimeout},
		{"stop", func(cancel func()) { cancel() }, CauseStopped},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				cfg := engine.AblyConfig()
				cfg.Transports.HTTP = false // one transport: the websocket
				d := &blockingNoteDialer{release: make(chan struct{}), closed: make(chan Cause, 4)}
				r, err := New(ctx, Options{Config: cfg, Dialer: d, CheckConnectivity: NoConnectivityCheck})
				if err != nil {
					t.Fatal(err)
				}
				r.Connect()
				synctest.Wait()
				c.end(cancel)
				synctest.Wait()
				close(d.release)
				synctest.Wait()
				if got := <-d.closed; got != c.want {
					t.Fatalf("CloseFor(%v), want %v", got, c.want)
				}
			})
		})
	}
}
