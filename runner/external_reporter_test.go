package runner_test

// Stale Reporters, Open's context and panics in the SDK's code.

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// A Reporter kept after its transport was closed never affects a later
// transport, in either mode, however many transports came after it
// (reusing its slot); the zero Reporter ignores every report.
func TestExternalStaleReportersNeverReachALaterTransport(t *testing.T) {
	for _, inline := range []bool{true, false} {
		t.Run(modeName(inline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				s := newExtSDK(t, ctx, inline, nil)
				var stale []runner.Reporter
				for i := range 20 {
					s.r.Connect()
					synctest.Wait()
					tr := s.transport(i)
					if i%2 == 0 {
						// Connected, then closed with the CLOSE handshake.
						tr.rep.Viable()
						tr.rep.Connected()
						synctest.Wait()
						s.r.Close()
						synctest.Wait()
						tr.rep.Closed(reconnect.Failure{})
					} else {
						// Given up while connecting: CLOSING, the transport
						// goes on (RTN12f) until it fails.
						s.r.Close()
						synctest.Wait()
						tr.rep.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
					}
					synctest.Wait()
					if n := tr.closes.Load(); n != 1 {
						t.Fatalf("transport %d closed %d times, want once", tr.req.ID, n)
					}
					stale = append(stale, tr.rep)
				}
				reportAll := func() {
					for _, rep := range stale {
						rep.Viable()
						rep.Connected()
					}
					for _, rep := range stale {
						rep.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
						rep.Failed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
						rep.Fatal(reconnect.Failure{Kind: reconnect.FailureToken})
					}
					var zero runner.Reporter
					zero.Viable()
					zero.Connected()
					zero.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
					zero.Failed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
					zero.Fatal(reconnect.Failure{Kind: reconnect.FailureToken})
					synctest.Wait()
				}

				// While the next transport is connecting: nothing connects it.
				s.r.Connect()
				synctest.Wait()
				cur := s.transport(len(stale))
				before, _, _ := s.snapshot()
				reportAll()
				after, _, _ := s.snapshot()
				if len(after) != len(before) || s.r.State() != engine.Connecting {
					t.Fatalf("stale reports while CONNECTING made changes %v, State() = %v", states(after[len(before):]), s.r.State())
				}
				// While it is connected: nothing drops, closes or fails it.
				cur.rep.Viable()
				cur.rep.Connected()
				synctest.Wait()
				before, _, _ = s.snapshot()
				reportAll()
				after, _, trs := s.snapshot()
				if len(after) != len(before) || s.r.State() != engine.Connected {
					t.Fatalf("stale reports while CONNECTED made changes %v, State() = %v", states(after[len(before):]), s.r.State())
				}
				if cur.closes.Load() != 0 || s.r.Active() != runner.Transport(cur) {
					t.Errorf("the current transport: closed %d times, Active() = %v", cur.closes.Load(), s.r.Active())
				}
				if len(trs) != len(stale)+1 {
					t.Errorf("%d transports opened, want %d", len(trs), len(stale)+1)
				}
				// The current Reporter still works, and a copy of it is the same Reporter.
				cp := cur.rep
				cp.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
				synctest.Wait()
				if s.r.State() == engine.Connected && s.r.Active() == runner.Transport(cur) {
					t.Errorf("a copy of the current Reporter reporting Closed did not drop the connection")
				}
				checkChain(t, after)
			})
		})
	}
}

// Open's context is the same for every transport and carries the runner's
// context's values; it is live while the runner runs (also when a
// transport is closed mid-run, and when the stop calls Close), and done
// once the runner has stopped.
func TestExternalOpenContextIsOneAndEndsAfterTheStop(t *testing.T) {
	for _, inline := range []bool{true, false} {
		t.Run(modeName(inline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				parent := context.WithValue(t.Context(), extCtxKey{}, "v")
				ctx, cancel := context.WithCancel(parent)
				defer cancel()
				s := newExtSDK(t, ctx, inline, nil)
				for i := range 3 {
					s.r.Connect()
					synctest.Wait()
					s.r.Close() // CLOSING: the transport goes on (RTN12f)
					synctest.Wait()
					s.transport(i).rep.Failed(reconnect.Failure{Kind: reconnect.FailureRefused}) // the runner closes it mid-run: CLOSED
					synctest.Wait()
					if n := s.transport(i).closes.Load(); n != 1 {
						t.Fatalf("transport %d closed %d times, want once", i+1, n)
					}
				}
				s.r.Connect()
				synctest.Wait()
				last := s.transport(3)
				last.rep.Viable()
				last.rep.Connected()
				synctest.Wait()
				_, _, trs := s.snapshot()
				for _, tr := range trs {
					if tr.ctx != trs[0].ctx {
						t.Errorf("transport %d got another context than transport 1", tr.req.ID)
					}
					if v := tr.ctx.Value(extCtxKey{}); v != "v" {
						t.Errorf("transport %d: ctx.Value = %v, want the runner's context's value", tr.req.ID, v)
					}
					if err := tr.ctx.Err(); err != nil {
						t.Errorf("transport %d: Open's context done (%v) while the runner runs", tr.req.ID, err)
					}
				}
				cancel()
				<-s.r.Done()
				for _, tr := range trs {
					if tr.ctxDoneAtClose.Load() {
						t.Errorf("transport %d: Open's context done when Close was called", tr.req.ID)
					}
					if n := tr.closes.Load(); n != 1 {
						t.Errorf("transport %d closed %d times, want once", tr.req.ID, n)
					}
				}
				if trs[0].ctx.Err() == nil {
					t.Error("Open's context not done after Done")
				}
			})
		})
	}
}

// With Inline, panics in the SDK's code are recovered as documented: the
// call that ran it returns, OnPanic receives a *PanicError, and the runner
// goes on working.
func TestExternalInlinePanicsAreRecovered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		boom := errors.New("boom")
		var panicOpen, panicChange, panicRC, panicClose atomic.Bool
		s := newExtSDK(t, ctx, true, func(s *extSDK) {
			s.onOpen = func(*extTransport) {
				if panicOpen.Load() {
					panic(boom)
				}
			}
			s.onChange = func(runner.StateChange) {
				if panicChange.Load() {
					panic(boom)
				}
			}
			s.onRequestClose = func(*extTransport) {
				if panicRC.Load() {
					panic(boom)
				}
			}
			s.onClose = func(*extTransport) {
				if panicClose.Load() {
					panic(boom)
				}
			}
		})
		me := extGoID()
		lastPanic := func(where string, id engine.TransportID) {
			t.Helper()
			s.mu.Lock()
			defer s.mu.Unlock()
			if len(s.panics) == 0 {
				t.Fatalf("%s: no panic reached OnPanic", where)
			}
			p := s.panics[len(s.panics)-1]
			if p.Where != where || p.Transport != id || !errors.Is(p, boom) || len(p.Stack) == 0 {
				t.Errorf("OnPanic got %+v, want Where %q, Transport %d, the value and a stack", p, where, id)
			}
		}

		// Dialer.Open: the transport fails with FailureOther.
		panicOpen.Store(true)
		s.r.Connect()
		panicOpen.Store(false)
		lastPanic("Dialer.Open", 1)
		changes, _, _ := s.snapshot()
		if l := changes[len(changes)-1]; l.To != engine.Disconnected || l.Failure.Kind != reconnect.FailureOther {
			t.Errorf("after a panicking Open: last change %v → %v (%v), want DISCONNECTED with FailureOther", l.From, l.To, l.Failure)
		}

		// OnStateChange: that change counts as delivered, the next comes.
		panicChange.Store(true)
		s.r.Connect() // → CONNECTING, panics
		panicChange.Store(false)
		lastPanic("OnStateChange", 0)
		tr := s.transport(1)
		tr.rep.Viable()
		tr.rep.Connected()
		changes, _, _ = s.snapshot()
		if l := changes[len(changes)-1]; l.To != engine.Connected || l.From != engine.Connecting {
			t.Errorf("after a panicking OnStateChange: last change %v → %v, want CONNECTING → CONNECTED", l.From, l.To)
		}

		// RequestClose: the transport closed with FailureOther, CLOSING goes CLOSED at once.
		panicRC.Store(true)
		s.r.Close()
		panicRC.Store(false)
		lastPanic("Transport.RequestClose", 2)
		if s.r.State() != engine.Closed || tr.closes.Load() != 1 {
			t.Errorf("after a panicking RequestClose: State() = %v, Close called %d times; want CLOSED, once", s.r.State(), tr.closes.Load())
		}

		// Transport.Close: counts as closed; the runner goes on.
		panicClose.Store(true)
		s.r.Connect()
		s.r.Close()   // CLOSING: transport 3 goes on while it connects (RTN12f)
		s.r.Connect() // a new connection (RTN11b): transport 3 is closed, its Close panics
		panicClose.Store(false)
		lastPanic("Transport.Close", 3)
		tr4 := s.transport(3)
		tr4.rep.Connected()
		if s.r.State() != engine.Connected || s.r.Active() != runner.Transport(tr4) {
			t.Errorf("after a panicking Close: State() = %v, Active() = %v; want CONNECTED on transport 4", s.r.State(), s.r.Active())
		}
		changes, gids, _ := s.snapshot()
		for i, g := range gids {
			if g != me {
				t.Errorf("change %d delivered on goroutine %d, want the caller's %d", i, g, me)
			}
		}
		checkChain(t, changes)
		cancel()
		<-s.r.Done()
	})
}
