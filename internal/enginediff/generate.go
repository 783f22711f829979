package enginediff

// The generator: a random configuration (every knob the scenarios use),
// then events drawn from what the Go engine has live after each step.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/reconnect-go/reconnect/engine"
)

// Generate returns timeline i of the run with seed seed: the same seed and
// index always give the same timeline. It also returns the Go engine's
// actions for each step, computed while generating.
func Generate(seed uint64, i int) (Timeline, [][]string) {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	for {
		tl := Timeline{ID: fmt.Sprintf("gen-%d-%d", seed, i), Config: randConfig(r)}
		// Enough draws for any timeline; the extras are trimmed below.
		tl.Draws = make([]float64, 200)
		for k := range tl.Draws {
			tl.Draws[k] = randDraw(r)
		}
		g, err := newGoEngine(tl)
		if err != nil {
			continue // an invalid combination (a window not shorter than the TTL)
		}
		gen := &generator{r: r, g: g, cfg: tl.Config, flappy: r.IntN(6) == 0, maxIdle: map[uint64]int64{}, reconnectAt: -1}
		n := 1 + r.IntN(60)
		var goSteps [][]string
		for len(tl.Steps) < n {
			st := gen.next()
			acts, err := g.step(st)
			if err != nil {
				panic(fmt.Sprintf("generated event %q: %v", st.Event, err)) // the generator's own grammar
			}
			tl.Steps = append(tl.Steps, st)
			goSteps = append(goSteps, acts)
			gen.observe(st, acts)
		}
		// The draws the Go engine took, and a few more for an engine that
		// takes more (a difference the actions then show).
		tl.Draws = tl.Draws[:min(len(tl.Draws), g.src.i+8)]
		return tl, goSteps
	}
}

// randDraw is a uniform draw in [0, 1), now and then one of the edges.
func randDraw(r *rand.Rand) float64 {
	switch r.IntN(10) {
	case 0:
		return []float64{0, 0.5, 0.1, 0.999999, 1.0 / 3}[r.IntN(5)]
	default:
		return float64(r.IntN(1_000_000)) / 1_000_000
	}
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// generator draws the next event from what the Go engine has live.
type generator struct {
	r   *rand.Rand
	g   *goEngine
	cfg Config
	now int64 // ms
	// flappy timelines connect and drop quickly, over and over: the
	// flapping guard's drops (Config.Flap) within its window.
	flappy bool
	// maxIdle is the maxIdleInterval (ms) the last CONNECTED message fed
	// for each transport said (0: none), for activity at the idle limit.
	maxIdle map[uint64]int64
	// reconnectAt is the time (ms) of the last immediate reconnect (or
	// of the drop, with a reconnect window), for the first-retry rule's
	// end, disconnectedRetryTimeout after it (-1: none yet).
	reconnectAt int64
}

// failures are the failures transport events and fatal errors carry:
// every kind, the statuses the fallback rules turn on, with and without.
var failures = []string{
	"refused", "refused", "dns", "unreachable", "timeout", "other", "token", "token:401",
	"http-status:401", "http-status:403", "http-status:403:CloudFront", "http-status:500", "http-status:503",
	"http-status:504", "http-status:505", "disconnected", "disconnected:400", "disconnected:500",
	"disconnected:503", "disconnected:504", "disconnected:505", "disconnected:599",
}

// rtts are the round trips (ms) a dialed event carries: 0, fractions (to
// the nanosecond, the grammar's finest: a product by a fractional multiple
// then has half a nanosecond to round), around the short circuit's 2000 ms
// divided by the multiples, at it, and the grammar's most, a day.
var rtts = []string{"0", "0.5", "1", "7", "33.3", "100", "100", "250", "666.667", "1999.999", "2000", "86400000",
	"0.000001", "10.000005", "33.000003", "100.000001"}

// closes are what a closed event carries: nothing (a clean close) most
// often, a failure otherwise.
var closes = []string{"", "", "", "disconnected:503", "disconnected:500", "disconnected:400", "disconnected", "unreachable", "timeout"}

func (gen *generator) next() Step {
	r, g := gen.r, gen.g
	timers := g.liveTimers()
	// The time of an event that is not a timer: before the next timer is
	// due, mostly; sometimes at that very millisecond, or after it (the
	// timer is then late).
	at := func() int64 {
		t := gen.now
		if len(timers) == 0 {
			return t + int64(pick(r, 0, 1, 10, 100, 1000, 5000, 60000))
		}
		due := max(g.dueMs(timers[0]), t)
		switch r.IntN(10) {
		case 0:
			return due
		case 1:
			return due + int64(r.IntN(5000))
		case 2:
			return t
		default:
			if gen.flappy {
				return t + r.Int64N(min(due-t, 2000)+1)
			}
			return t + r.Int64N(due-t+1)
		}
	}
	step := func(t int64, ev string) Step {
		gen.now = max(gen.now, t)
		return Step{AtMs: gen.now, Event: ev}
	}
	var live []uint64
	for id := range g.tports {
		live = append(live, uint64(id))
	}
	slices.Sort(live)
	var open []uint64 // checks asked and not answered
	for id, c := range g.checks {
		if !c.answered {
			open = append(open, uint64(id))
		}
	}
	slices.Sort(open)
	state := g.e.State().String()
	w := []int{
		0:  0, // fire the next timer when due
		1:  4, // fire a timer late (any timer due by then)
		2:  0, // an event on a live transport
		3:  0, // answer a check in flight
		4:  3, // a stale or unknown ID (transport, check, timer)
		5:  3, // network up or down
		6:  3, // connect
		7:  2, // close
		8:  1, // fatal
		9:  0, // activity at the idle limit's edge
		10: 1, // authorize (RTC8)
		11: 0, // a transport lost at the first-retry rule's end
	}
	if len(timers) > 0 {
		w[0] = 30
	} else {
		w[1] = 0
	}
	if len(live) > 0 {
		w[2] = 40
		if gen.flappy {
			w[2] = 150
		}
	}
	if len(open) > 0 {
		w[3] = 20
	}
	if state == "initialized" || state == "closed" || state == "failed" {
		w[6] = 30
	}
	if _, idle := g.timers["idle"]; idle && gen.idleLimit() > 0 {
		w[9] = 8
	}
	end := gen.reconnectAt + disconnectedRetryTimeoutMs
	if gen.cfg.FirstRetryMs > 0 && gen.reconnectAt >= 0 && gen.now <= end+1 && len(live) > 0 && state == "connecting" {
		w[11] = 6
	}
	switch choose(r, w) {
	case 0:
		// The first timer due, or another due at the same millisecond
		// (timers of equal timeouts): any order is a valid input.
		var tied []string
		for _, n := range timers {
			if g.dueMs(n) == g.dueMs(timers[0]) {
				tied = append(tied, n)
			}
		}
		name := timers[0]
		if r.IntN(3) == 0 {
			name = pick(r, tied...)
		}
		return step(g.dueMs(name), "timer "+name)
	case 1:
		t := max(g.dueMs(timers[0]), gen.now) + int64(pick(r, 1, 10, 500, 3000, 20000, 200000))
		var due []string
		for _, n := range timers {
			if g.dueMs(n) <= t {
				due = append(due, n)
			}
		}
		return step(t, "timer "+pick(r, due...))
	case 2:
		id := pick(r, live...)
		return step(at(), gen.transportEvent(id))
	case 3:
		id := pick(r, open...)
		return step(at(), gen.answer(g.checks[engine.CheckID(id)].kind, id))
	case 4:
		return step(at(), gen.staleEvent())
	case 5:
		return step(at(), pick(r, "network-down", "network-up"))
	case 6:
		return step(at(), "connect")
	case 7:
		return step(at(), "close")
	case 8:
		return step(at(), "fatal "+pick(r, failures...))
	case 10:
		return step(at(), "authorize")
	case 11:
		id := pick(r, live...)
		return step(end+int64(pick(r, -1, 0, 0, 1)), fmt.Sprintf("failed T%d %s", id, pick(r, "refused", "timeout", "disconnected:503")))
	default:
		return step(at(), gen.activityAtTheEdge())
	}
}

// observe notes what the Go engine did at step st: an immediate
// reconnect starts the first-retry rule's time.
func (gen *generator) observe(st Step, acts []string) {
	for _, a := range acts {
		// The immediate reconnect, or the drop or network-down whose
		// reconnect the reconnect window delays (the rule counts from
		// the drop then; a rate-limited drop also matches, harmlessly).
		if a == "state disconnected connecting reconnect" ||
			gen.cfg.ReconnectWindowMs > 0 && (strings.Contains(a, " disconnected dropped ") || strings.Contains(a, " disconnected network-down ")) {
			gen.reconnectAt = st.AtMs
			return
		}
	}
}

// transportEvent is an event for live transport id, likelier the further
// it is from active.
func (gen *generator) transportEvent(id uint64) string {
	r := gen.r
	t := gen.g.tports[engine.TransportID(id)]
	var kind string
	switch {
	case gen.flappy && r.IntN(4) > 0:
		kind = "connected"
		if t.active {
			kind = "closed"
		}
	case t.kind == "websocket" && !t.viable && gen.cfg.AdaptiveMultiple > 0 && r.IntN(3) == 0:
		kind = "dialed" // the adaptive short circuit's input, before the handshake
	case t.active:
		kind = pick(r, "closed", "closed", "closed", "failed", "failed", "connected", "viable",
			"details", "details", "activity", "activity", "activity", "activity", "activity", "dialed")
		if _, idle := gen.g.timers["idle"]; idle && r.IntN(2) == 0 {
			kind = "activity" // the idle timer's input: activity before it fires, or none
		}
	case t.viable:
		kind = pick(r, "connected", "connected", "connected", "failed", "closed", "viable", "details", "activity", "dialed")
	default:
		kind = pick(r, "viable", "viable", "viable", "connected", "failed", "failed", "failed", "closed", "activity", "dialed")
	}
	return gen.withOptions(kind, id)
}

// withOptions completes an event of kind for transport id with what it
// carries: a failure, a CONNECTED message's details, an activity's time.
func (gen *generator) withOptions(kind string, id uint64) string {
	r := gen.r
	ev := fmt.Sprintf("%s T%d", kind, id)
	switch kind {
	case "failed":
		ev += " " + gen.failure()
	case "closed":
		if f := pick(r, closes...); f != "" {
			ev += " " + f
		}
	case "connected", "details":
		opts := gen.details(kind == "details")
		gen.noteDetails(kind, id, opts)
		ev += opts
	case "activity":
		ev += gen.activityAt()
	case "dialed":
		ev += " rtt=" + pick(r, rtts...)
	}
	return ev
}

// staleEvent is an event naming something not live: a disposed, unknown
// or zero transport; an answered, unknown or zero check, or a check in
// flight answered as the other kind; a timer that is not running.
func (gen *generator) staleEvent() string {
	r, g := gen.r, gen.g
	switch r.IntN(3) {
	case 0:
		ids := []uint64{0, uint64(g.maxT) + 1}
		for id := engine.TransportID(1); id <= g.maxT; id++ {
			if g.tports[id] == nil {
				ids = append(ids, uint64(id), uint64(id)) // disposed: likelier
			}
		}
		return gen.transportEventAny(pick(r, ids...))
	case 1:
		kinds := []string{"connectivity", "websocket-check", "token"}
		answers := []string{"C0 " + pick(r, kinds...), fmt.Sprintf("C%d %s", g.maxC+1, pick(r, kinds...))}
		for id, c := range g.checks {
			if c.answered {
				answers = append(answers, fmt.Sprintf("C%d %s", id, c.kind), fmt.Sprintf("C%d %s", id, c.kind))
			} else {
				for _, k := range kinds {
					if k != c.kind {
						answers = append(answers, fmt.Sprintf("C%d %s", id, k))
					}
				}
			}
		}
		slices.Sort(answers) // map order must not reach the random choice
		f := strings.Fields(pick(r, answers...))
		id, _ := idOf(f[0], "C")
		return gen.answer(f[1], id)
	default:
		name := pick(r, "short-circuit", "retry", "state-ttl", "connectivity-check", "close", "websocket-slow",
			"websocket-give-up", "flap-hold", "attempt", "slow-check", "idle", "renew-token",
			"connect T"+strconv.Itoa(r.IntN(int(g.maxT)+2)))
		if _, live := g.timers[name]; live {
			name = "connect T0"
		}
		return "timer " + name
	}
}

// transportEventAny is any transport event for id, live or not.
func (gen *generator) transportEventAny(id uint64) string {
	r := gen.r
	switch r.IntN(6) {
	case 0:
		return fmt.Sprintf("viable T%d", id)
	case 1:
		return gen.withOptions("connected", id)
	case 2:
		return fmt.Sprintf("failed T%d %s", id, gen.failure())
	case 3:
		return gen.withOptions(pick(r, "details", "activity", "dialed"), id)
	default:
		return fmt.Sprintf("closed T%d", id)
	}
}

// choose returns an index drawn with the weights w.
func choose(r *rand.Rand, w []int) int {
	total := 0
	for _, x := range w {
		total += x
	}
	n := r.IntN(total)
	for i, x := range w {
		if n < x {
			return i
		}
		n -= x
	}
	return len(w) - 1
}
