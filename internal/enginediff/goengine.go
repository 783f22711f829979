package enginediff

// The Go side: a timeline replayed through engine.Engine in process, its
// actions rendered in the fixture's action grammar, with the account of
// live transports, timers and checks the generator draws its events from.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/conform"
)

// epoch is atMs 0 of every timeline (fixtures/scenarios.json's clock).
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// EpochUnixMs is epoch in Unix milliseconds, the time base of a
// remembered transport's time in Config.Preference.
const EpochUnixMs = 1767225600000

// draws is the engine's source: the timeline's draws in order, then 0
// (the other engines' answer past the end is theirs to give: JS returns 0,
// Python fails).
type draws struct {
	d []float64
	i int
}

func (s *draws) Float64() float64 {
	s.i++
	if s.i > len(s.d) {
		return 0
	}
	return s.d[s.i-1]
}

// goTransport is a transport the engine opened and has not disposed.
type goTransport struct {
	kind   string // "websocket" or "http"
	viable bool   // a viable or connected event was fed for it
	active bool
}

// goTimer is a live timer: the engine's ID and when it is due.
type goTimer struct {
	id  engine.TimerID
	due time.Duration // from epoch
}

// goCheck is a check the engine asked for: a connectivity check, a
// websocket check or a token renewal (numbered together).
type goCheck struct {
	kind     string // its answer's event: "connectivity", "websocket-check" or "token"
	answered bool
}

// goEngine replays a timeline through the Go engine.
type goEngine struct {
	e      *engine.Engine
	src    *draws
	timers map[string]goTimer // live timers by name
	names  map[engine.TimerID]string
	tports map[engine.TransportID]*goTransport
	maxT   engine.TransportID
	checks map[engine.CheckID]*goCheck
	maxC   engine.CheckID
	now    time.Duration // the latest event time fed
	out    []engine.Action
}

// EngineConfig is the engine configuration c describes, as
// internal/conform's ScenarioConfig builds it from a scenario, drawing
// from src, validated.
func EngineConfig(c Config, src reconnect.Source) (engine.Config, error) {
	cfg, err := conform.ScenarioKnobs(c).EngineConfig(src)
	if err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

func newGoEngine(tl Timeline) (*goEngine, error) {
	src := &draws{d: tl.Draws}
	cfg, err := EngineConfig(tl.Config, src)
	if err != nil {
		return nil, err
	}
	e, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	return &goEngine{e: e, src: src, timers: map[string]goTimer{}, names: map[engine.TimerID]string{},
		tports: map[engine.TransportID]*goTransport{}, checks: map[engine.CheckID]*goCheck{}}, nil
}

// RunGo replays tl through the Go engine: the actions of every step, in
// the action grammar, and how many draws the engine took.
func RunGo(tl Timeline) (steps [][]string, drawn int, err error) {
	g, err := newGoEngine(tl)
	if err != nil {
		return nil, 0, err
	}
	steps = make([][]string, 0, len(tl.Steps))
	for i, st := range tl.Steps {
		acts, err := g.step(st)
		if err != nil {
			return nil, 0, fmt.Errorf("step %d: %w", i, err)
		}
		steps = append(steps, acts)
	}
	return steps, g.src.i, nil
}

// step feeds one event and renders its actions.
func (g *goEngine) step(st Step) (acts []string, err error) {
	ev, err := g.event(st.Event)
	if err != nil {
		return nil, err
	}
	if at := time.Duration(st.AtMs) * time.Millisecond; at > g.now {
		g.now = at
	}
	switch ev.Kind {
	case engine.EventTransportViable, engine.EventTransportConnected:
		if t := g.tports[ev.Transport]; t != nil {
			t.viable = true
		}
	case engine.EventConnectivity, engine.EventWebSocketCheck, engine.EventTokenRenewal:
		if c := g.checks[ev.Check]; c != nil && c.kind == answerKinds[ev.Kind] {
			c.answered = true
		}
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the Go engine panicked on %q: %v", st.Event, r)
		}
	}()
	g.out = g.e.Step(epoch.Add(time.Duration(st.AtMs)*time.Millisecond), ev, g.out[:0])
	acts = make([]string, 0, len(g.out))
	for _, a := range g.out {
		acts = append(acts, g.render(a))
	}
	return acts, nil
}

// event parses an event of the scenario grammar; a timer's name is looked
// up among the live timers this side keeps.
func (g *goEngine) event(s string) (engine.Event, error) {
	return conform.ParseEvent(s, func(name string) engine.TimerID {
		if t, ok := g.timers[name]; ok {
			delete(g.timers, name)
			return t.id
		}
		return 1 << 40 // a timer the engine never started
	})
}

func idOf(s, prefix string) (uint64, error) {
	rest, ok := strings.CutPrefix(s, prefix)
	n, err := strconv.ParseUint(rest, 10, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("bad ID %q", s)
	}
	return n, nil
}

// render writes an action in the action grammar and keeps the account of
// what is live.
func (g *goEngine) render(a engine.Action) string {
	switch a.Kind {
	case engine.ActionStartTimer:
		name := conform.TimerName(a)
		g.timers[name], g.names[a.Timer] = goTimer{id: a.Timer, due: a.Due.Sub(epoch)}, name
	case engine.ActionCancelTimer:
		delete(g.timers, g.names[a.Timer])
	case engine.ActionOpenTransport:
		g.tports[a.Transport] = &goTransport{kind: a.TransportKind.String()}
		g.maxT = max(g.maxT, a.Transport)
	case engine.ActionDisposeTransport:
		delete(g.tports, a.Transport)
	case engine.ActionActivateTransport:
		if t := g.tports[a.Transport]; t != nil {
			t.active, t.viable = true, true
		}
	case engine.ActionCheckConnectivity, engine.ActionCheckWebSocket, engine.ActionRenewToken:
		kind := map[engine.ActionKind]string{engine.ActionCheckConnectivity: "connectivity",
			engine.ActionCheckWebSocket: "websocket-check", engine.ActionRenewToken: "token"}[a.Kind]
		g.checks[a.Check] = &goCheck{kind: kind}
		g.maxC = max(g.maxC, a.Check)
	}
	return conform.ActionLine(a, epoch)
}

// answerKinds are the events that answer a check, by kind.
var answerKinds = map[engine.EventKind]string{engine.EventConnectivity: "connectivity",
	engine.EventWebSocketCheck: "websocket-check", engine.EventTokenRenewal: "token"}

// active is the active transport's ID, or 0.
func (g *goEngine) active() uint64 {
	for id, t := range g.tports {
		if t.active {
			return uint64(id)
		}
	}
	return 0
}

// liveTimers returns the names of the live timers, the first due first
// (ties by name).
func (g *goEngine) liveTimers() []string {
	names := make([]string, 0, len(g.timers))
	for n := range g.timers {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := g.timers[names[i]], g.timers[names[j]]
		if a.due != b.due {
			return a.due < b.due
		}
		return a.id < b.id
	})
	return names
}

// dueMs is timer name's due time in whole milliseconds, rounded up (a
// timeline's times are whole milliseconds; a timer never fires early).
func (g *goEngine) dueMs(name string) int64 {
	return int64(math.Ceil(float64(g.timers[name].due) / float64(time.Millisecond)))
}
