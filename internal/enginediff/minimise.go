package enginediff

// Minimising a disagreement: delta debugging over the events while the
// disagreement persists, then the configuration knobs and the draws.

import (
	"bytes"
	"cmp"
	"strconv"
	"strings"
)

// Minimise returns the smallest timeline it finds, starting from tl, for
// which keep still holds (keep(tl) must hold). Events are removed by
// delta debugging (chunks, then one at a time, until no single event can
// go); after each removal a timer's event is moved to when the timer is
// due if it came earlier, so the timeline stays one an SDK could feed.
// Then each configuration knob is tried at its default, and the draws are
// cut to those the Go engine takes.
func Minimise(tl Timeline, keep func(Timeline) (bool, error)) (Timeline, error) {
	tl, from := origins(tl)
	try := func(c Timeline) (bool, error) {
		c = repair(c, from)
		ok, err := keep(c)
		if ok && err == nil {
			tl = c
		}
		return ok, err
	}
	// ddmin over the steps, complements only.
	for n := 2; len(tl.Steps) >= 2; {
		chunk := (len(tl.Steps) + n - 1) / n
		reduced := false
		for start := 0; start < len(tl.Steps); start += chunk {
			c := tl.clone()
			c.Steps = append(c.Steps[:start:start], tl.Steps[min(start+chunk, len(tl.Steps)):]...)
			ok, err := try(c)
			if err != nil {
				return tl, err
			}
			if ok {
				n, reduced = max(n-1, 2), true
				break
			}
		}
		if !reduced {
			if n >= len(tl.Steps) {
				break
			}
			n = min(2*n, len(tl.Steps))
		}
	}
	if err := removeOneByOne(&tl, try); err != nil {
		return tl, err
	}
	// The knobs at their defaults, one at a time.
	knobs := false
	for _, reset := range []func(*Config){
		func(c *Config) { c.Policy = "" }, func(c *Config) { c.Endpoint = "" }, func(c *Config) { c.FallbackHosts = nil },
		func(c *Config) { c.WebSocket = nil }, func(c *Config) { c.HTTP = nil }, func(c *Config) { c.ShortCircuitMs = 0 },
		func(c *Config) { c.ConnectionStateTTLMs = 0 }, func(c *Config) { c.Preference = "" },
		func(c *Config) { c.RememberTransport = false }, func(c *Config) { c.ImmediateShare = 0 },
		func(c *Config) { c.ReconnectWindowMs, c.ImmediateShare = 0, 0 }, func(c *Config) { c.RetrySpread = 0 },
		func(c *Config) { c.SuspendedSpread = 0 }, func(c *Config) { c.CanRenewToken = false },
		func(c *Config) {
			c.RetryFamily, c.RetryBaseMs, c.RetryCapMs, c.RetryMultiplier, c.RetryJitter = "", 0, 0, 0, 0
		},
		func(c *Config) { c.ImmediateReconnect, c.ImmediateReconnectIntervalMs = "", 0 },
		func(c *Config) { c.ConnectTimeoutMs = 0 }, func(c *Config) { c.IdleSlackMs = 0 },
		func(c *Config) { c.ClosingTimeoutMs = 0 }, func(c *Config) { c.RenewalTimeoutMs = 0 },
		func(c *Config) { c.IdleLimitMs = 0 }, func(c *Config) { c.FirstRetryMs = 0 },
		func(c *Config) { c.AdaptiveMultiple, c.AdaptiveFloorMs = 0, 0 }, func(c *Config) { c.AdaptiveFloorMs = 0 },
	} {
		c := tl.clone()
		reset(&c.Config)
		if a, b := c.Config.text(), tl.Config.text(); bytes.Equal(a, b) {
			continue
		}
		if _, err := newGoEngine(c); err != nil {
			continue
		}
		ok, err := try(c)
		if err != nil {
			return tl, err
		}
		knobs = knobs || ok
	}
	// A knob at its default may leave events that now do nothing (a
	// transport it opened is gone, so its events name T0): once more, one
	// event at a time.
	if knobs {
		if err := removeOneByOne(&tl, try); err != nil {
			return tl, err
		}
	}
	// The draws the Go engine takes, as a scenario pins them, if the
	// disagreement stays; else as few more as it needs.
	if _, drawn, err := RunGo(tl); err == nil {
		for n := drawn; n < len(tl.Draws); n++ {
			c := tl.clone()
			c.Draws = c.Draws[:n]
			ok, err := try(c)
			if err != nil {
				return tl, err
			}
			if ok {
				break
			}
		}
	}
	return tl, nil
}

// removeOneByOne removes single events from *tl while try keeps the
// result, until no single event can go.
func removeOneByOne(tl *Timeline, try func(Timeline) (bool, error)) error {
	for changed := true; changed; {
		changed = false
		for i := len(tl.Steps) - 1; i >= 0; i-- {
			c := tl.clone()
			c.Steps = append(c.Steps[:i:i], tl.Steps[i+1:]...)
			ok, err := try(c)
			if err != nil {
				return err
			}
			changed = changed || ok
		}
	}
	return nil
}

// creation is where an ID was given out: the origin of the step whose
// actions gave it out, and its rank among the IDs of its kind that step
// gave out.
type creation struct{ origin, rank int }

// idNames are the IDs a timeline's Go run gave out, by where: transports
// ("T") and checks ("C").
type idNames map[byte]map[creation]uint64

// record notes the IDs step origin's actions gave out.
func (n idNames) record(origin int, acts []string) {
	rank := map[byte]int{}
	for _, a := range acts {
		f := strings.Fields(a)
		if len(f) < 2 || f[0] != "open" && f[0] != "check" && f[0] != "check-websocket" {
			continue
		}
		kind := f[1][0]
		id, err := strconv.ParseUint(f[1][1:], 10, 64)
		if err != nil {
			continue
		}
		if n[kind] == nil {
			n[kind] = map[creation]uint64{}
		}
		n[kind][creation{origin, rank[kind]}] = id
		rank[kind]++
	}
}

// reverse maps each ID to where it was given out.
func (n idNames) reverse() map[string]creation {
	r := map[string]creation{}
	for kind, m := range n {
		for c, id := range m {
			r[string(kind)+strconv.FormatUint(id, 10)] = c
		}
	}
	return r
}

// origins numbers tl's steps as the start of a minimisation and returns
// where each ID its Go run gives out comes from.
func origins(tl Timeline) (Timeline, map[string]creation) {
	tl = tl.clone()
	names := idNames{}
	g, err := newGoEngine(tl)
	for i := range tl.Steps {
		tl.Steps[i].origin, tl.Steps[i].event0 = i+1, tl.Steps[i].Event
		if err != nil {
			continue
		}
		acts, serr := g.step(tl.Steps[i])
		if serr != nil {
			err = serr
			continue
		}
		names.record(i+1, acts)
	}
	return tl, names.reverse()
}

// repair makes a timeline some of whose steps were removed mean what it
// meant: every transport or check an event names is renamed to the ID the
// same step's action now gives out (T0 or C0, which name nothing, once
// that action is gone); and each timer's event that comes before the
// timer is due (in the Go engine) moves to when it is due, with later
// events: a timer never fires early.
func repair(tl Timeline, from map[string]creation) Timeline {
	g, err := newGoEngine(tl)
	if err != nil {
		return tl
	}
	now := idNames{}
	rename := func(w string) string {
		c, ok := from[w]
		if !ok || len(w) < 2 {
			return w
		}
		if id, ok := now[w[0]][c]; ok {
			return w[:1] + strconv.FormatUint(id, 10)
		}
		return w[:1] + "0"
	}
	var last int64
	for i, st := range tl.Steps {
		f := strings.Fields(cmp.Or(st.event0, st.Event))
		for j := 1; j < len(f); j++ {
			if f[j][0] == 'T' || f[j][0] == 'C' {
				f[j] = rename(f[j])
			}
		}
		st.Event = strings.Join(f, " ")
		st.AtMs = max(st.AtMs, last)
		if name, ok := timerName(st.Event); ok {
			if _, live := g.timers[name]; live {
				st.AtMs = max(st.AtMs, g.dueMs(name))
			}
		}
		tl.Steps[i], last = st, st.AtMs
		acts, err := g.step(st)
		if err != nil {
			return tl
		}
		now.record(st.origin, acts)
	}
	return tl
}

// timerName is the timer a "timer <name>" event fires.
func timerName(ev string) (string, bool) {
	return strings.CutPrefix(ev, "timer ")
}
