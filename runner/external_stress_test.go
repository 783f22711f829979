package runner_test

// Many goroutines at once, with and without Options.Inline.

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// Many goroutines calling the Runner and the Reporters at once, with
// callbacks that call back: no race, no panic, one chain of changes never
// delivered two at a time, every transport closed exactly once after the
// cancellation, Open's context done only after that, Done closes and no
// goroutine is left (synctest.Test fails otherwise).
func TestExternalInlineConcurrentCallsAndReports(t *testing.T) {
	for _, inline := range []bool{true, false} {
		t.Run(modeName(inline), func(t *testing.T) {
			for seed := range uint64(4) {
				synctest.Test(t, func(t *testing.T) { extStress(t, inline, seed) })
			}
		})
	}
}

func extStress(t *testing.T, inline bool, seed uint64) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup // the transports' own goroutines
	s := newExtSDK(t, ctx, inline, func(s *extSDK) {
		s.onOpen = func(tr *extTransport) {
			switch tr.req.ID % 4 {
			case 0:
				tr.rep.Viable()
				tr.rep.Connected()
			case 1:
				// A transport whose own goroutine connects a moment later.
				wg.Go(func() {
					time.Sleep(time.Duration(tr.req.ID%7) * 100 * time.Millisecond)
					tr.rep.Viable()
					tr.rep.Connected()
					time.Sleep(time.Duration(tr.req.ID%5) * time.Second)
					tr.rep.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
				})
			}
		}
		s.onChange = func(c runner.StateChange) {
			switch {
			case c.To == engine.Closed && !c.Stopped && c.At.UnixNano()%3 == 0:
				s.r.Connect()
			case c.To == engine.Connected && c.At.UnixNano()%5 == 0:
				s.r.NetworkDown()
			case c.To == engine.Disconnected:
				s.r.NetworkUp()
			}
		}
		s.onRequestClose = func(tr *extTransport) {
			if tr.req.ID%2 == 0 {
				tr.rep.Closed(reconnect.Failure{})
			}
		}
	})
	var workers sync.WaitGroup
	for w := range 4 {
		workers.Go(func() {
			rng := rand.New(rand.NewPCG(seed, uint64(w)))
			for range 150 {
				switch rng.IntN(12) {
				case 0:
					s.r.Connect()
				case 1:
					s.r.Close()
				case 2:
					s.r.NetworkDown()
				case 3:
					s.r.NetworkUp()
				case 4:
					if rng.IntN(10) == 0 {
						s.r.Fatal(reconnect.Failure{Kind: reconnect.FailureToken})
					}
				case 5:
					time.Sleep(time.Duration(rng.IntN(3000)) * time.Millisecond)
				case 6:
					_ = s.r.State()
					_ = s.r.Active()
					_ = s.r.Preference()
				default:
					_, _, trs := s.snapshot()
					if len(trs) == 0 {
						continue
					}
					// Mostly the newest transports, sometimes any old one.
					var tr *extTransport
					if rng.IntN(4) == 0 {
						tr = trs[rng.IntN(len(trs))]
					} else {
						tr = trs[max(0, len(trs)-1-rng.IntN(2))]
					}
					switch rng.IntN(6) {
					case 0, 1:
						tr.rep.Viable()
					case 2, 3:
						tr.rep.Connected()
					case 4:
						tr.rep.Failed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
					case 5:
						tr.rep.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
					}
				}
			}
		})
	}
	workers.Wait()
	// Open's context is live at Close for the transports whose Open had
	// returned when the runner stopped; one still running then sees it done.
	openedAtStop := map[*extTransport]bool{}
	_, _, trs := s.snapshot()
	for _, tr := range trs {
		openedAtStop[tr] = tr.opened.Load()
	}
	cancel()
	<-s.r.Done()

	var changes []runner.StateChange
	changes, _, trs = s.snapshot()
	checkChain(t, changes)
	if n := s.overlap.Load(); n != 0 {
		t.Errorf("OnStateChange overlapped itself %d times", n)
	}
	if len(s.panics) != 0 {
		t.Errorf("panics reached OnPanic: %v", s.panics)
	}
	if len(changes) == 0 {
		t.Fatal("no state change")
	}
	last := changes[len(changes)-1]
	if final := s.r.State(); final != engine.Closed && final != engine.Failed {
		t.Errorf("State() = %v after Done, want CLOSED or FAILED", final)
	} else if final != last.To {
		t.Errorf("State() = %v after Done, but the last change went to %v", final, last.To)
	}
	for _, tr := range trs {
		if n := tr.closes.Load(); n != 1 {
			t.Errorf("transport %d closed %d times, want once", tr.req.ID, n)
		}
		if tr.rcAfterClose.Load() {
			t.Errorf("transport %d: RequestClose after Close", tr.req.ID)
		}
		if tr.callOverlap.Load() {
			t.Errorf("transport %d: RequestClose and Close ran at once (the doc: one call at a time)", tr.req.ID)
		}
		if tr.ctxDoneAtClose.Load() && openedAtStop[tr] {
			t.Errorf("transport %d: Open's context was done when Close was called", tr.req.ID)
		}
		if tr.ctx.Err() == nil {
			t.Errorf("transport %d: Open's context not done after Done", tr.req.ID)
		}
	}
	// A stopped runner ignores every later call.
	n := len(changes)
	opened := len(trs)
	s.r.Connect()
	s.r.Close()
	wg.Wait()
	synctest.Wait()
	changes, _, trs = s.snapshot()
	if len(changes) != n || len(trs) != opened {
		t.Errorf("calls after Done made %d changes and opened %d transports", len(changes)-n, len(trs)-opened)
	}
	t.Logf("seed %d: %d transports, %d changes, final %v", seed, len(trs), len(changes), last.To)
}
