package engine

// The flapping guard: a websocket that activates and then keeps dying
// makes the connection prefer HTTP for a while.

import (
	"strconv"
	"time"

	"github.com/reconnect-go/reconnect"
)

// FlapGuard makes a connection whose websocket keeps dying after it
// activated prefer HTTP for a while (PolicyWebSocketFirst and
// PolicyHTTPFirst; PolicyWebSocketCheck, which reproduces a shipped SDK,
// ignores it). When Drops websockets have been activated and then dropped
// (closed or failed while CONNECTED; not by a close request or a network
// down event) within Window, attempts start with HTTP and open no
// websocket — no short circuit, no upgrade, no background websocket check —
// for Hold; when Hold ends an HTTP connection opens an upgrade websocket
// again (TimerFlapHold). An engine that keeps the transport preference
// (Config.RememberTransport) remembers HTTP with the reason
// PreferenceWebSocketUnstable when the guard triggers, and keeps that
// reason through the hold.
//
// The zero value means the defaults DefaultFlapDrops, DefaultFlapWindow
// and DefaultFlapHold, field by field; Drops < 0 turns the guard off.
type FlapGuard struct {
	// Drops is K, the number of activated-then-dropped websockets that
	// trigger the guard: 0 means DefaultFlapDrops; at most MaxFlapDrops;
	// negative turns the guard off.
	Drops int
	// Window is how close together (first to last) the Drops drops must
	// be; 0 means DefaultFlapWindow. It must not be negative.
	Window time.Duration
	// Hold is how long HTTP is preferred once the guard triggers; 0 means
	// DefaultFlapHold. It must not be negative.
	Hold time.Duration
}

// The flapping guard's defaults, chosen with the simulator (docs/flapping.md,
// docs/decisions.md), and the largest Drops.
const (
	DefaultFlapDrops  = 4
	DefaultFlapWindow = 5 * time.Minute
	DefaultFlapHold   = 10 * time.Minute
	MaxFlapDrops      = 16
)

// validate reports the first invalid field of g, named from Config.
func (g FlapGuard) validate() error {
	switch {
	case g.Drops > MaxFlapDrops:
		return &reconnect.FieldError{Field: "Config.Flap.Drops", Value: strconv.Itoa(g.Drops), Problem: "must be at most MaxFlapDrops (16): 0 means the default, 4, and a negative value turns the guard off"}
	case g.Window < 0:
		return &reconnect.FieldError{Field: "Config.Flap.Window", Value: g.Window.String(), Problem: "must not be negative: 0 means the default, " + DefaultFlapWindow.String()}
	case g.Hold < 0:
		return &reconnect.FieldError{Field: "Config.Flap.Hold", Value: g.Hold.String(), Problem: "must not be negative: 0 means the default, " + DefaultFlapHold.String()}
	}
	return nil
}

// withDefaults fills the zero fields with the defaults.
func (g FlapGuard) withDefaults() FlapGuard {
	if g.Drops == 0 {
		g.Drops = DefaultFlapDrops
	}
	if g.Window == 0 {
		g.Window = DefaultFlapWindow
	}
	if g.Hold == 0 {
		g.Hold = DefaultFlapHold
	}
	return g
}

// flapState is the engine's record of websocket drops.
type flapState struct {
	drops    [MaxFlapDrops]time.Time // ring of the last drop times
	n        int                     // drops recorded (at most Drops)
	next     int                     // ring index of the next drop
	httpTill time.Time               // HTTP is preferred before this time
}

// guarded reports whether the engine's policy and transports let the
// guard act at all.
func (e *Engine) guarded() bool {
	return e.cfg.Flap.Drops > 0 && !e.usesWebSocketCheck() && e.cfg.Transports.HTTP && e.cfg.Transports.WebSocket
}

// preferHTTP reports whether HTTP is preferred now.
func (e *Engine) preferHTTP() bool {
	return e.guarded() && e.now.Before(e.flap.httpTill)
}

// noteWebSocketDrop records that an active websocket dropped now and
// starts the hold when it is the Drops-th within Window.
func (e *Engine) noteWebSocketDrop() {
	if !e.guarded() {
		return
	}
	f, k := &e.flap, e.cfg.Flap.Drops
	f.drops[f.next] = e.now
	f.next = (f.next + 1) % k
	if f.n < k {
		f.n++
	}
	// f.next is now the oldest of the last k drops.
	if f.n == k && e.now.Sub(f.drops[f.next]) <= e.cfg.Flap.Window {
		f.httpTill = e.now.Add(e.cfg.Flap.Hold)
		f.n, f.next = 0, 0
		if e.usesPreference() {
			// Remembered as HTTP, reason websocket-unstable, for the SDK to
			// persist; after the hold the preference's background
			// websocket check decides when to return to the websocket.
			e.pref = e.pref.Apply(reconnect.PreferenceEventWebSocketUnstable, reconnect.NoTransport, e.now)
		}
	}
}

// onFlapHoldOver opens the upgrade websocket again on an HTTP connection
// once the hold is over.
func (e *Engine) onFlapHoldOver(out []Action) []Action {
	active := e.find(slotActive)
	if e.state != Connected || active == nil || active.kind != reconnect.HTTP {
		return out
	}
	for i := range e.transports {
		if e.transports[i].role == roleUpgrade && e.transports[i].status != slotFree {
			return out
		}
	}
	return e.open(out, reconnect.WebSocket, active.host, reconnect.ModeUpgrade, roleUpgrade)
}
