package runner_test

// These tests use the runner only through its exported API and check, one
// at a time, what its documentation promises.
// The SDK these external tests drive the runner with: in-memory
// transports that record where and when the runner calls them.

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

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
	cfg := engine.AblyConfig()
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

func modeName(inline bool) string {
	if inline {
		return "inline"
	}
	return "default"
}
