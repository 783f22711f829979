package engine

import (
	"fmt"
	"slices"

	"github.com/reconnect-go/reconnect"
)

// The transport-choice rules, written again from the spec for the engine
// harness: the setTransportPending table at every viable event and the
// short circuit's condition when its timer fires.

// expectPendingRule returns the check of the setTransportPending rule for
// ev: when a transport that is opening turns viable, the transports the
// step disposes are exactly those the rule names.
//
//  1. HTTP, with a websocket pending or active: the candidate.
//  2. A websocket, with HTTP pending: the pending HTTP transport.
//  3. A websocket not in upgrade mode, with HTTP active: the candidate.
//  4. Anything else: none; the candidate becomes pending.
func (h *engineHarness) expectPendingRule(ev Event) func([]Action) error {
	cand := h.transports[ev.Transport]
	if ev.Kind != EventTransportViable || cand == nil || cand.pending || cand.active {
		return func([]Action) error { return nil }
	}
	var pending, active TransportID
	for id, tr := range h.transports {
		if tr.pending {
			pending = id
		}
		if tr.active {
			active = id
		}
	}
	kindOf := func(id TransportID) reconnect.TransportKind {
		if id == 0 {
			return reconnect.NoTransport
		}
		return h.transports[id].kind
	}
	var want []TransportID
	rule := 4
	switch {
	case cand.kind == reconnect.HTTP && (kindOf(pending) == reconnect.WebSocket || kindOf(active) == reconnect.WebSocket):
		want, rule = []TransportID{ev.Transport}, 1
	case cand.kind == reconnect.WebSocket && kindOf(pending) == reconnect.HTTP:
		want, rule = []TransportID{pending}, 2
	case cand.kind == reconnect.WebSocket && cand.mode != reconnect.ModeUpgrade && kindOf(active) == reconnect.HTTP:
		want, rule = []TransportID{ev.Transport}, 3
	}
	return func(out []Action) error {
		var got []TransportID
		for _, a := range out {
			if a.Kind == ActionDisposeTransport {
				got = append(got, a.Transport)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return fmt.Errorf("T%d (%v, %v) viable with pending T%d and active T%d: rule %d disposes %v, the engine disposed %v",
				ev.Transport, cand.kind, cand.mode, pending, active, rule, want, got)
		}
		if rule == 2 || rule == 4 {
			cand.pending = true
		}
		return nil
	}
}

// expectShortCircuit returns the check for a short-circuit timer firing:
// HTTP starts exactly when no transport is pending or active.
func (h *engineHarness) expectShortCircuit(ev Event) func([]Action) error {
	if ev.Kind != EventTimerFired || ev.Timer != h.firedID || h.fired.kind != TimerShortCircuit {
		return func([]Action) error { return nil }
	}
	busy := false
	for _, tr := range h.transports {
		busy = busy || tr.pending || tr.active
	}
	return func(out []Action) error {
		started := false
		for _, a := range out {
			started = started || a.Kind == ActionOpenTransport && a.TransportKind == reconnect.HTTP
		}
		if started == busy {
			return fmt.Errorf("short circuit with a transport pending or active %v: HTTP started %v", busy, started)
		}
		return nil
	}
}
