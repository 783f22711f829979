package runner_test

// These tests use the runner only through its exported API and check, one
// at a time, what its documentation promises about Options.Inline and about
// the Reporter value: where and when the SDK's code runs, callbacks that
// call back into the runner, concurrent use, stale Reporters, the context
// given to Dialer.Open, and panics.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/runner"
)

// extGoID returns the calling goroutine's ID, read from its stack header.
func extGoID() uint64 {
	var b [64]byte
	n := runtime.Stack(b[:], false)
	s := bytes.TrimPrefix(b[:n], []byte("goroutine "))
	if i := bytes.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	id, err := strconv.ParseUint(string(s), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("cannot parse goroutine ID from %q", b[:n]))
	}
	return id
}

// extGoroutinesCreated is how many goroutines the process has created so far.
func extGoroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		panic("metric /sched/goroutines-created:goroutines not supported")
	}
	return s[0].Value.Uint64()
}

type extCtxKey struct{}

// extSDK is a fake SDK: a Dialer of in-memory transports and the callbacks,
// recording where and when the runner calls them.
type extSDK struct {
	t *testing.T

	mu         sync.Mutex
	transports []*extTransport
	changes    []runner.StateChange
	changeGIDs []uint64
	panics     []*runner.PanicError
	nesting    int      // times SDK code started inside SDK code on one goroutine
	nested     []string // the first few of them, outermost first

	depth    sync.Map // goroutine ID → *int32, SDK code running on it
	inChange atomic.Int32
	overlap  atomic.Int32 // OnStateChange calls that overlapped another

	r *runner.Runner

	// Hooks, set before the runner starts.
	onOpen         func(tr *extTransport) // inside Open, before it returns
	onChange       func(c runner.StateChange)
	onRequestClose func(tr *extTransport)
	onClose        func(tr *extTransport)
}

type extTransport struct {
	sdk    *extSDK
	req    runner.OpenRequest
	rep    runner.Reporter
	ctx    context.Context
	openG  uint64
	closeG atomic.Uint64

	opened         atomic.Bool // Open has returned
	closes         atomic.Int32
	requestCloses  atomic.Int32
	rcAfterClose   atomic.Bool
	inCall         atomic.Int32 // RequestClose or Close running
	callOverlap    atomic.Bool  // two of them ran at once
	ctxDoneAtClose atomic.Bool
}

type extFrame struct {
	depth int32
	names []string
}

// enter records that the SDK's code name starts on this goroutine; the
// returned func records that it ended.
func (s *extSDK) enter(name string) func() {
	g := extGoID()
	v, _ := s.depth.LoadOrStore(g, &extFrame{})
	f := v.(*extFrame) // only this goroutine touches its frame
	f.depth++
	f.names = append(f.names, name)
	if f.depth > 1 {
		s.mu.Lock()
		s.nesting++
		if len(s.nested) < 5 {
			s.nested = append(s.nested, fmt.Sprint(f.names))
		}
		s.mu.Unlock()
	}
	return func() {
		f.depth--
		f.names = f.names[:len(f.names)-1]
	}
}

func (s *extSDK) Open(ctx context.Context, req runner.OpenRequest, rep runner.Reporter) runner.Transport {
	defer s.enter(fmt.Sprintf("Open(%d)", req.ID))()
	tr := &extTransport{sdk: s, req: req, rep: rep, ctx: ctx, openG: extGoID()}
	s.mu.Lock()
	s.transports = append(s.transports, tr)
	s.mu.Unlock()
	if s.onOpen != nil {
		s.onOpen(tr)
	}
	tr.opened.Store(true)
	return tr
}

func (tr *extTransport) RequestClose() {
	defer tr.sdk.enter(fmt.Sprintf("RequestClose(%d)", tr.req.ID))()
	if tr.inCall.Add(1) > 1 {
		tr.callOverlap.Store(true)
	}
	defer tr.inCall.Add(-1)
	tr.requestCloses.Add(1)
	if tr.closes.Load() > 0 {
		tr.rcAfterClose.Store(true)
	}
	if tr.sdk.onRequestClose != nil {
		tr.sdk.onRequestClose(tr)
	}
}

func (tr *extTransport) Close() {
	defer tr.sdk.enter(fmt.Sprintf("Close(%d)", tr.req.ID))()
	if tr.inCall.Add(1) > 1 {
		tr.callOverlap.Store(true)
	}
	defer tr.inCall.Add(-1)
	tr.closeG.Store(extGoID())
	if tr.ctx.Err() != nil {
		tr.ctxDoneAtClose.Store(true)
	}
	tr.closes.Add(1)
	if tr.sdk.onClose != nil {
		tr.sdk.onClose(tr)
	}
}

func (s *extSDK) onStateChange(c runner.StateChange) {
	defer s.enter(fmt.Sprintf("OnStateChange(%v→%v)", c.From, c.To))()
	if s.inChange.Add(1) > 1 {
		s.overlap.Add(1)
	}
	defer s.inChange.Add(-1)
	s.mu.Lock()
	s.changes = append(s.changes, c)
	s.changeGIDs = append(s.changeGIDs, extGoID())
	s.mu.Unlock()
	if s.onChange != nil {
		s.onChange(c)
	}
}

func (s *extSDK) onPanic(p *runner.PanicError) {
	s.mu.Lock()
	s.panics = append(s.panics, p)
	s.mu.Unlock()
}

func (s *extSDK) snapshot() ([]runner.StateChange, []uint64, []*extTransport) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]runner.StateChange(nil), s.changes...),
		append([]uint64(nil), s.changeGIDs...),
		append([]*extTransport(nil), s.transports...)
}

func (s *extSDK) transport(i int) *extTransport {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.transports) {
		s.t.Fatalf("transport %d not opened; %d opened", i+1, len(s.transports))
	}
	return s.transports[i]
}

func (s *extSDK) numTransports() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.transports)
}

func extConfig() engine.Config {
	cfg := engine.DefaultConfig()
	cfg.Transports = reconnect.Availability{WebSocket: true}
	return cfg
}

// newExtSDK makes the fake SDK and its runner; setup may set hooks before
// the runner is made.
func newExtSDK(t *testing.T, ctx context.Context, inline bool, setup func(s *extSDK)) *extSDK {
	t.Helper()
	s := &extSDK{t: t}
	if setup != nil {
		setup(s)
	}
	r, err := runner.New(ctx, runner.Options{
		Config:            extConfig(),
		Dialer:            s,
		CheckConnectivity: func(context.Context) bool { return true },
		OnStateChange:     s.onStateChange,
		OnPanic:           s.onPanic,
		Inline:            inline,
	})
	if err != nil {
		t.Fatal(err)
	}
	s.r = r
	return s
}

// checkChain checks that changes form one chain from INITIALIZED, each From
// the previous To, with at most one Stopped change, the last.
func checkChain(t *testing.T, changes []runner.StateChange) {
	t.Helper()
	prev := engine.Initialized
	for i, c := range changes {
		if c.From != prev && c.Missed == 0 {
			t.Errorf("change %d: %v → %v, but the previous change went to %v", i, c.From, c.To, prev)
		}
		if c.Stopped && i != len(changes)-1 {
			t.Errorf("change %d is Stopped but not the last of %d", i, len(changes))
		}
		prev = c.To
	}
}

func states(changes []runner.StateChange) []engine.State {
	var out []engine.State
	for _, c := range changes {
		out = append(out, c.To)
	}
	return out
}

func sameStates(a, b []engine.State) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func modeName(inline bool) string {
	if inline {
		return "inline"
	}
	return "default"
}

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
			if got := states(changes[n:]); !sameStates(got, wantStates) {
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
				if got := states(changes); !sameStates(got, want) {
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
						// Given up while connecting.
						s.r.Close()
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
					s.r.Close() // closes the transport mid-run
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
		s.r.Close() // closes transport 3 while it connects: its Close panics
		panicClose.Store(false)
		lastPanic("Transport.Close", 3)
		s.r.Connect()
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
	if got, want := states(changes), []engine.State{engine.Connecting, engine.Closed}; !sameStates(got[:min(2, len(got))], want) {
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
				if got := states(changes); !sameStates(got, want) {
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
// Reporter runs after that code returns, never inside it: "That code may
// call the Runner and the Reporters: what it causes runs after it returns,
// on the same goroutine, never inside it."
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
