package enginediff

// The generator's inputs from the connection contract: what a CONNECTED
// message says (connectionDetails and error), activity, and the answers
// to token renewals.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reconnect-go/reconnect/engine"
)

// failure is the failure of a failed transport: any of failures, and a
// token error more often (it asks for a renewal with canRenewToken).
func (gen *generator) failure() string {
	if gen.r.IntN(8) == 0 {
		return "token"
	}
	return pick(gen.r, failures...)
}

// renewalFailures are what a failed token renewal carries: 403 (FAILED,
// RSA4d), a timeout, and others.
var renewalFailures = []string{"http-status:403", "http-status:403", "http-status:403:CloudFront", "timeout", "other",
	"token", "token:401", "http-status:401", "http-status:500", "dns", "disconnected:503"}

// answer is an answer to check id of kind ("connectivity",
// "websocket-check" or "token"), drawn.
func (gen *generator) answer(kind string, id uint64) string {
	if kind == "token" {
		if gen.r.IntN(2) == 0 {
			return fmt.Sprintf("token C%d renewed", id)
		}
		return fmt.Sprintf("token C%d failed %s", id, pick(gen.r, renewalFailures...))
	}
	return fmt.Sprintf("%s C%d %s", kind, id, pick(gen.r, "up", "down"))
}

// noteDetails records the maxIdleInterval a CONNECTED message for
// transport id says, when it is one the engine takes: connected for a
// transport not active yet, details for the active one.
func (gen *generator) noteDetails(kind string, id uint64, opts string) {
	t := gen.g.tports[engine.TransportID(id)]
	if t == nil || t.active != (kind == "details") {
		return
	}
	gen.maxIdle[id] = 0
	for _, o := range strings.Fields(opts) {
		if v, ok := strings.CutPrefix(o, "maxIdleInterval="); ok {
			gen.maxIdle[id], _ = strconv.ParseInt(v, 10, 64)
		}
	}
}

// idleLimit is the active transport's idle limit in ms, as the generator
// knows it: maxIdleInterval + idleSlack (realtimeRequestTimeout unless
// set), or the client-side idleLimit when the server gave no
// maxIdleInterval (0: none known).
func (gen *generator) idleLimit() int64 {
	if m := gen.maxIdle[gen.g.active()]; m > 0 {
		slack := gen.cfg.IdleSlackMs
		if slack == 0 {
			slack = realtimeRequestTimeoutMs
		}
		return m + slack
	}
	return gen.cfg.IdleLimitMs
}

// realtimeRequestTimeoutMs is the default realtimeRequestTimeout, which
// the timelines do not change.
const realtimeRequestTimeoutMs = 10000

// activityAtTheEdge is activity of the active transport at the idle
// limit's edge: a limit before the idle timer is due, or a millisecond
// either side, so that the timer, fired when due, finds the transport
// silent for exactly the limit (a drop), or just less (it starts again),
// or just more.
func (gen *generator) activityAtTheEdge() string {
	at := gen.g.dueMs("idle") - gen.idleLimit() + int64(pick(gen.r, -1, 0, 0, 1))
	return fmt.Sprintf("activity T%d at=%d", gen.g.active(), max(at, 0))
}

// details are the options of a CONNECTED message (connected, or details
// when later is set): none, or some of maxIdleInterval,
// connectionStateTtl and error, in any order, each at most once.
func (gen *generator) details(later bool) string {
	r := gen.r
	if !later && r.IntN(3) == 0 {
		return ""
	}
	opts := []string{
		"maxIdleInterval=" + strconv.Itoa(pick(r, 0, 1, 500, 3000, 3000, 15000, 15000, 120000)),
		"connectionStateTtl=" + strconv.Itoa(pick(r, 0, 1, 1000, 2000, 5000, 60000, 200000)),
		"error=" + pick(r, failures...),
	}
	r.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
	s := ""
	for _, o := range opts {
		if r.IntN(3) > 0 || o[0] == 'm' && r.IntN(2) == 0 {
			s += " " + o
		}
	}
	return s
}

// activityAt is an activity's time option: none (the step's time), or a
// time before the last step, at it, or later (after the step, possibly:
// the engine takes the step's time then).
func (gen *generator) activityAt() string {
	r := gen.r
	var at int64
	switch r.IntN(6) {
	case 0, 1:
		return ""
	case 2:
		at = 0
	case 3:
		at = gen.now
	case 4:
		at = max(0, gen.now-int64(pick(r, 1, 100, 5000, 20000)))
	default:
		at = gen.now + int64(pick(r, 1, 100, 5000, 60000))
	}
	return " at=" + strconv.FormatInt(at, 10)
}
