package conform

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// ScenarioInput is a scenario as the protocol sends it: a configuration,
// the pinned draws, and the timeline.
type ScenarioInput struct {
	Config ScenarioKnobs `json:"config"`
	Draws  []float64     `json:"draws"`
	Steps  []struct {
		AtMs  int64  `json:"atMs"`
		Event string `json:"event"`
	} `json:"steps"`
}

// ScenarioKnobs are the fields of a scenario's config
// (fixtures/scenarios.json): a zero or absent field has the default of
// the file's defaults object. Written as JSON, only the fields set appear;
// fallbackHosts appears exactly when it is set, even empty (which
// disables fallback).
type ScenarioKnobs struct {
	Policy               string    `json:"policy,omitempty"`
	Endpoint             string    `json:"endpoint,omitempty"`
	FallbackHosts        *[]string `json:"fallbackHosts,omitempty"`
	WebSocket            *bool     `json:"webSocket,omitempty"`
	HTTP                 *bool     `json:"http,omitempty"`
	ShortCircuitMs       int64     `json:"shortCircuitMs,omitempty"`
	ConnectionStateTTLMs int64     `json:"connectionStateTtlMs,omitempty"`
	Preference           string    `json:"preference,omitempty"`
	RememberTransport    bool      `json:"rememberTransport,omitempty"`
	ReconnectWindowMs    int64     `json:"reconnectWindowMs,omitempty"`
	ImmediateShare       float64   `json:"immediateShare,omitempty"`
	RetrySpread          float64   `json:"retrySpread,omitempty"`
	SuspendedSpread      float64   `json:"suspendedSpread,omitempty"`
	CanRenewToken        bool      `json:"canRenewToken,omitempty"`
	// The jobs of realtimeRequestTimeout (0 means it) and the
	// client-side idle limit (0 means none).
	ConnectTimeoutMs int64 `json:"connectTimeoutMs,omitempty"`
	IdleSlackMs      int64 `json:"idleSlackMs,omitempty"`
	ClosingTimeoutMs int64 `json:"closingTimeoutMs,omitempty"`
	RenewalTimeoutMs int64 `json:"renewalTimeoutMs,omitempty"`
	IdleLimitMs      int64 `json:"idleLimitMs,omitempty"`
	// The retry policy (engine.Config.Retry) and the immediate reconnect
	// (engine.Config.ImmediateReconnect): retryFamily is a
	// reconnect.RetryFamily's name, immediateReconnect "on", "off" or
	// "limited".
	RetryFamily                  string  `json:"retryFamily,omitempty"`
	RetryBaseMs                  int64   `json:"retryBaseMs,omitempty"`
	RetryCapMs                   int64   `json:"retryCapMs,omitempty"`
	RetryMultiplier              float64 `json:"retryMultiplier,omitempty"`
	RetryJitter                  float64 `json:"retryJitter,omitempty"`
	ImmediateReconnect           string  `json:"immediateReconnect,omitempty"`
	ImmediateReconnectIntervalMs int64   `json:"immediateReconnectIntervalMs,omitempty"`
	AdaptiveMultiple             float64 `json:"adaptiveMultiple,omitempty"`
	AdaptiveFloorMs              int64   `json:"adaptiveFloorMs,omitempty"`
	FirstRetryMs                 int64   `json:"firstRetryMs,omitempty"`
}

// EngineConfig is the engine configuration the knobs describe (the
// defaults of engine.AblyConfig for the others), drawing from src. It is
// not validated (engine.New does).
func (k ScenarioKnobs) EngineConfig(src reconnect.Source) (engine.Config, error) {
	ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
	cfg := engine.AblyConfig()
	if k.ShortCircuitMs != 0 {
		cfg.ShortCircuit = ms(k.ShortCircuitMs)
	}
	cfg.Endpoint.Endpoint = k.Endpoint
	if k.FallbackHosts != nil {
		cfg.Endpoint.FallbackHosts = append([]string{}, (*k.FallbackHosts)...)
	}
	if k.WebSocket != nil {
		cfg.Transports.WebSocket = *k.WebSocket
	}
	if k.HTTP != nil {
		cfg.Transports.HTTP = *k.HTTP
	}
	if k.ConnectionStateTTLMs != 0 {
		cfg.Timeouts.ConnectionStateTTL = ms(k.ConnectionStateTTLMs)
	}
	cfg.ReconnectWindow = ms(k.ReconnectWindowMs)
	cfg.ImmediateShare = k.ImmediateShare
	cfg.RetrySpread, cfg.SuspendedSpread = k.RetrySpread, k.SuspendedSpread
	cfg.FirstRetry = ms(k.FirstRetryMs)
	if err := cfg.Preference.UnmarshalText([]byte(k.Preference)); err != nil {
		return cfg, err
	}
	if k.RetryFamily != "" {
		f, err := reconnect.ParseRetryFamily(k.RetryFamily)
		if err != nil {
			return cfg, err
		}
		cfg.Retry = reconnect.RetryPolicy{Family: f, Base: ms(k.RetryBaseMs), Cap: ms(k.RetryCapMs),
			Multiplier: k.RetryMultiplier, Jitter: k.RetryJitter}
	}
	switch k.ImmediateReconnect {
	case "", "on":
	case "off":
		cfg.ImmediateReconnect = engine.ImmediateOff
	case "limited":
		cfg.ImmediateReconnect = engine.ImmediateLimited
	default:
		return cfg, fmt.Errorf("unknown immediateReconnect %q", k.ImmediateReconnect)
	}
	cfg.ImmediateReconnectInterval = ms(k.ImmediateReconnectIntervalMs)
	cfg.RememberTransport = k.RememberTransport
	cfg.CanRenewToken = k.CanRenewToken
	cfg.Timeouts.Connect, cfg.Timeouts.IdleSlack = ms(k.ConnectTimeoutMs), ms(k.IdleSlackMs)
	cfg.Timeouts.Closing, cfg.Timeouts.Renewal = ms(k.ClosingTimeoutMs), ms(k.RenewalTimeoutMs)
	cfg.IdleLimit = ms(k.IdleLimitMs)
	cfg.Adaptive = engine.AdaptiveShortCircuit{Multiple: k.AdaptiveMultiple, Floor: ms(k.AdaptiveFloorMs)}
	switch k.Policy {
	case "", "websocket-first":
	case "http-first":
		cfg.Policy = engine.PolicyHTTPFirst
	case "websocket-check":
		cfg.Policy = engine.PolicyWebSocketCheck
	default:
		return cfg, fmt.Errorf("unknown policy %q", k.Policy)
	}
	cfg.Source = src
	return cfg, nil
}

// StepResult is what the engine did at one step.
type StepResult struct {
	Actions    []string `json:"actions"`
	State      string   `json:"state"`
	RetryCount int      `json:"retryCount"`
}

// pinnedDraws returns the scenario's draws in order and records overdraws.
type pinnedDraws struct {
	draws []float64
	i     int
	over  bool
}

func (p *pinnedDraws) Float64() float64 {
	if p.i >= len(p.draws) {
		p.over = true
		return 0
	}
	p.i++
	return p.draws[p.i-1]
}

var scenarioEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// ScenarioConfig is the engine configuration a scenario describes, drawing
// from the scenario's pinned draws; drawn reports an error unless the
// engine has drawn exactly the pinned numbers.
func ScenarioConfig(in ScenarioInput) (cfg engine.Config, drawn func() error, err error) {
	src := &pinnedDraws{draws: in.Draws}
	if cfg, err = in.Config.EngineConfig(src); err != nil {
		return cfg, nil, err
	}
	drawn = func() error {
		if src.over || src.i != len(src.draws) {
			return fmt.Errorf("the engine drew %d numbers (more than that if over) where %d were pinned", src.i, len(src.draws))
		}
		return nil
	}
	return cfg, drawn, nil
}

// RunScenario replays a scenario through a real Engine and renders every
// action in the fixture's grammar. It fails when the scenario is malformed
// or the engine draws more or fewer numbers than were pinned.
func RunScenario(in ScenarioInput) ([]StepResult, error) {
	cfg, drawn, err := ScenarioConfig(in)
	if err != nil {
		return nil, err
	}
	e, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	r := &renderer{timers: map[string]engine.TimerID{}, names: map[engine.TimerID]string{}}
	var out []engine.Action
	res := make([]StepResult, 0, len(in.Steps))
	for _, st := range in.Steps {
		ev, err := r.event(st.Event)
		if err != nil {
			return nil, err
		}
		out = e.Step(scenarioEpoch.Add(time.Duration(st.AtMs)*time.Millisecond), ev, out[:0])
		sr := StepResult{Actions: []string{}, State: e.State().String(), RetryCount: e.RetryCount()}
		for _, a := range out {
			sr.Actions = append(sr.Actions, r.render(a))
		}
		res = append(res, sr)
	}
	return res, drawn()
}

// renderer translates between the fixture's names and the engine's IDs.
type renderer struct {
	timers map[string]engine.TimerID // live timers by name
	names  map[engine.TimerID]string
}

var eventKinds = map[string]engine.EventKind{"connect": engine.EventConnect, "close": engine.EventClose,
	"viable": engine.EventTransportViable, "connected": engine.EventTransportConnected,
	"failed": engine.EventTransportFailed, "closed": engine.EventTransportClosed,
	"network-up": engine.EventNetworkUp, "network-down": engine.EventNetworkDown,
	"authorize": engine.EventAuthorize}

// FailureKinds maps the fixtures' failure kind names to FailureKind.
var FailureKinds = map[string]reconnect.FailureKind{}

func init() {
	for k := reconnect.FailureNone; k <= reconnect.FailureToken; k++ {
		FailureKinds[k.String()] = k
	}
}

// ParseFailure reads "<kind>[:<status>[:<server>]]".
func ParseFailure(s string) (reconnect.Failure, error) {
	parts := strings.Split(s, ":")
	k, ok := FailureKinds[parts[0]]
	if !ok {
		return reconnect.Failure{}, fmt.Errorf("unknown failure kind %q", parts[0])
	}
	f := reconnect.Failure{Kind: k}
	if len(parts) > 1 {
		n, err := strconv.Atoi(parts[1])
		if err != nil {
			return f, fmt.Errorf("bad status in %q", s)
		}
		f.Status = n
	}
	if len(parts) > 2 {
		f.Server = parts[2]
	}
	return f, nil
}

func (r *renderer) event(s string) (engine.Event, error) {
	return ParseEvent(s, func(name string) engine.TimerID {
		id, ok := r.timers[name]
		if !ok {
			id = 1 << 40 // a timer the engine never started
		}
		delete(r.timers, r.names[id])
		return id
	})
}

// ParseEvent reads one event of the scenario grammar (fixtures/README.md).
// timer resolves a timer's name ("retry", "connect T1") to the engine's ID
// of that live timer, or to an ID the engine never gave when none is live.
func ParseEvent(s string, timer func(name string) engine.TimerID) (engine.Event, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return engine.Event{}, fmt.Errorf("empty event")
	}
	switch f[0] {
	case "connectivity", "websocket-check":
		// "connectivity C<n> up|down": the answer to check C<n> (C0 names
		// no check: the engine rejects it as unknown).
		if len(f) != 3 || (f[2] != "up" && f[2] != "down") {
			return engine.Event{}, fmt.Errorf("bad event %q", s)
		}
		n, err := strconv.ParseUint(strings.TrimPrefix(f[1], "C"), 10, 64)
		if err != nil || !strings.HasPrefix(f[1], "C") {
			return engine.Event{}, fmt.Errorf("bad check in %q", s)
		}
		k := engine.EventConnectivity
		if f[0] == "websocket-check" {
			k = engine.EventWebSocketCheck
		}
		return engine.Event{Kind: k, Check: engine.CheckID(n), Up: f[2] == "up"}, nil
	case "timer":
		return engine.Event{Kind: engine.EventTimerFired, Timer: timer(strings.Join(f[1:], " "))}, nil
	case "fatal":
		if len(f) != 2 {
			return engine.Event{}, fmt.Errorf("bad event %q", s)
		}
		fl, err := ParseFailure(f[1])
		return engine.Event{Kind: engine.EventFatal, Failure: fl}, err
	case "connected", "details", "activity", "token":
		return serverEvent(s, f)
	case "dialed":
		return dialedEvent(s, f)
	}
	k, ok := eventKinds[f[0]]
	if !ok {
		return engine.Event{}, fmt.Errorf("unknown event %q", s)
	}
	ev := engine.Event{Kind: k}
	if len(f) > 1 {
		n, err := strconv.ParseUint(strings.TrimPrefix(f[1], "T"), 10, 64)
		if err != nil || !strings.HasPrefix(f[1], "T") {
			return ev, fmt.Errorf("bad transport in %q", s)
		}
		ev.Transport = engine.TransportID(n)
	}
	if len(f) > 2 {
		fl, err := ParseFailure(f[2])
		if err != nil {
			return ev, err
		}
		ev.Failure = fl
	}
	return ev, nil
}

// dialedEvent reads "dialed T<n> rtt=<ms>": transport T<n>'s dial is up
// after <ms> milliseconds (a non-negative number, decimals allowed).
func dialedEvent(s string, f []string) (engine.Event, error) {
	if len(f) != 3 || !strings.HasPrefix(f[1], "T") || !strings.HasPrefix(f[2], "rtt=") {
		return engine.Event{}, fmt.Errorf("bad event %q: want dialed T<n> rtt=<ms>", s)
	}
	n, err := strconv.ParseUint(f[1][1:], 10, 64)
	if err != nil {
		return engine.Event{}, fmt.Errorf("bad transport in %q", s)
	}
	ms, err := strconv.ParseFloat(f[2][len("rtt="):], 64)
	if err != nil || !(ms >= 0 && ms <= 86_400_000) {
		return engine.Event{}, fmt.Errorf("bad rtt in %q: want milliseconds from 0 to a day", s)
	}
	return engine.Event{Kind: engine.EventTransportDialed, Transport: engine.TransportID(n), RTT: time.Duration(math.Round(ms * float64(time.Millisecond)))}, nil
}

// msText writes a duration as milliseconds with at most six decimals.
func msText(d time.Duration) string {
	s := strconv.FormatFloat(float64(d)/1e6, 'f', 6, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// render writes a in the fixture's grammar, keeping the names of the live
// timers.
func (r *renderer) render(a engine.Action) string {
	switch a.Kind {
	case engine.ActionStartTimer:
		name := TimerName(a)
		r.timers[name], r.names[a.Timer] = a.Timer, name
	case engine.ActionCancelTimer:
		delete(r.timers, r.names[a.Timer])
	}
	return ActionLine(a, scenarioEpoch)
}

// TimerName is the fixture's name of the timer a starts or cancels: its
// kind ("connect", "retry", ...), with " T<n>" after a connect timer's.
func TimerName(a engine.Action) string {
	name := a.TimerKind.String()
	if a.TimerKind == engine.TimerConnect {
		name += fmt.Sprintf(" T%d", a.Transport)
	}
	return name
}

// ActionLine renders a in the fixture's action grammar: "timer <name>
// at=<ms>" (the time from epoch to the timer's due time, in milliseconds
// with at most six decimals), "cancel <name>", StateLine, UpdateLine,
// "open T<n> <kind> <host> <mode>", "dispose T<n>", "activate T<n>",
// "check C<n>", "check-websocket C<n>", "renew-token C<n>"; an action of
// another kind as its String.
func ActionLine(a engine.Action, epoch time.Time) string {
	switch a.Kind {
	case engine.ActionStartTimer:
		return "timer " + TimerName(a) + " at=" + msText(a.Due.Sub(epoch))
	case engine.ActionCancelTimer:
		return "cancel " + TimerName(a)
	case engine.ActionStateChange:
		return StateLine(a.From, a.To, a.Reason, a.RetryIn, a.Failure)
	case engine.ActionOpenTransport:
		return fmt.Sprintf("open T%d %v %s %v", a.Transport, a.TransportKind, a.Host, a.Mode)
	case engine.ActionDisposeTransport:
		return fmt.Sprintf("dispose T%d", a.Transport)
	case engine.ActionActivateTransport:
		return fmt.Sprintf("activate T%d", a.Transport)
	case engine.ActionCheckConnectivity:
		return fmt.Sprintf("check C%d", a.Check)
	case engine.ActionCheckWebSocket:
		return fmt.Sprintf("check-websocket C%d", a.Check)
	case engine.ActionRenewToken:
		return fmt.Sprintf("renew-token C%d", a.Check)
	case engine.ActionUpdate:
		return UpdateLine(a.Reason, a.Failure)
	}
	return a.String()
}

// StateLine renders a state change in the fixture's grammar:
// "state <from> <to> <reason>[ retryIn=<ms>][ error=<failure>]", retryIn
// for DISCONNECTED and SUSPENDED only, error when a failure caused it.
func StateLine(from, to engine.State, reason engine.Reason, retryIn time.Duration, f reconnect.Failure) string {
	s := "state " + from.String() + " " + to.String() + " " + reason.String()
	if to == engine.Disconnected || to == engine.Suspended {
		s += " retryIn=" + msText(retryIn)
	}
	if f.Kind != reconnect.FailureNone {
		s += " error=" + f.String()
	}
	return s
}

// UpdateLine renders an update in the fixture's grammar:
// "update <reason>[ error=<failure>]".
func UpdateLine(reason engine.Reason, f reconnect.Failure) string {
	s := "update " + reason.String()
	if f.Kind != reconnect.FailureNone {
		s += " error=" + f.String()
	}
	return s
}

// decode converts a protocol input map into a typed value.
func decode(in map[string]any, v any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
