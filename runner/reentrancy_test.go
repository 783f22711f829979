package runner

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// The runner runs the engine on the goroutine that calls it, but never the
// SDK's code: Transport.RequestClose, Transport.Close and OnStateChange run
// on goroutines of the runner's. These tests hold what an SDK holds when
// it calls the runner (its own lock; the goroutine its Close waits for)
// and would deadlock, which synctest reports, if the runner called back
// into the SDK from inside the call.

// chanLock is a lock synctest sees: a goroutine blocked on it is durably
// blocked, so a deadlock fails the test instead of hanging it.
type chanLock chan struct{}

func (l chanLock) lock()   { l <- struct{}{} }
func (l chanLock) unlock() { <-l }

// lockingSDK's transports and state callback take the SDK's lock.
type lockingSDK struct {
	mu chanLock

	tmu     sync.Mutex
	opened  []*lockingTransport
	changes []engine.State
}

type lockingTransport struct {
	sdk            *lockingSDK
	report         Reporter
	closeRequested bool
	closed         bool
}

func (s *lockingSDK) Open(_ context.Context, _ OpenRequest, report Reporter) Transport {
	t := &lockingTransport{sdk: s, report: report}
	s.tmu.Lock()
	s.opened = append(s.opened, t)
	s.tmu.Unlock()
	return t
}

func (t *lockingTransport) RequestClose() {
	t.sdk.mu.lock()
	defer t.sdk.mu.unlock()
	t.closeRequested = true
}

func (t *lockingTransport) Close() {
	t.sdk.mu.lock()
	defer t.sdk.mu.unlock()
	t.closed = true
}

func (s *lockingSDK) onChange(c StateChange) {
	s.mu.lock()
	defer s.mu.unlock()
	s.changes = append(s.changes, c.To)
}

func (s *lockingSDK) last() *lockingTransport {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	return s.opened[len(s.opened)-1]
}

func TestCallsIntoTheRunnerWithTheSDKsLockHeldNeverDeadlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sdk := &lockingSDK{mu: make(chanLock, 1)}
		r, err := New(t.Context(), Options{Config: engine.AblyConfig(), Dialer: sdk,
			CheckConnectivity: func(context.Context) bool { return true }, OnStateChange: sdk.onChange})
		if err != nil {
			t.Fatal(err)
		}
		// Every call below is made with the SDK's lock held, as an SDK
		// that serialises its own state would.
		held := func(f func()) {
			t.Helper()
			sdk.mu.lock()
			// A call that waits for the lock it is made under never returns
			// by itself: after half a second of the bubble's time (before
			// any engine timer is due) the watchdog fails the test and
			// lets the call go on.
			stuck := time.AfterFunc(500*time.Millisecond, func() {
				t.Errorf("a call made with the SDK's lock held waited for that lock: the runner called the SDK's code inside the call")
				sdk.mu.unlock()
			})
			f()
			if stuck.Stop() {
				sdk.mu.unlock()
			}
			synctest.Wait()
		}
		held(r.Connect)
		first := sdk.last()
		held(func() { first.report.Viable(); first.report.Connected() })
		held(r.Close) // CLOSING: RequestClose takes the lock
		if !first.closeRequested {
			t.Fatal("RequestClose was not called")
		}
		held(func() { first.report.Closed(reconnect.Failure{}) }) // CLOSED: Close takes the lock
		if !first.closed {
			t.Fatal("Close was not called")
		}
		held(r.Connect)
		second := sdk.last()
		held(func() { second.report.Viable(); second.report.Connected() })
		held(r.NetworkDown) // the active transport is closed, and the reconnect opens another (RTN20a)
		if !second.closed {
			t.Fatal("Close was not called after network-down")
		}
		want := []engine.State{engine.Connecting, engine.Connected, engine.Closing, engine.Closed,
			engine.Connecting, engine.Connected, engine.Disconnected, engine.Connecting}
		sdk.mu.lock()
		got := append([]engine.State(nil), sdk.changes...)
		sdk.mu.unlock()
		if len(got) != len(want) {
			t.Fatalf("changes %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("changes %v, want %v", got, want)
			}
		}
	})
}

// readerDialer's transports end like a websocket's: the reading goroutine
// reports Failed and returns, and Close waits for it to have returned.
type readerDialer struct {
	mu     sync.Mutex
	failed chan struct{} // closed to make the current reader fail
	closed int
}

type readerTransport struct {
	d    *readerDialer
	done chan struct{} // closed when the reader has returned
}

func (d *readerDialer) Open(_ context.Context, _ OpenRequest, report Reporter) Transport {
	t := &readerTransport{d: d, done: make(chan struct{})}
	d.mu.Lock()
	fail := d.failed
	d.mu.Unlock()
	go func() {
		defer close(t.done)
		<-fail
		report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
	}()
	return t
}

func (t *readerTransport) RequestClose() {}

func (t *readerTransport) Close() {
	<-t.done // a Close called from inside the reader's report would wait for itself
	t.d.mu.Lock()
	t.d.closed++
	t.d.mu.Unlock()
}

func TestACloseThatWaitsForTheReportingGoroutineNeverDeadlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d := &readerDialer{failed: make(chan struct{})}
		cfg := engine.AblyConfig()
		cfg.Endpoint.Endpoint = "rt.example.com" // no fallback hosts: each failure ends the attempt
		r, err := New(t.Context(), Options{Config: cfg, Dialer: d,
			CheckConnectivity: func(context.Context) bool { return true }})
		if err != nil {
			t.Fatal(err)
		}
		r.Connect()
		synctest.Wait()
		close(d.failed) // the websocket's reader fails: HTTP opens, and fails too
		synctest.Wait()
		d.mu.Lock()
		closed := d.closed
		d.mu.Unlock()
		if closed != 2 || r.State() != engine.Disconnected {
			t.Fatalf("%d transports closed, state %v; want 2 closed and DISCONNECTED", closed, r.State())
		}
	})
}
