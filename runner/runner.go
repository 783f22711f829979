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
	// host (RTN17j): true when the internet is up. Its context is done
	// after Config.Timeouts.HTTPRequest (httpRequestTimeout) or when the
	// runner stops, and it must return soon after (Done waits for it). A
	// check that panics answered down (see PanicError). Required: your
	// service's check (HTTPConnectivityCheck with its URL),
	// NoConnectivityCheck, or AblyConnectivityCheck for Ably's service.
	CheckConnectivity func(ctx context.Context) bool
	// CheckWebSocket answers PolicyWebSocketCheck's websocket check: true
	// when a websocket to the check host opened. Called like
	// CheckConnectivity, with Config.Timeouts.RealtimeRequest. Required
	// under that policy (WebSocketHandshakeCheck with your URL, or
	// AblyWebSocketCheck for Ably's service); other policies never call it.
	CheckWebSocket func(ctx context.Context) bool
	// RenewToken, if not nil, obtains a new token for the connection (an
	// authCallback, an authUrl request), and New sets
	// Config.CanRenewToken: after a token error (a Failure of kind
	// reconnect.FailureToken, RTN14b, RTN15h) the engine asks for one
	// renewal and the runner calls RenewToken on a goroutine of its own,
	// with a context done after Config.Timeouts.Renewal
	// (realtimeRequestTimeout unless set, RSA4c) or when the runner
	// stops, carrying the renewal's ID (CheckIDFrom). It returns nil once the SDK holds
	// the new token, which the next transports use: the runner then
	// connects again at once. An error is a renewal that failed, mapped
	// by RenewalFailure: a *StatusError with Status 403 in its chain makes
	// the connection FAILED (RSA4d); anything else makes it DISCONNECTED
	// with a retry. A RenewToken that panics failed (see PanicError). nil
	// leaves Config.CanRenewToken as configured: without a means to renew,
	// a token error makes the connection FAILED (RTN15h1); with it set and
	// no RenewToken, every renewal fails with ErrNoRenewToken.
	RenewToken func(ctx context.Context) error
	// OnStateChange, if not nil, receives every state change, one at a
	// time and in order (on which goroutine: see "Goroutines" and "Inline
	// calls" in the package doc). At most MaxQueuedChanges wait for it;
	// beyond that the oldest are dropped and the next one delivered says
	// how many in StateChange.Missed. When the context is done in any
	// state but CLOSED and FAILED, the last change has StateChange.Stopped
	// set (see New); in CLOSED or FAILED no change follows. Done, not a
	// Stopped change, says that the runner has stopped.
	OnStateChange func(StateChange)
	// OnPanic, if not nil, receives every panic the runner recovered from
	// in the code it calls (see PanicError for what each becomes), on the
	// goroutine that panicked: it must return promptly. nil logs the panic
	// and its stack with the standard logger, as net/http does for a
	// handler.
	OnPanic func(*PanicError)
	// Inline makes the runner call the SDK's code (Dialer.Open, a
	// Transport's RequestClose and Close, OnStateChange) on the goroutine
	// that brought the event instead of on goroutines of its own, for an
	// SDK whose code keeps the promises listed under "Inline calls" in the
	// package doc. False, the default, asks nothing of the SDK's code.
	Inline bool
}

// MaxQueuedChanges is how many state changes wait for a slow
// Options.OnStateChange before the oldest are dropped.
const MaxQueuedChanges = 256

// Runner owns one connection's event loop: it runs an engine.Engine with
// real timers, the SDK's transports and the connectivity checks, and
// reports state changes. Its methods are safe for concurrent use and never
// block on the network; which goroutine runs the engine and the SDK's code
// is said under "Goroutines" and "Inline calls" in the package doc.
type Runner struct {
	// A Runner is the shell around a core (core.go), as raft's Node is
	// around its RawNode: the goroutines, the lock and the SDK-facing API.
	// Ownership: each field of Runner is set by New and never assigned
	// after; what changes lives inside sh, guarded by mu, and inside core,
	// owned by the goroutine running the engine (the one that set
	// sh.running). mu and wg are synchronisation, done is closed by
	// shutdown.
	set  settings
	mu   sync.Mutex
	sh   shell
	core core
	wg   sync.WaitGroup // the effects goroutines and the checks
	done chan struct{}
}

// settings is what a Runner's goroutines need that New decides.
//
// Ownership: written by New, read-only after; any goroutine reads it
// without a lock.
type settings struct {
	ctx      context.Context
	openCtx  context.Context // Open's: done once the stop has closed the transports
	openEnd  context.CancelFunc
	timeouts reconnect.Timeouts
	dialer   Dialer
	checkNet func(context.Context) bool
	checkWS  func(context.Context) bool
	renew    func(context.Context) error
	onChange func(StateChange)
	onPanic  func(*PanicError)
	inline   bool
	// Method values made once, so that starting these goroutines
	// allocates nothing.
	effectsFn func()
	openFn    func()
}

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
	if o.RenewToken != nil {
		cfg.CanRenewToken = true
	}
	eng, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	if err := o.checkChecks(); err != nil {
		return nil, err
	}
	r := &Runner{done: make(chan struct{})}
	r.set = settings{ctx: ctx, timeouts: cfg.Timeouts.WithDefaults(), dialer: o.Dialer, checkNet: o.CheckConnectivity,
		checkWS: o.CheckWebSocket, renew: o.RenewToken, onChange: o.OnStateChange, onPanic: o.OnPanic, inline: o.Inline,
		effectsFn: r.runEffects, openFn: r.openNext}
	if r.set.checkWS == nil { // never called: the policy asks for no websocket check
		r.set.checkWS = NoConnectivityCheck
	}
	if r.set.renew == nil { // called only with Config.CanRenewToken set, or for Authorize
		r.set.renew = noRenewToken
	}
	r.set.openCtx, r.set.openEnd = context.WithCancel(context.WithoutCancel(ctx))
	r.core = core{r: r, eng: eng, state: eng.State()}
	r.sh.state, r.sh.pref = eng.State(), eng.Preference()
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
// Config.Timeouts.Closing); a connecting one goes CLOSING and lets its
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
// is as long as the SDK's Close takes. A transport that implements
// Notified is returned only once its Activated has returned, and no
// longer by the time its Deactivated is called.
func (r *Runner) Active() Transport {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sh.active.t
}

// State returns the connection state after the last event the runner
// processed; once the runner has stopped, CLOSED or FAILED (see New). A
// call's event may be processed a moment after the call returns, by
// another goroutine (see "Goroutines" in the package doc), so State may
// not show it yet: to act on a state, follow OnStateChange rather than
// reading State after a call.
func (r *Runner) State() engine.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sh.state
}

// LastError returns the connection's errorReason (RTN25): the failure
// the most recent state change or update carried, as
// engine.Engine.LastError says, after the last event the runner
// processed; the zero Failure before any. It keeps the error a transport
// attached (reconnect.Failure.WithError, Classify), so errors.Is and
// errors.As on it see the SDK's own error. Like State, it may not show a
// call's event yet: OnStateChange carries each change's own Failure.
func (r *Runner) LastError() reconnect.Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sh.lastErr
}

// Preference returns the engine's transport preference after the last event
// the runner processed: persist it (Preference.MarshalText) and pass it
// back in Options.Config.Preference to the next runner, so the next process
// starts on the transport that last connected (see reconnect.Preference).
func (r *Runner) Preference() reconnect.Preference {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sh.pref
}

// Done returns a channel that is closed once the runner has stopped (its
// context is done), has closed every transport whose Open has returned and
// delivered its last state change, and every goroutine it started has
// ended: the checks, the calls to the transports and the delivery of
// state changes. A check function or an OnStateChange callback that never
// returns keeps it open.
//
// Done also waits for every Dialer.Open still running when the runner
// stopped (its context is done by then, and the runner closes the
// transport it returns as soon as it returns), but at most
// Config.Timeouts.Connect (realtimeRequestTimeout unless set): an Open that
// ignores its context and blocks longer does not hold Done, and its
// transport is closed when it returns, after Done.
func (r *Runner) Done() <-chan struct{} { return r.done }

// shutdown runs once the context is done: it queues the stop, waits for
// every goroutine of the runner's and closes Done.
func (r *Runner) shutdown() {
	r.mu.Lock()
	r.sh.stopping = true
	r.sh.inbox = append(r.sh.inbox, item{kind: itemStop})
	if r.set.inline {
		r.inlineStop()
	} else {
		r.turn(ownCaller)
	}
	r.mu.Lock()
	turns := r.sh.turns.ended() // another goroutine's turn: it starts every goroutine it will
	r.mu.Unlock()
	if turns != nil {
		<-turns
	}
	r.wg.Wait()
	r.set.openEnd() // every transport whose Open returned is closed
	// The stop gave up every transport whose Open is still running; a
	// well-behaved Open returns soon (its context is done) and its
	// transport is closed then. Wait for those, but never longer than
	// the connect timeout: an Open that ignores its context does not
	// hold Done.
	r.mu.Lock()
	end := r.sh.opening.ended()
	r.mu.Unlock()
	if end != nil {
		t := time.NewTimer(r.set.timeouts.Connect)
		select {
		case <-end:
		case <-t.C:
		}
		t.Stop()
	}
	close(r.done)
}
