package runner

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// FuzzRunnerInterleavings drives a runner, without and with
// Options.Inline, from three goroutines at once
// with the bytes' operations (Connect, Close, NetworkUp, NetworkDown,
// every transport report, check answers, time passing, and the context's
// cancellation), under synctest's virtual time, and checks the runner's
// output against the engine's invariants: the state changes form one
// chain from INITIALIZED, each with a reason and a retry only where one
// belongs; nothing of the runner's panics; at most four transports open at
// once and never two active; Active matches the state whenever the runner
// is idle; and after the cancellation the state is final (CLOSED or
// FAILED), delivered as the last change, every transport closed exactly
// once and no goroutine left (synctest.Test fails on one).
func FuzzRunnerInterleavings(f *testing.F) {
	f.Add([]byte{0, 4, 5, 6, 12, 1, 9, 2, 3, 0, 4, 5, 13})
	f.Add([]byte{0, 7, 19, 8, 19, 10, 11, 0, 4, 6, 2, 0, 5, 5, 12, 12, 1, 14, 0})
	f.Add([]byte{0, 12, 12, 12, 4, 8, 20, 9, 3, 2, 0, 21, 4, 5, 6, 7, 1, 15})
	f.Add([]byte{0, 4, 6, 20, 0, 31, 5, 30, 6, 2, 4, 6, 3, 8, 9, 4, 7, 1, 10, 0, 4, 6, 12, 2, 21, 233, 6})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 300 {
			data = data[:300]
		}
		for _, inline := range []bool{false, true} {
			synctest.Test(t, func(t *testing.T) { fuzzRun(t, data, inline) })
		}
	})
}

func fuzzRun(t *testing.T, data []byte, inline bool) {
	ctx, cancel := context.WithCancel(t.Context())
	d := newMemDialer()
	d.notify = len(data)%2 == 1 // the transports implement Notified and CauseCloser, which check their order
	net, ws := newMemCheck(), newMemCheck()
	var mu sync.Mutex
	var changes []StateChange
	var panics []*PanicError
	r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: net.check, CheckWebSocket: ws.check, Inline: inline,
		OnStateChange: func(c StateChange) {
			mu.Lock()
			changes = append(changes, c)
			mu.Unlock()
		},
		OnPanic: func(p *PanicError) {
			mu.Lock()
			panics = append(panics, p)
			mu.Unlock()
		}})
	if err != nil {
		t.Fatal(err)
	}
	var cancelled sync.Once
	var wg sync.WaitGroup
	var actMu sync.Mutex
	var everActive []*memTransport
	// twoActive checks, after any operation, that when Active is B every
	// other transport that was ever active is closed: the runner closes
	// the one it replaces before it makes B active.
	twoActive := func() {
		cur := asMem(r.Active())
		actMu.Lock()
		defer actMu.Unlock()
		if cur != nil && !slices.Contains(everActive, cur) {
			everActive = append(everActive, cur)
		}
		if cur == nil {
			return
		}
		d.mu.Lock()
		defer d.mu.Unlock()
		for _, o := range everActive {
			if o != cur && !o.closed {
				if asMem(r.Active()) != cur {
					return // Active changed since it was read: o may be its successor
				}
				t.Errorf("T%d active while T%d, active before, is open", cur.req.ID, o.req.ID)
			}
		}
	}
	for g := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(data); i += 3 {
				fuzzOp(r, d, net, ws, data[i], func() { cancelled.Do(cancel) })
				twoActive()
				if data[i]%24 == 23 {
					time.Sleep(time.Millisecond) // a pause: the runner catches up (only one goroutine may synctest.Wait)
				}
			}
		}()
	}
	wg.Wait()
	synctest.Wait()
	checkIdle(t, r, d)
	time.Sleep(3 * time.Minute) // every timer due by now fires
	synctest.Wait()
	checkIdle(t, r, d)
	cancelled.Do(cancel)
	<-r.Done()

	mu.Lock()
	defer mu.Unlock()
	for _, p := range panics {
		t.Errorf("panic in %s: %v\n%s", p.Where, p.Value, p.Stack)
	}
	from := engine.Initialized
	for i, c := range changes {
		if c.Missed != 0 {
			t.Fatalf("change %d: %d missed", i, c.Missed)
		}
		if c.Update {
			// RTN4h: an update is never a change, and only while CONNECTED.
			if c.From != engine.Connected || c.To != engine.Connected || from != engine.Connected {
				t.Fatalf("change %d: update %v → %v while %v", i, c.From, c.To, from)
			}
		} else if c.From != from || c.From == c.To {
			t.Fatalf("change %d %v → %v does not follow %v", i, c.From, c.To, from)
		}
		if c.Reason == engine.ReasonNone {
			t.Fatalf("change %d %v → %v without a reason", i, c.From, c.To)
		}
		if c.RetryIn < 0 || c.RetryIn > 0 && c.To != engine.Disconnected && c.To != engine.Suspended {
			t.Fatalf("change %d to %v with RetryIn %v", i, c.To, c.RetryIn)
		}
		if c.To == engine.Connected && (c.TransportKind == reconnect.NoTransport || c.Transport == nil) {
			t.Fatalf("change %d to %v by %v (%v)", i, c.To, c.TransportKind, c.Transport)
		}
		if (c.TransportID == 0) != (c.TransportKind == reconnect.NoTransport) || c.Transport != nil && c.TransportID == 0 {
			t.Fatalf("change %d names T%d kind %v transport %v", i, c.TransportID, c.TransportKind, c.Transport)
		}
		if c.Stopped && i != len(changes)-1 {
			t.Fatalf("change %d is the stop's but not the last", i)
		}
		from = c.To
	}
	if st := r.State(); st != engine.Closed && st != engine.Failed || st != from && len(changes) > 0 {
		t.Fatalf("state %v after the stop, last change to %v", st, from)
	}
	if len(changes) > 0 && from == engine.Closed && changes[len(changes)-1].From != engine.Closing && !changes[len(changes)-1].Stopped &&
		changes[len(changes)-1].Reason != engine.ReasonCloseRequested {
		t.Fatalf("last change %+v", changes[len(changes)-1])
	}
	if r.Active() != nil {
		t.Fatal("a transport active after the stop")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, tr := range d.opened {
		if !tr.closed {
			t.Errorf("T%d not closed after the stop", id)
		}
	}
}

// checkIdle checks the runner once it is idle: Active and the state agree,
// the active transport is open, and at most four transports are.
func checkIdle(t *testing.T, r *Runner, d *memDialer) {
	t.Helper()
	st, act := r.State(), r.Active()
	d.mu.Lock()
	open := 0
	for _, tr := range d.opened {
		if !tr.closed {
			open++
		}
	}
	d.mu.Unlock()
	if open > 4 {
		t.Fatalf("%d transports open", open)
	}
	switch {
	case st == engine.Connected && act == nil:
		t.Fatal("CONNECTED with no active transport")
	case st != engine.Connected && st != engine.Closing && act != nil:
		t.Fatalf("%v with an active transport", st)
	}
	if mt := asMem(act); mt != nil {
		d.mu.Lock()
		closed, activated := mt.closed, mt.activated
		d.mu.Unlock()
		if closed {
			t.Fatalf("the active transport T%d is closed", mt.req.ID)
		}
		if d.notify && !activated {
			t.Fatalf("Active returns T%d before its Activated", mt.req.ID)
		}
	}
}

// fuzzOp performs one operation.
func fuzzOp(r *Runner, d *memDialer, net, ws *memCheck, b byte, cancel func()) {
	tr := func() *memTransport {
		d.mu.Lock()
		defer d.mu.Unlock()
		if len(d.opened) == 0 {
			return nil
		}
		// the newest transports are the interesting ones
		return d.opened[engine.TransportID(len(d.opened)-int(b/24)%min(len(d.opened), 3))]
	}
	f := reconnect.Failure{Kind: reconnect.FailureRefused}
	if b/24%2 == 1 {
		f = reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503}
	}
	switch b % 24 {
	case 0:
		r.Connect()
	case 1:
		r.Close()
	case 2:
		r.NetworkDown()
	case 3:
		r.NetworkUp()
	case 4, 5, 6, 7, 8, 9, 10:
		if t := tr(); t != nil {
			switch b % 24 {
			case 4, 5:
				t.report.Viable()
			case 6, 7:
				t.report.Connected()
			case 8:
				t.report.Failed(f)
			case 9:
				t.report.Closed(f)
			case 10:
				t.report.Closed(reconnect.Failure{})
			}
		}
	case 11:
		if t := tr(); t != nil && b > 200 {
			t.report.Fatal(reconnect.Failure{Kind: reconnect.FailureToken, Status: 401})
		}
	case 12, 13:
		net.answer(b%24 == 12)
	case 14, 15:
		ws.answer(b%24 == 14)
	case 16, 17, 18:
		time.Sleep(time.Duration(b) * 50 * time.Millisecond)
	case 19, 20:
		time.Sleep(time.Duration(b) * time.Second / 10)
	case 21:
		if b > 230 {
			cancel()
		}
	case 22:
		r.Fatal(reconnect.Failure{Kind: reconnect.FailureToken, Status: 401})
	}
}
