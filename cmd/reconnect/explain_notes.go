package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// What explain says, beside the rows, about the inputs, timers and actions
// of what the server says: the connection details of a CONNECTED, activity
// and the idle timer (RTN23a), UPDATE (RTN4h), token renewal (RTN14b,
// RTN15h) and authorize (RTC8). noter follows a timeline step by step, since what a step means
// (activity of the active transport, the idle limit) depends on the steps
// before it.

// realtimeRequestTimeoutMs is the scenarios' realtimeRequestTimeout (the
// fixtures' header: never set by a scenario).
const realtimeRequestTimeoutMs = 10000

// noter keeps what the notes of later steps need.
type noter struct {
	canRenew bool
	// slackMs and renewalMs are the scenario's idleSlack and
	// renewalTimeout (0: realtimeRequestTimeout), limitMs its client-side
	// idleLimit (0: none).
	slackMs, renewalMs, limitMs int64
	active                      string // the active transport, "T3", or ""
	idleMs                      int64  // maxIdleInterval of the active transport's last CONNECTED
	lastAct                     int64  // the time of the last activity recorded (or of the activation), in ms
}

// slack returns the idle slack, in ms, and its name in the notes.
func (n *noter) slack() (int64, string) {
	if n.slackMs > 0 {
		return n.slackMs, "idleSlack"
	}
	return realtimeRequestTimeoutMs, "realtimeRequestTimeout"
}

// fields returns the fields of a step's event after its kind and name
// ("T1 maxIdleInterval=15000" gives T1 and the options).
func eventFields(event string) (kind, name string, opts map[string]string) {
	f := strings.Fields(event)
	opts = map[string]string{}
	if len(f) > 0 {
		kind = f[0]
	}
	if len(f) > 1 {
		name = f[1]
	}
	for _, x := range f[min(2, len(f)):] {
		if k, v, ok := strings.Cut(x, "="); ok {
			opts[k] = v
		} else {
			opts[""] = x // a failure, or renewed/failed
		}
	}
	return kind, name, opts
}

func hasAction(acts []string, prefix string) bool {
	return slices.ContainsFunc(acts, func(a string) bool { return strings.HasPrefix(a, prefix) })
}

// detailNotes explains the details a CONNECTED message carries.
func (n *noter) detailNotes(opts map[string]string, acts []string) []string {
	var out []string
	if v, ok := opts["maxIdleInterval"]; ok {
		m, _ := strconv.ParseInt(v, 10, 64)
		if s, _ := n.slack(); m > 0 && hasAction(acts, "timer idle ") {
			out = append(out, fmt.Sprintf("maxIdleInterval %d ms: the idle limit is %d + %d = %d ms of silence, timed from now (RTN23a)", m, m, s, m+s))
		}
	}
	if m, _ := strconv.ParseInt(opts["maxIdleInterval"], 10, 64); m <= 0 && n.limitMs > 0 && hasAction(acts, "timer idle ") {
		out = append(out, fmt.Sprintf("no maxIdleInterval (or 0): the client-side idle limit, idleLimit %d ms of silence, timed from now (the server's maxIdleInterval would win: RTN21)", n.limitMs))
	}
	if !hasAction(acts, "timer idle ") {
		if m, _ := strconv.ParseInt(opts["maxIdleInterval"], 10, 64); m <= 0 {
			note := "no maxIdleInterval (or 0): no idle timer"
			if hasAction(acts, "cancel idle") {
				note += ", the one running cancelled"
			}
			out = append(out, note)
		}
	}
	if v, ok := opts["connectionStateTtl"]; ok && v != "0" {
		out = append(out, "the server's connectionStateTtl "+v+" ms replaces the configured one for this connection's state-ttl timer (RTN21)")
	}
	if v, ok := opts["error"]; ok {
		out = append(out, "the CONNECTED message carries the error "+v+" (a resume or recovery the server could not honour, RTN15c7, RTN16l): it is the reason and errorReason")
	}
	return out
}

// notes returns what explain prints about one step beside its rows: the
// step's event (in the scenario grammar), its actions, and the states
// before and after it.
func (n *noter) notes(atMs int64, event string, acts []string, before, after string) []string {
	kind, name, opts := eventFields(event)
	var out []string
	switch kind {
	case "connected":
		if len(acts) > 0 && len(opts) > 0 {
			out = append(out, n.detailNotes(opts, acts)...)
		}
	case "details":
		if len(acts) == 0 {
			out = append(out, "ignored: "+name+" is not the active transport, or the connection is not CONNECTED")
		} else {
			out = append(out, n.detailNotes(opts, acts)...)
		}
	case "activity":
		if name == n.active && n.active != "" {
			at, err := strconv.ParseInt(opts["at"], 10, 64)
			switch {
			case err != nil:
				at = atMs
			case at > atMs:
				out = append(out, fmt.Sprintf("at=%d is later than the step: it counts as the step's time", at))
				at = atMs
			}
			if at < n.lastAct {
				out = append(out, fmt.Sprintf("activity at %d ms, earlier than the %d ms recorded: it changes nothing", at, n.lastAct))
				break
			}
			out = append(out, fmt.Sprintf("activity of the active transport at %d ms: recorded, never an action; the idle timer, when it fires, starts again from it (RTN23a)", at))
			n.lastAct = at
		} else {
			out = append(out, "ignored: "+name+" is not the active transport")
		}
	case "timer":
		switch name {
		case "idle":
			switch {
			case hasAction(acts, "timer idle ") && n.idleMs <= 0:
				out = append(out, fmt.Sprintf("activity since the idle timer started (the last at %d ms): it starts again, due idleLimit %d ms after it", n.lastAct, n.limitMs))
			case hasAction(acts, "timer idle "):
				s, _ := n.slack()
				out = append(out, fmt.Sprintf("activity since the idle timer started (the last at %d ms): it starts again, due %d + %d ms after it", n.lastAct, n.idleMs, s))
			case hasAction(acts, "dispose ") && n.idleMs <= 0:
				out = append(out, fmt.Sprintf("no activity for idleLimit, the client-side idle limit (%d ms): the transport is lost as a drop with a timeout (RTN23a, RTN15a)", n.limitMs))
			case hasAction(acts, "dispose "):
				s, name := n.slack()
				out = append(out, fmt.Sprintf("no activity for maxIdleInterval + %s (%d ms): the transport is lost as a drop with a timeout (RTN23a, RTN15a)", name, n.idleMs+s))
			case before == "closing":
				out = append(out, "in CLOSING the idle timer does nothing (the close timer bounds CLOSING)")
			}
		case "renew-token":
			if len(acts) > 0 {
				within := "realtimeRequestTimeout"
				if n.renewalMs > 0 {
					within = fmt.Sprintf("renewalTimeout (%d ms)", n.renewalMs)
				}
				out = append(out, "no answer to the token renewal within "+within+": it failed with a timeout (RSA4c)")
			}
		}
	case "token":
		switch {
		case len(acts) == 0:
			out = append(out, "ignored: no token renewal "+name+" in flight")
		case after == "failed":
			out = append(out, "the renewal was refused with 403: FAILED (RSA4d)")
		case opts[""] == "renewed":
			out = append(out, "the token is renewed: a new attempt at once, without a state change (RTN14b, RTN15h2)")
		default:
			out = append(out, "the renewal failed: the attempt ends (RTN14b, RSA4c)")
		}
	case "authorize":
		switch {
		case before == "connecting":
			out = append(out, "authorize() while CONNECTING: every connection attempt halted, and the token asked for; renewed, a new attempt at once with it (RTC8b)")
		case len(acts) > 0:
			out = append(out, "authorize() while "+strings.ToUpper(before)+": the connection connects, the token asked for before any transport (RTC8c)")
		case before == "connected":
			out = append(out, "authorize() while CONNECTED: the SDK obtains the token and sends AUTH itself; nothing for the engine (RTC8a)")
		default:
			out = append(out, "authorize() while "+strings.ToUpper(before)+": nothing; the close asked for stands")
		}
	case "failed", "closed":
		if opts[""] == "token" && len(acts) > 0 {
			switch {
			case after == "failed":
				out = append(out, "a token error, and canRenewToken is off: the token cannot be renewed, FAILED (RSA4a2, RTN15h1)")
			case hasAction(acts, "renew-token "):
			case before == "connecting":
				out = append(out, "a token error again in the attempt that followed a renewal: no second renewal (RTN14b)")
			}
		}
	}
	for _, a := range acts {
		f := strings.Fields(a)
		switch {
		case len(f) == 2 && f[0] == "activate":
			n.active, n.lastAct = f[1], atMs
		case len(f) == 2 && f[0] == "dispose" && f[1] == n.active:
			n.active = ""
		case len(f) == 2 && f[0] == "renew-token" && kind == "authorize":
			out = append(out, "renew-token: the SDK obtains authorize()'s token (whatever canRenewToken says) and feeds `token "+f[1]+" renewed` or `token "+f[1]+" failed <failure>`")
		case len(f) == 2 && f[0] == "renew-token":
			out = append(out, "renew-token: the SDK obtains a new token (canRenewToken) and feeds `token "+f[1]+" renewed` or `token "+f[1]+" failed <failure>`")
		case len(f) >= 2 && f[0] == "update" && f[1] == "transport":
			out = append(out, "UPDATE (RTN4h): "+n.active+" now carries the connection; the SDK emits UPDATE, CONNECTED to CONNECTED")
		case len(f) >= 2 && f[0] == "update" && f[1] == "details":
			out = append(out, "UPDATE (RTN4h, RTN24): a later CONNECTED message on the active transport; the SDK emits UPDATE, CONNECTED to CONNECTED")
		}
	}
	if (kind == "connected" || kind == "details") && len(acts) > 0 {
		if m, err := strconv.ParseInt(opts["maxIdleInterval"], 10, 64); err == nil {
			n.idleMs = m
		} else {
			n.idleMs = 0
		}
	}
	return out
}
