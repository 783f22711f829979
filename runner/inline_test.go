package runner

import (
	"context"
	"runtime/metrics"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// With Options.Inline the SDK's code runs inside the SDK's own calls, on
// the calling goroutine, before the call returns; these tests make no
// synctest.Wait between a call and what it must already have done.

// changeLog records the states OnStateChange received.
type changeLog struct {
	mu  sync.Mutex
	got []engine.State
}

func (l *changeLog) add(c StateChange) {
	l.mu.Lock()
	l.got = append(l.got, c.To)
	l.mu.Unlock()
}

func (l *changeLog) states() []engine.State {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]engine.State(nil), l.got...)
}

func (l *changeLog) last() engine.State {
	s := l.states()
	if len(s) == 0 {
		return engine.Initialized
	}
	return s[len(s)-1]
}

func TestInlineRunsTheSDKsCodeWithinTheCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		d := newMemDialer()
		var log changeLog
		r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck, Inline: true, OnStateChange: log.add})
		if err != nil {
			t.Fatal(err)
		}
		g := goroutinesCreated()
		r.Connect()
		t1 := d.transport(1)
		if t1 == nil || log.last() != engine.Connecting {
			t.Fatalf("after Connect: T1 %v, last change to %v; want T1 opened and CONNECTING delivered", t1, log.last())
		}
		t1.report.Connected()
		if log.last() != engine.Connected || r.Active() != Transport(t1) {
			t.Fatalf("after Connected: last change to %v, active %v", log.last(), r.Active())
		}
		r.NetworkDown() // DISCONNECTED, then the reconnect at once (RTN20a)
		lines, states := d.lines(), log.states()
		if len(lines) < 2 || lines[len(lines)-2] != "0 dispose T1" || lines[len(lines)-1] != "0 open T2 websocket main.realtime.ably.net resume" ||
			len(states) < 2 || states[len(states)-2] != engine.Disconnected || states[len(states)-1] != engine.Connecting {
			t.Fatalf("after NetworkDown: log %q, changes %v; want T1 closed, T2 opened, and DISCONNECTED then CONNECTING delivered", lines, states)
		}
		if n := goroutinesCreated() - g; n != 0 {
			t.Fatalf("%d goroutines created by the calls: the runner started some", n)
		}
	})
}

// goroutinesCreated is how many goroutines the process has started so far
// (a count that goroutines ending elsewhere cannot lower).
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// reentrantSDK calls back into the runner from every piece of its code:
// OnStateChange closes the connection once it is CONNECTED, Open reports
// Connected from within Open, and Close reports Closed from within Close.
type reentrantSDK struct {
	r      *Runner
	log    changeLog
	mu     sync.Mutex
	closed int
}

func (s *reentrantSDK) Open(_ context.Context, _ OpenRequest, report Reporter) Transport {
	report.Viable()
	report.Connected()
	return &reentrantTransport{s: s, report: report}
}

func (s *reentrantSDK) onChange(c StateChange) {
	s.log.add(c)
	if c.To == engine.Connected {
		s.r.Close()
	}
}

type reentrantTransport struct {
	s      *reentrantSDK
	report Reporter
}

func (t *reentrantTransport) RequestClose() { t.report.Closed(reconnect.Failure{}) }
func (t *reentrantTransport) Close() {
	t.report.Closed(reconnect.Failure{Kind: reconnect.FailureOther})
	t.s.mu.Lock()
	t.s.closed++
	t.s.mu.Unlock()
}

func TestInlineCallbacksThatCallBackRunAfterTheCurrentOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		s := &reentrantSDK{}
		r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: s, CheckConnectivity: NoConnectivityCheck, Inline: true, OnStateChange: s.onChange})
		if err != nil {
			t.Fatal(err)
		}
		s.r = r
		r.Connect()
		want := []engine.State{engine.Connecting, engine.Connected, engine.Closing, engine.Closed}
		if got := s.log.states(); !slices.Equal(got, want) {
			t.Fatalf("changes %v within Connect, want %v", got, want)
		}
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed != 1 || r.Active() != nil {
			t.Fatalf("%d transports closed, active %v; want 1 and nil", closed, r.Active())
		}
		cancel()
		<-r.Done()
	})
}

// A Reporter kept by a closed transport reports nothing, also once the
// runner reuses its slot for a later transport.
func TestAStaleReporterCannotReachTheTransportThatReusesItsSlot(t *testing.T) {
	for _, inline := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			d := newMemDialer()
			var log changeLog
			r, err := New(ctx, Options{Config: engine.AblyConfig(), Dialer: d, CheckConnectivity: NoConnectivityCheck, Inline: inline, OnStateChange: log.add})
			if err != nil {
				t.Fatal(err)
			}
			r.Connect()
			synctest.Wait()
			stale := d.transport(1).report
			// T1 given up and closed: its slot is released once Close has
			// returned; the reconnect (RTN20a) opens T2 in the same step,
			// and network-up restarts that attempt with T3 (RTN20c), which
			// takes T1's released slot.
			r.NetworkDown()
			synctest.Wait()
			r.NetworkUp()
			synctest.Wait()
			t2 := d.transport(3)
			if t2 == nil || t2.report.p != stale.p {
				t.Fatalf("inline %v: T3 %v does not reuse T1's slot", inline, t2)
			}
			stale.Viable()
			stale.Connected()
			stale.Fatal(reconnect.Failure{Kind: reconnect.FailureToken, Status: 401})
			synctest.Wait()
			if s := r.State(); s != engine.Connecting || log.last() != engine.Connecting {
				t.Fatalf("inline %v: state %v (last change to %v) after T1's reports, want CONNECTING", inline, s, log.last())
			}
			t2.report.Connected()
			synctest.Wait()
			if r.State() != engine.Connected || r.Active() != Transport(t2) {
				t.Fatalf("inline %v: state %v, active %v after T3's Connected", inline, r.State(), r.Active())
			}
			cancel()
			<-r.Done()
		})
	}
}

func TestTheZeroReporterIgnoresReports(t *testing.T) {
	var rp Reporter
	rp.Viable()
	rp.Connected()
	rp.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
	rp.Closed(reconnect.Failure{})
	rp.Fatal(reconnect.Failure{Kind: reconnect.FailureToken})
}
