package runner_test

// Where and when the SDK's code runs with Options.Inline.

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// With Inline, Open, OnStateChange, RequestClose and Close run inside the
// call that caused them, on the calling goroutine, and no goroutine is
// started: their effects are there when the call returns.
func TestExternalInlineRunsTheSDKsCodeInsideTheCallOnItsGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		s := newExtSDK(t, ctx, true, nil)
		me := extGoID()
		runtime.GC() // the GC's workers exist before counting goroutines

		step := func(name string, call func(), wantStates []engine.State) {
			t.Helper()
			prior, _, _ := s.snapshot()
			n := len(prior)
			before := extGoroutinesCreated()
			call()
			if d := extGoroutinesCreated() - before; d != 0 {
				t.Errorf("%s: %d goroutines started, want none", name, d)
			}
			changes, gids, _ := s.snapshot()
			if got := states(changes[n:]); !slices.Equal(got, wantStates) {
				t.Errorf("%s: changes delivered within the call %v, want %v", name, got, wantStates)
			}
			for i := n; i < len(gids); i++ {
				if gids[i] != me {
					t.Errorf("%s: change %d delivered on goroutine %d, want the caller's %d", name, i, gids[i], me)
				}
			}
			if len(wantStates) > 0 && s.r.State() != wantStates[len(wantStates)-1] {
				t.Errorf("%s: State() = %v after the call, want %v", name, s.r.State(), wantStates[len(wantStates)-1])
			}
		}

		step("Connect", s.r.Connect, []engine.State{engine.Connecting})
		if s.numTransports() != 1 {
			t.Fatalf("Open called %d times within Connect, want 1", s.numTransports())
		}
		tr := s.transport(0)
		if tr.openG != me {
			t.Errorf("Open ran on goroutine %d, want the caller's %d", tr.openG, me)
		}
		step("Viable", tr.rep.Viable, nil)
		step("Connected", tr.rep.Connected, []engine.State{engine.Connected})
		if a := s.r.Active(); a != runner.Transport(tr) {
			t.Errorf("Active() = %v after Connected returned, want the transport", a)
		}
		step("Close", s.r.Close, []engine.State{engine.Closing})
		if n := tr.requestCloses.Load(); n != 1 {
			t.Errorf("RequestClose called %d times within Close, want 1", n)
		}
		step("Closed", func() { tr.rep.Closed(reconnect.Failure{}) }, []engine.State{engine.Closed})
		if n := tr.closes.Load(); n != 1 {
			t.Errorf("Close called %d times within the Closed report, want 1", n)
		}
		if g := tr.closeG.Load(); g != me {
			t.Errorf("Close ran on goroutine %d, want the caller's %d", g, me)
		}
		// A check of the measuring itself: a call that does start a
		// goroutine is seen.
		before := extGoroutinesCreated()
		done := make(chan struct{})
		go close(done)
		<-done
		if extGoroutinesCreated() == before {
			t.Fatal("the goroutine count does not see a goroutine started")
		}
	})
}

// Callbacks that call back into the Runner or a Reporter do not deadlock,
// and what they cause runs after they return (never inside them): Close
// from OnStateChange on CONNECTED, Closed from inside RequestClose, Connect
// from OnStateChange on CLOSED, reports from within Open. Every change is
// delivered once, in order, as one chain.
func TestExternalCallbacksThatCallBackRunAfterTheyReturn(t *testing.T) {
	for _, inline := range []bool{true, false} {
		t.Run(modeName(inline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				reconnects := 0
				s := newExtSDK(t, ctx, inline, func(s *extSDK) {
					s.onOpen = func(tr *extTransport) {
						if tr.req.ID == 2 {
							// The second transport connects from within Open.
							tr.rep.Viable()
							tr.rep.Connected()
						}
					}
					s.onChange = func(c runner.StateChange) {
						switch {
						case c.To == engine.Connected && c.From == engine.Connecting && reconnects == 0:
							s.r.Close()
						case c.To == engine.Closed && !c.Stopped && reconnects == 0:
							reconnects++
							s.r.Connect()
						}
					}
					s.onRequestClose = func(tr *extTransport) {
						tr.rep.Closed(reconnect.Failure{})
						// A report after Closed, from the same place, counts for nothing.
						tr.rep.Fatal(reconnect.Failure{Kind: reconnect.FailureToken})
					}
					s.onClose = func(tr *extTransport) {
						// Reports from within Close, on the transport being closed.
						tr.rep.Closed(reconnect.Failure{Kind: reconnect.FailureUnreachable})
						tr.rep.Fatal(reconnect.Failure{Kind: reconnect.FailureToken})
					}
				})
				me := extGoID()
				s.r.Connect()
				synctest.Wait()
				tr1 := s.transport(0)
				tr1.rep.Viable()
				tr1.rep.Connected() // → CONNECTED → (Close) CLOSING → (Closed) CLOSED → (Connect) CONNECTING → CONNECTED
				synctest.Wait()

				changes, gids, trs := s.snapshot()
				want := []engine.State{engine.Connecting, engine.Connected, engine.Closing, engine.Closed, engine.Connecting, engine.Connected}
				if got := states(changes); !slices.Equal(got, want) {
					t.Fatalf("changes %v, want %v", got, want)
				}
				checkChain(t, changes)
				if n := s.overlap.Load(); n != 0 {
					t.Errorf("OnStateChange overlapped itself %d times", n)
				}
				if len(trs) != 2 {
					t.Fatalf("%d transports opened, want 2", len(trs))
				}
				if n := tr1.requestCloses.Load(); n != 1 {
					t.Errorf("RequestClose on transport 1 called %d times, want 1", n)
				}
				if n := tr1.closes.Load(); n != 1 {
					t.Errorf("Close on transport 1 called %d times, want 1", n)
				}
				if n := trs[1].closes.Load(); n != 0 {
					t.Errorf("Close on the connected transport 2 called %d times, want 0", n)
				}
				if s.r.State() != engine.Connected || s.r.Active() != runner.Transport(trs[1]) {
					t.Errorf("State() = %v, Active() = %v; want CONNECTED on transport 2", s.r.State(), s.r.Active())
				}
				if inline {
					for i, g := range gids[1:] {
						if g != me {
							t.Errorf("change %d delivered on goroutine %d, want the reporting goroutine %d", i+1, g, me)
						}
					}
					if trs[1].openG != me || tr1.closeG.Load() != me {
						t.Errorf("Open of transport 2 on %d, Close of transport 1 on %d; want both on %d", trs[1].openG, tr1.closeG.Load(), me)
					}
				}
				cancel()
				<-s.r.Done()
				changes, _, _ = s.snapshot()
				if last := changes[len(changes)-1]; !last.Stopped || last.To != engine.Closed {
					t.Errorf("last change %+v, want the Stopped change to CLOSED", last)
				}
				if len(s.panics) != 0 {
					t.Errorf("panics: %v", s.panics)
				}
			})
		})
	}
}

// With Inline, a call made while another goroutine is inside the SDK's
// code does not wait for it ("no call waits for another"), and the change
// it causes is delivered after the one in progress, never beside it.
func TestExternalInlineACallNeverWaitsForASlowCallback(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	entered := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	s := newExtSDK(t, ctx, true, func(s *extSDK) {
		s.onChange = func(c runner.StateChange) {
			if c.To == engine.Connecting {
				once.Do(func() {
					close(entered)
					<-release
				})
			}
		}
	})
	connectDone := make(chan struct{})
	go func() {
		defer close(connectDone)
		s.r.Connect()
	}()
	<-entered
	// Another goroutine closes meanwhile: it must return without waiting
	// for the callback in progress.
	closeDone := make(chan struct{})
	go func() {
		defer close(closeDone)
		s.r.Close()
		s.r.NetworkDown()
		s.r.NetworkUp()
	}()
	select {
	case <-closeDone:
	case <-time.After(10 * time.Second):
		t.Error("Close waited for an OnStateChange running on another goroutine")
	}
	close(release)
	<-connectDone
	<-closeDone
	cancel()
	<-s.r.Done()
	changes, _, trs := s.snapshot()
	if got, want := states(changes), []engine.State{engine.Connecting, engine.Closing}; !slices.Equal(got[:min(2, len(got))], want) { // RTN12f
		t.Errorf("changes %v, want to begin with %v", got, want)
	}
	checkChain(t, changes)
	if n := s.overlap.Load(); n != 0 {
		t.Errorf("OnStateChange overlapped itself %d times", n)
	}
	for _, tr := range trs {
		if n := tr.closes.Load(); n != 1 {
			t.Errorf("transport %d closed %d times, want once", tr.req.ID, n)
		}
	}
}

// With Inline, cancelling the runner's context from inside OnStateChange
// stops the runner: the Stopped change comes after the one in progress,
// every transport is closed once, and Done closes.
func TestExternalInlineCancelFromInsideOnStateChange(t *testing.T) {
	for _, inline := range []bool{true, false} {
		t.Run(modeName(inline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				s := newExtSDK(t, ctx, inline, func(s *extSDK) {
					s.onChange = func(c runner.StateChange) {
						if c.To == engine.Connected {
							cancel()
							// Calls after the cancellation, from the callback, are ignored.
							s.r.Close()
							s.r.Connect()
						}
					}
				})
				s.r.Connect()
				synctest.Wait()
				tr := s.transport(0)
				tr.rep.Viable()
				tr.rep.Connected()
				<-s.r.Done()
				changes, _, trs := s.snapshot()
				want := []engine.State{engine.Connecting, engine.Connected, engine.Closed}
				if got := states(changes); !slices.Equal(got, want) {
					t.Fatalf("changes %v, want %v", got, want)
				}
				if !changes[2].Stopped {
					t.Errorf("last change %+v, want Stopped", changes[2])
				}
				checkChain(t, changes)
				if len(trs) != 1 || tr.closes.Load() != 1 || tr.requestCloses.Load() != 0 {
					t.Errorf("%d transports; transport 1 closed %d times, RequestClose %d times; want 1, once, never", len(trs), tr.closes.Load(), tr.requestCloses.Load())
				}
				if s.r.State() != engine.Closed {
					t.Errorf("State() = %v after Done, want CLOSED", s.r.State())
				}
			})
		})
	}
}

// With Inline, what the SDK's code causes when it calls the Runner or a
// Reporter runs after that code returns, never inside it: "the SDK's code
// may call the Runner and the Reporters, and what it causes runs after it
// returns, never inside it" (package doc, "Inline calls").
func TestExternalInlineCodeCausedByCallbacksRunsAfterThem(t *testing.T) {
	connected := func(s *extSDK) {
		s.r.Connect()
		tr := s.transport(0)
		tr.rep.Viable()
		tr.rep.Connected()
	}
	cases := []struct {
		name  string
		setup func(s *extSDK)
		drive func(s *extSDK)
	}{
		{"Close from OnStateChange", func(s *extSDK) {
			s.onChange = func(c runner.StateChange) {
				if c.To == engine.Connected {
					s.r.Close() // RequestClose must wait until the callback returns
				}
			}
		}, connected},
		{"NetworkDown from OnStateChange", func(s *extSDK) {
			s.onChange = func(c runner.StateChange) {
				if c.To == engine.Connected {
					s.r.NetworkDown() // closes the transport
				}
			}
		}, connected},
		{"Connect from OnStateChange", func(s *extSDK) {
			s.onChange = func(c runner.StateChange) {
				if c.To == engine.Closed && c.From != engine.Closing {
					s.r.Connect() // opens a transport
				}
			}
		}, func(s *extSDK) {
			s.r.Connect()
			s.r.Close()
		}},
		{"Closed from RequestClose", func(s *extSDK) {
			s.onRequestClose = func(tr *extTransport) { tr.rep.Closed(reconnect.Failure{}) }
		}, func(s *extSDK) {
			connected(s)
			s.r.Close()
		}},
		{"reports from Open", func(s *extSDK) {
			s.onOpen = func(tr *extTransport) {
				tr.rep.Viable()
				tr.rep.Connected()
			}
		}, func(s *extSDK) { s.r.Connect() }},
		{"Connect from Close", func(s *extSDK) {
			s.onClose = func(tr *extTransport) {
				if tr.req.ID == 1 {
					s.r.Connect()
				}
			}
		}, func(s *extSDK) {
			s.r.Connect()
			s.r.Close()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				s := newExtSDK(t, ctx, true, tc.setup)
				tc.drive(s)
				synctest.Wait()
				if s.nesting != 0 {
					t.Errorf("SDK code ran inside SDK code %d times (outermost first): %v", s.nesting, s.nested)
				}
				changes, _, _ := s.snapshot()
				checkChain(t, changes)
			})
		})
	}
}

// With Inline, an SDK that closes and reconnects from its callbacks (Close
// on CONNECTED, Closed from RequestClose, Connect on CLOSED, a transport
// that connects within Open) keeps going without its stack growing with
// each cycle (no recursion).
func TestExternalInlineCyclesFromCallbacksDoNotRecurse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		const cycles = 30
		var depths []int32 // the SDK's nesting depth at each CONNECTED
		var frames []int   // the goroutine's stack frames at each CONNECTED
		s := newExtSDK(t, ctx, true, func(s *extSDK) {
			s.onOpen = func(tr *extTransport) {
				tr.rep.Viable()
				tr.rep.Connected()
			}
			s.onChange = func(c runner.StateChange) {
				if c.To == engine.Connected {
					f, _ := s.depth.Load(extGoID())
					depths = append(depths, f.(*extFrame).depth)
					pc := make([]uintptr, 1024)
					frames = append(frames, runtime.Callers(0, pc))
				}
				switch {
				case c.To == engine.Connected && s.numTransports() < cycles:
					s.r.Close()
				case c.To == engine.Closed && !c.Stopped:
					s.r.Connect()
				}
			}
			s.onRequestClose = func(tr *extTransport) { tr.rep.Closed(reconnect.Failure{}) }
		})
		s.r.Connect()
		synctest.Wait()
		changes, _, trs := s.snapshot()
		checkChain(t, changes)
		if len(trs) != cycles || s.r.State() != engine.Connected {
			t.Fatalf("%d transports, State() = %v; want %d, CONNECTED", len(trs), s.r.State(), cycles)
		}
		if depths[len(depths)-1] > depths[1] {
			t.Errorf("SDK code nested deeper with each cycle: depths at CONNECTED %v", depths)
		}
		if frames[len(frames)-1] > frames[1] {
			t.Errorf("the stack grew with each cycle: frames at CONNECTED %v", frames)
		}
		t.Logf("at CONNECTED: SDK depths %v, stack frames %v", depths, frames)
	})
}
