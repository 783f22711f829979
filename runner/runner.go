package runner

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// Options configure a Runner. Config's endpoint, Dialer and
// CheckConnectivity are required (CheckWebSocket too under
// engine.PolicyWebSocketCheck): nothing defaults to a vendor's hosts.
type Options struct {
	// Config configures the engine: start from engine.Defaults() and name
	// your hosts, or from engine.AblyConfig(). New validates it.
	Config engine.Config
	// Dialer opens the SDK's transports. Required.
	Dialer Dialer
	// CheckConnectivity answers the connectivity check before a fallback
	// host (RTN17j): true when the internet is up. The runner calls it on a
	// goroutine of its own with a context that is done after
	// Config.Timeouts.HTTPRequest (httpRequestTimeout) or when the runner
	// stops; it must return soon after (Done waits for it). A check that
	// panics answered down (see PanicError). Required: your service's
	// check (HTTPConnectivityCheck with its URL), NoConnectivityCheck, or
	// AblyConnectivityCheck for Ably's service.
	CheckConnectivity func(ctx context.Context) bool
	// CheckWebSocket answers PolicyWebSocketCheck's websocket check: true
	// when a websocket to the check host opened. Called like
	// CheckConnectivity, with Config.Timeouts.RealtimeRequest. Required
	// under that policy (WebSocketHandshakeCheck with your URL, or
	// AblyWebSocketCheck for Ably's service); other policies never call it.
	CheckWebSocket func(ctx context.Context) bool
	// OnStateChange, if not nil, receives every state change in order, on
	// a goroutine of the runner's, never inside a call of the SDK's into
	// the runner (so it may take the SDK's locks and call the Runner): a
	// slow callback delays later changes, never the connection. With
	// Inline it runs inside such calls, and a slow callback delays the
	// connection's next events too (see "Inline calls" in the package
	// doc). At most MaxQueuedChanges
	// wait for it; beyond that the oldest are dropped and the next one
	// delivered says how many in StateChange.Missed. When the context is
	// done in any state but CLOSED and FAILED, the last change has
	// StateChange.Stopped set (see New); in CLOSED or FAILED no change
	// follows. Done, not a Stopped change, says that the runner has
	// stopped.
	OnStateChange func(StateChange)
	// OnPanic, if not nil, receives every panic the runner recovered from
	// in the code it calls (see PanicError for what each becomes), on the
	// goroutine that panicked (one of the runner's; with Inline, also the
	// SDK's goroutine whose call ran the code): it must return promptly. nil logs the panic and its stack with the standard
	// logger, as net/http does for a handler.
	OnPanic func(*PanicError)
	// Inline makes the runner call the SDK's code (Dialer.Open, a
	// Transport's RequestClose and Close, OnStateChange) on the goroutine
	// that brought the event, right after the engine has run, instead of
	// on goroutines of its own: no goroutine hand-off per event, for an
	// SDK whose code keeps the three promises under "Inline calls" in the
	// package doc (no lock held across its calls into the runner, a Close
	// that never waits for a reporting goroutine, an Open that returns
	// promptly). False, the default, asks nothing of the SDK's code.
	Inline bool
}

// MaxQueuedChanges is how many state changes wait for a slow
// Options.OnStateChange before the oldest are dropped.
const MaxQueuedChanges = 256

// Runner owns one connection's event loop: it runs an engine.Engine with
// real timers, the SDK's transports and the connectivity checks, and
// reports state changes. Its methods are safe for concurrent use, never
// block on the network and never call the SDK's code (unless
// Options.Inline asks them to).
//
// The engine runs on the goroutine that brings it an event (a method of
// the Runner or of a Reporter, a timer, a check's answer), one goroutine
// at a time: an event that arrives while another goroutine is running the
// engine is queued for that goroutine, so no call waits. The SDK's code
// (Dialer.Open, a Transport's methods, the checks, OnStateChange) never
// runs inside a call from the SDK, unless Options.Inline asks for it
// (the checks never do): it runs on goroutines of the runner's,
// started only while there is work, so an idle connection (connected, or
// closed) holds no goroutine of the runner's, and its timers share one
// time.AfterFunc timer.
type Runner struct {
	ctx      context.Context
	base     context.Context // ctx without its cancellation
	openCtx  context.Context // Open's: done once the stop has closed the transports
	openEnd  context.CancelFunc
	eng      *engine.Engine
	timeouts reconnect.Timeouts
	dialer   Dialer
	checkNet func(context.Context) bool
	checkWS  func(context.Context) bool
	onChange func(StateChange)
	onPanic  func(*PanicError)
	inline   bool
	done     chan struct{}
	wg       sync.WaitGroup // the effects goroutines and the checks

	mu        sync.Mutex
	inbox     []item
	running   bool  // a goroutine is running the engine (draining the inbox)
	busy      bool  // Options.Inline: a goroutine is running the engine or the SDK's code (see inlineTurn)
	turns     tally // turns begun and not ended (the engine's, then their effects)
	stopping  bool  // the context is done: no new events
	state     engine.State
	pref      reconnect.Preference
	active    Transport
	activeRep *reporter // active's
	// activeGen counts the changes of what Active returns; closingActive
	// the Close calls still to be made on transports that were active.
	activeGen     uint64
	closingActive int
	changes       []StateChange // changes[head:] wait for onChange
	head          int
	missed        int
	sending       bool        // a goroutine is calling onChange
	ops           []op        // transport calls waiting for an effects goroutine
	opsRun        []op        // the calls being made; owned by the goroutine with opsBusy
	opsBusy       bool        // a goroutine is making the transport calls
	workers       int         // goroutines in effects that will look at the queues again
	opens         []*reporter // transports waiting for their Open goroutine
	free          []*reporter // slots released by the effects, for later transports
	opening       tally       // Dialer.Open calls queued or running

	// Made once in New, so that starting these goroutines allocates nothing.
	effectsFn func()
	openFn    func()

	// Owned by the goroutine that is running the engine.
	batch      []item
	sc         *scratch // lent for the turn
	transports []liveTransport
	spare      []*reporter // released slots, taken from free
	timers     []liveTimer
	clock      *time.Timer // set for the earliest of timers
	armed      time.Time   // when clock fires; zero when stopped or fired
	activeID   engine.TransportID
}

type liveTransport struct {
	id  engine.TransportID
	rep *reporter
}

type liveTimer struct {
	id  engine.TimerID
	due time.Time
}

// item is one entry of the inbox.
type item struct {
	kind itemKind
	ev   engine.Event
}

type itemKind uint8

const (
	itemEvent  itemKind = iota // feed ev to the engine
	itemTimers                 // r.clock fired: feed the timers that are due
	itemStop                   // the context is done
)

// ErrNoDialer is returned by New when Options.Dialer is nil.
var ErrNoDialer = errors.New("runner: Options.Dialer is nil: give the Dialer that opens your transports")

// New returns a Runner in state INITIALIZED; call Connect to connect. It
// starts no goroutine. When ctx is done the runner stops: it closes every
// transport (without a CLOSE handshake; call Close first for that), stops
// every timer, cancels the checks, ignores every later call, and closes
// Done once all of its goroutines have ended (see Done for an Open that
// blocks).
//
// A stopped runner's state is final and exact: CLOSED, or FAILED when it
// had failed. A runner that was in any other state (INITIALIZED,
// CONNECTING, CONNECTED, DISCONNECTED, SUSPENDED, CLOSING) goes CLOSED
// as it stops, after closing every transport, with one last state change
// to OnStateChange: To CLOSED, Reason engine.ReasonClosed, Stopped true.
// State reports CLOSED from then on.
//
// New returns the engine's *reconnect.FieldError for an invalid
// Options.Config, a *reconnect.FieldError naming a missing check, or
// ErrNoDialer.
func New(ctx context.Context, o Options) (*Runner, error) {
	if o.Dialer == nil {
		return nil, ErrNoDialer
	}
	cfg := o.Config
	eng, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := o.checkChecks(); err != nil {
		return nil, err
	}
	r := &Runner{eng: eng, timeouts: cfg.Timeouts, dialer: o.Dialer, checkNet: o.CheckConnectivity,
		checkWS: o.CheckWebSocket, onChange: o.OnStateChange, onPanic: o.OnPanic, inline: o.Inline, done: make(chan struct{}), pref: eng.Preference()}
	if r.checkWS == nil { // never called: the policy asks for no websocket check
		r.checkWS = NoConnectivityCheck
	}
	r.ctx, r.base = ctx, context.WithoutCancel(ctx)
	r.openCtx, r.openEnd = context.WithCancel(r.base)
	r.effectsFn = r.runEffects
	r.openFn = r.openNext
	context.AfterFunc(ctx, r.shutdown)
	return r, nil
}

// Connect asks to connect (RTN11): from INITIALIZED, CLOSED, FAILED or
// CLOSING (RTN11b) it starts afresh; from DISCONNECTED or SUSPENDED it
// connects now.
func (r *Runner) Connect() { r.post(engine.Event{Kind: engine.EventConnect}) }

// Close asks to close (RTN12): a connected connection goes CLOSING, the
// runner calls RequestClose on the active transport, and the connection
// goes CLOSED when the transport reports Closed (or after
// realtimeRequestTimeout); a connecting one goes CLOSING and lets its
// transports in flight finish, calling RequestClose on the one that
// connects (RTN12f; CLOSED at once under PolicyWebSocketCheck); an
// INITIALIZED, DISCONNECTED or SUSPENDED one goes CLOSED at once, and a
// FAILED one stays FAILED. The runner keeps working: Connect connects
// again, also while CLOSING (RTN11b). To stop the runner itself, cancel
// its context.
func (r *Runner) Close() { r.post(engine.Event{Kind: engine.EventClose}) }

// NetworkUp tells the runner the OS says the network is available (RTN20b,
// RTN20c).
func (r *Runner) NetworkUp() { r.post(engine.Event{Kind: engine.EventNetworkUp}) }

// NetworkDown tells the runner the OS says the network is gone (RTN20a):
// a connected or connecting connection goes DISCONNECTED and reconnects at
// once, as after a drop.
func (r *Runner) NetworkDown() { r.post(engine.Event{Kind: engine.EventNetworkDown}) }

// Fatal reports an error no retry can fix (for example from the auth
// layer): the connection goes FAILED.
func (r *Runner) Fatal(f reconnect.Failure) {
	r.post(engine.Event{Kind: engine.EventFatal, Failure: f})
}

// Active returns the transport messages go through: the one the engine
// last activated, or nil when there is none (not CONNECTED, or CLOSING
// after it closed). The SDK type-asserts it to its own type to send.
// Active never returns a transport the runner is to close, and never a
// new one before Close has returned on every transport that was active
// before: when the engine replaces the active transport (an upgrade, or a
// reconnect that connects before the dropped transport is closed), Active
// returns nil, also while CONNECTED, until that Close has returned, which
// is as long as the SDK's Close takes.
func (r *Runner) Active() Transport {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active
}

// State returns the connection state after the last event the runner
// processed; once the runner has stopped, CLOSED or FAILED (see New).
// After a call such as Connect or Close returns, State shows its effect
// unless another goroutine was running the engine (or, with Inline, the
// SDK's code) at the time, which then processes the call's event a moment
// later: to act on a state, follow OnStateChange rather than reading State
// after a call.
func (r *Runner) State() engine.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state
}

// Preference returns the engine's transport preference after the last event
// the runner processed: persist it (Preference.MarshalText) and pass it
// back in Options.Config.Preference to the next runner, so the next process
// starts on the transport that last connected (see reconnect.Preference).
func (r *Runner) Preference() reconnect.Preference {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pref
}

// Done returns a channel that is closed once the runner has stopped (its
// context is done), has closed every transport whose Open has returned and
// delivered its last state change, and every goroutine it started has
// ended: the checks, the calls to the transports and the delivery of
// state changes. A check
// function or an OnStateChange callback that never returns keeps it open.
//
// Done also waits for every Dialer.Open still running when the runner
// stopped (its context is done by then, and the runner closes the
// transport it returns as soon as it returns), but at most
// Config.Timeouts.RealtimeRequest (realtimeRequestTimeout): an Open that
// ignores its context and blocks longer does not hold Done, and its
// transport is closed when it returns, after Done.
func (r *Runner) Done() <-chan struct{} { return r.done }

// post feeds ev to the engine from one of the SDK's goroutines (see turn).
func (r *Runner) post(ev engine.Event) {
	r.mu.Lock()
	r.feed(false, ev)
}

// postOwn is post from one of the runner's own goroutines.
func (r *Runner) postOwn(ev engine.Event) {
	r.mu.Lock()
	r.feed(true, ev)
}

// feed queues evs for the engine, unless the runner is stopping, and runs
// it (see turn; own: on a goroutine of the runner's). r.mu is held, and is
// released on return.
func (r *Runner) feed(own bool, evs ...engine.Event) {
	if r.stopping || r.ctx.Err() != nil {
		r.mu.Unlock()
		return
	}
	for _, ev := range evs {
		r.inbox = append(r.inbox, item{kind: itemEvent, ev: ev})
	}
	r.turn(own)
}

// shutdown runs once the context is done: it queues the stop, waits for
// every goroutine of the runner's and closes Done.
func (r *Runner) shutdown() {
	r.mu.Lock()
	r.stopping = true
	r.inbox = append(r.inbox, item{kind: itemStop})
	if r.inline {
		r.inlineTurn(true)
	} else {
		r.turn(true)
	}
	r.mu.Lock()
	turns := r.turns.ended() // another goroutine's turn: it starts every goroutine it will
	r.mu.Unlock()
	if turns != nil {
		<-turns
	}
	r.wg.Wait()
	r.openEnd() // every transport whose Open returned is closed
	// The stop gave up every transport whose Open is still running; a
	// well-behaved Open returns soon (its context is done) and its
	// transport is closed then. Wait for those, but never longer than
	// realtimeRequestTimeout: an Open that ignores its context does not
	// hold Done.
	r.mu.Lock()
	end := r.opening.ended()
	r.mu.Unlock()
	if end != nil {
		t := time.NewTimer(r.timeouts.RealtimeRequest)
		select {
		case <-end:
		case <-t.C:
		}
		t.Stop()
	}
	close(r.done)
}
