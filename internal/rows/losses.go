package rows

import (
	"fmt"
	"slices"
	"strings"
)

// The decision for a transport lost before CONNECTED (docs/engine.md:
// Transports lost before CONNECTED), as one complete table: every
// combination of the dimensions below is decided by the first LossRow
// whose conditions it meets, either as unreachable (with the reason) or by
// the rows of the losses table (All) that the engine's step is an instance
// of. The engine's TestLossTable drives the engine into the combinations
// and checks each step against the row it decides; docs/engine.md's
// rows-loss-decision table is rendered from LossRows.

// LossDim is one dimension of the decision, with its values in order.
type LossDim struct {
	Name   string
	Values []string
	// Doc says what the dimension is, for the document.
	Doc string
}

// The indexes of the dimensions in a LossCase.
const (
	LossPolicy = iota
	LossStatus
	LossTransport
	LossCheck
	LossHTTP
	LossFailure
	LossHosts
	LossInFlight
	numLossDims
)

// The values of the dimensions that the rows name.
const (
	WSWalk       = "websocket flow"
	HTTPFlow     = "HTTP flow"
	SCNotStarted = "websocket before HTTP"
	SCDisplaced  = "websocket that displaced HTTP"
	SCStarted    = "websocket beside HTTP"

	Failure5xx  = "disconnected 500–504"
	FailureQual = "other qualifying"
	FailureNot  = "not qualifying"

	HostLeft   = "a host left"
	HostLast   = "on the last host"
	HostNoneFB = "no fallback host"

	InFlightNothing = "nothing"
	InFlightCheck   = "a connectivity check"
	InFlightOther   = "a transport or the short-circuit timer"
)

// LossDims are the dimensions, in the order of a LossCase.
var LossDims = [numLossDims]LossDim{
	{"policy", []string{"wf", "hf", "wc"}, "websocket-first, HTTP-first, websocket-check"},
	{"lost", []string{"opening", "pending"}, "the transport lost was still opening, or had turned viable (pending)"},
	{"transport", []string{WSWalk, HTTPFlow, SCNotStarted, SCDisplaced, SCStarted},
		"which transport: the flow (the transport that walks the hosts: under websocket-check the websocket walk until HTTP takes over) when it is a websocket or HTTP; or a short-circuit websocket (websocket-first's first websocket, or the websocket a passing background check opens beside a remembered HTTP) before the HTTP flow has started, after it displaced the HTTP flow's viable transport (rules 1, 2), or beside the HTTP flow"},
	{"websocket check", []string{"none", "pending", "passed", "failed"},
		"the attempt's websocket check: the websocket walk's, or the background check of a remembered HTTP (pending while in flight)"},
	{"HTTP", []string{"yes", "no"}, "HTTP available"},
	{"failure", []string{Failure5xx, FailureQual, FailureNot},
		"the loss's failure: DISCONNECTED 500–504, another qualifying failure (RSC15l; `timeout` for a connect timer), or one that does not qualify (a clean close included)"},
	{"hosts", []string{HostLeft, HostLast, HostNoneFB},
		"the flow's host: a fallback host is left after it in the attempt's budget, it is the last one, or the endpoint has no fallback host"},
	{"in flight", []string{InFlightNothing, InFlightCheck, InFlightOther},
		"what else the attempt has in flight: nothing, a fallback or RTN17f1 connectivity check, or another transport or the short-circuit timer (the slow check and a background websocket check do not count)"},
}

// LossCase is one combination: a value of each dimension, in LossDims
// order.
type LossCase [numLossDims]string

// String renders the case as "policy=wc lost=opening …".
func (c LossCase) String() string {
	parts := make([]string, numLossDims)
	for i, v := range c {
		parts[i] = LossDims[i].Name + "=" + v
	}
	return strings.Join(parts, "; ")
}

// LossRow is one row of the decision: the values of each dimension it
// applies to (nil: any), and either the reason no timeline reaches those
// combinations, or the rows of All an engine step in them is an instance
// of (the first in general, the others in the situations Note names).
type LossRow struct {
	ID          string
	When        [numLossDims][]string
	Unreachable string
	Outcome     []string
	Note        string
	// Pins are scenarios with a step in the row (each checked).
	Pins []string
}

func on(vals ...string) []string { return vals }

// LossRows is the decision, first match wins.
var LossRows = []LossRow{
	{ID: "U1", When: [numLossDims][]string{LossPolicy: on("wf", "hf"), LossTransport: on(WSWalk), LossHTTP: on("yes")},
		Unreachable: "with HTTP, the flow of websocket-first and HTTP-first is HTTP"},
	{ID: "U2", When: [numLossDims][]string{LossTransport: on(HTTPFlow, SCNotStarted, SCDisplaced, SCStarted), LossHTTP: on("no")},
		Unreachable: "without HTTP no HTTP flow starts"},
	{ID: "U3", When: [numLossDims][]string{LossPolicy: on("wc"), LossTransport: on(SCNotStarted, SCDisplaced, SCStarted)},
		Unreachable: "websocket-check has no short-circuit websocket: it runs one transport at a time"},
	{ID: "U4", When: [numLossDims][]string{LossPolicy: on("hf"), LossTransport: on(SCNotStarted)},
		Unreachable: "HTTP-first starts every attempt with HTTP"},
	{ID: "U5", When: [numLossDims][]string{LossPolicy: on("wf", "hf"), LossCheck: on("passed", "failed")},
		Unreachable: "the only websocket check of websocket-first and HTTP-first is the background check of a remembered HTTP, and its answer ends it"},
	{ID: "U6", When: [numLossDims][]string{LossPolicy: on("wf", "hf"), LossCheck: on("pending"), LossTransport: on(WSWalk, SCNotStarted, SCDisplaced, SCStarted)},
		Unreachable: "the background check runs only in an attempt that started on a remembered HTTP, which opens a websocket only once the check has passed"},
	{ID: "U7", When: [numLossDims][]string{LossPolicy: on("wf", "hf"), LossCheck: on("pending"), LossInFlight: on(InFlightOther)},
		Unreachable: "beside a remembered HTTP nothing opens until the background check has passed"},
	{ID: "U8", When: [numLossDims][]string{LossPolicy: on("wc"), LossInFlight: on(InFlightCheck, InFlightOther)},
		Unreachable: "websocket-check has one transport in flight at a time, and asks a fallback check only once it is lost (the RTN17f1 check, before any transport)"},
	{ID: "U9", When: [numLossDims][]string{LossTransport: on(WSWalk, HTTPFlow), LossInFlight: on(InFlightCheck)},
		Unreachable: "a fallback or RTN17f1 check is in flight only while no flow transport is: its up opens one"},
	{ID: "U10", When: [numLossDims][]string{LossTransport: on(WSWalk), LossInFlight: on(InFlightOther)},
		Unreachable: "a websocket flow is the attempt's only transport, with no short-circuit timer"},
	{ID: "U11", When: [numLossDims][]string{LossTransport: on(SCDisplaced, SCNotStarted), LossInFlight: on(InFlightCheck)},
		Unreachable: "no check is asked until the HTTP flow has been lost"},
	{ID: "U12", When: [numLossDims][]string{LossTransport: on(SCDisplaced), LossInFlight: on(InFlightOther)},
		Unreachable: "the displaced HTTP had started (the short-circuit timer cancelled), and nothing else opens beside the websocket"},
	{ID: "U13", When: [numLossDims][]string{LossTransport: on(SCDisplaced), LossStatus: on("opening")},
		Unreachable: "a websocket displaces the HTTP flow only by being pending (rules 1, 2)"},
	{ID: "U14", When: [numLossDims][]string{LossInFlight: on(InFlightCheck), LossHosts: on(HostLast, HostNoneFB)},
		Unreachable: "a fallback check is asked only with a host left after the flow's, and the flow moves to it only at the check's up"},
	{ID: "U15", When: [numLossDims][]string{LossTransport: on(SCNotStarted), LossStatus: on("opening"), LossInFlight: on(InFlightNothing)},
		Unreachable: "while the websocket is still opening and HTTP has not started, the short-circuit timer runs (when it fires with nothing pending, HTTP starts)"},

	{ID: "L1", When: [numLossDims][]string{LossPolicy: on("wc"), LossStatus: on("pending"), LossFailure: on(Failure5xx), LossHosts: on(HostLeft, HostLast)},
		Outcome: []string{"WC-CONNECTING-lost-pending-503-4", "WC-CONNECTING-lost-pending-503-waits-7"},
		Note:    "the RTN17f1 reconnect on a fallback host; it waits (-7) within 1 s of the last immediate reconnect or with the reconnect window's draw",
		Pins:    []string{"websocket-check-disconnected-503-before-connected-goes-to-a-fallback-host", "websocket-check-redirect-before-connected-is-rate-limited"}},
	{ID: "L2", When: [numLossDims][]string{LossPolicy: on("wc"), LossStatus: on("pending")},
		Outcome: []string{"WC-CONNECTING-lost-pending-5", "ALL-CONNECTING-lost-suspended-4"},
		Note:    "the attempt ends at once, whatever else: DISCONNECTED (SUSPENDED once connectionStateTtl has passed)",
		Pins:    []string{"websocket-check-opened-then-closed-before-connected"}},
	{ID: "L3", When: [numLossDims][]string{LossPolicy: on("wc"), LossTransport: on(WSWalk), LossCheck: on("failed")},
		Outcome: []string{"WC-CONNECTING-lost-after-failed-check-3"},
		Note:    "nothing more, with or without HTTP: the give-up timer switches to HTTP, or without HTTP the attempt timer ends the attempt",
		Pins:    []string{"websocket-check-failed-check-stops-the-walk", "websocket-check-websocket-only"}},
	{ID: "L4", When: [numLossDims][]string{LossTransport: on(SCDisplaced)},
		Outcome: []string{"WH-CONNECTING-lost-first-ws-2"},
		Note:    "HTTP opens again where it was displaced",
		Pins:    []string{"liveness-websocket-killed-after-displacing-pending-http", "liveness-http-reopened-on-its-fallback-host", "preference-under-http-first-websocket-replaces-pending-http"}},
	{ID: "L5", When: [numLossDims][]string{LossTransport: on(SCNotStarted)},
		Outcome: []string{"WF-CONNECTING-lost-first-ws-1"},
		Note:    "HTTP starts on the attempt's first host",
		Pins:    []string{"outcome-4-websocket-fails-immediately", "short-circuit-websocket-lost-after-the-short-circuit-fired-starts-http"}},
	{ID: "L6", When: [numLossDims][]string{LossTransport: on(WSWalk, HTTPFlow), LossFailure: on(Failure5xx, FailureQual), LossHosts: on(HostLeft)},
		Outcome: []string{"ALL-CONNECTING-lost-flow-fallback-1"},
		Note:    "the connectivity check before the next host, whatever else is in flight",
		Pins:    []string{"fallback-order-through-every-step", "http-first-host-fallback-then-upgrade-on-that-host", "websocket-check-attempt-limit", "websocket-check-http-walks-the-hosts-after-a-failed-check"}},
	{ID: "L7", When: [numLossDims][]string{LossInFlight: on(InFlightCheck, InFlightOther)},
		Outcome: []string{"WH-CONNECTING-lost-in-flight-2"},
		Note:    "nothing more: what is in flight decides",
		Pins:    []string{"connect-timeout", "preference-under-http-first-websocket-lost-beside-http"}},
	{ID: "L8", When: [numLossDims][]string{LossPolicy: on("wc"), LossTransport: on(WSWalk), LossHTTP: on("yes"), LossCheck: on("none")},
		Outcome: []string{"WC-CONNECTING-lost-walk-over-1"},
		Note:    "the walk is over: the websocket check at once",
		Pins:    []string{"websocket-check-ably-js-rejected-websocket", "websocket-check-failure-that-does-not-qualify-ends-the-walk"}},
	{ID: "L9", When: [numLossDims][]string{LossPolicy: on("wc"), LossTransport: on(WSWalk), LossHTTP: on("yes"), LossCheck: on("pending")},
		Outcome: []string{"WC-CONNECTING-lost-walk-over-2"},
		Note:    "the walk is over: nothing more, the check's answer or the give-up timer decides",
		Pins:    []string{"websocket-check-no-answer-give-up-decides"}},
	{ID: "L10", When: [numLossDims][]string{LossPolicy: on("wc"), LossTransport: on(WSWalk)},
		Outcome: []string{"WC-CONNECTING-lost-walk-over-passed-6", "ALL-CONNECTING-lost-suspended-4"},
		Note:    "the walk is over after a passed check, or without HTTP with no failed check: DISCONNECTED at once (SUSPENDED once connectionStateTtl has passed)",
		Pins:    []string{"websocket-check-walk-over-after-the-check-passed", "websocket-check-without-http-walk-over-ends-at-once"}},
	{ID: "L11", Outcome: []string{"ALL-CONNECTING-lost-end-3", "ALL-CONNECTING-lost-suspended-4"},
		Note: "nothing is left: DISCONNECTED (SUSPENDED once connectionStateTtl has passed)",
		Pins: []string{"fallback-not-for-a-4xx", "http-first-failed-attempt-from-suspended-stays-suspended", "websocket-check-http-only", "websocket-check-slow-check-does-not-hold-the-attempt"}},
}

// Applies reports whether case c meets every condition of r.
func (r LossRow) Applies(c LossCase) bool {
	for i, vals := range r.When {
		if vals != nil && !slices.Contains(vals, c[i]) {
			return false
		}
	}
	return true
}

// DecideLoss returns the index in LossRows of the first row that applies
// to c (the last row applies to every case).
func DecideLoss(c LossCase) int {
	for i, r := range LossRows {
		if r.Applies(c) {
			return i
		}
	}
	return len(LossRows) - 1
}

// LossCases returns every combination of the dimensions, in order (the
// last dimension varying fastest).
func LossCases() []LossCase {
	out := []LossCase{{}}
	for d := range numLossDims {
		var next []LossCase
		for _, c := range out {
			for _, v := range LossDims[d].Values {
				c[d] = v
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

// ByID returns the row of All with id.
func ByID(id string) (Row, bool) {
	for _, r := range All {
		if r.ID == id {
			return r, true
		}
	}
	return Row{}, false
}

// CheckLossRows reports what is wrong with LossRows: an outcome naming no
// row of the losses table, a condition naming a value its dimension does
// not have, a row no combination reaches first, a last row that does not
// apply to every case.
func CheckLossRows() error {
	var errs []string
	for _, r := range LossRows {
		if (r.Unreachable == "") == (len(r.Outcome) == 0) {
			errs = append(errs, fmt.Sprintf("loss row %s: either a reason it is unreachable or an outcome", r.ID))
		}
		for _, id := range r.Outcome {
			if row, ok := ByID(id); !ok || !(row.Table == "losses") {
				errs = append(errs, fmt.Sprintf("loss row %s: outcome %s is no row of the losses table", r.ID, id))
			}
		}
		for d, vals := range r.When {
			for _, v := range vals {
				if !slices.Contains(LossDims[d].Values, v) {
					errs = append(errs, fmt.Sprintf("loss row %s: %s has no value %q", r.ID, LossDims[d].Name, v))
				}
			}
		}
	}
	last := LossRows[len(LossRows)-1]
	for _, vals := range last.When {
		if vals != nil {
			errs = append(errs, "the last loss row must apply to every case")
		}
	}
	hit := map[int]bool{}
	for _, c := range LossCases() {
		hit[DecideLoss(c)] = true
	}
	for i, r := range LossRows {
		if !hit[i] {
			errs = append(errs, fmt.Sprintf("loss row %s: no combination reaches it (an earlier row takes them all)", r.ID))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}
