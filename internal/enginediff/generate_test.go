package enginediff

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reconnect-go/reconnect/engine"
)

// TestGenerateDeterministic: a seed and an index give one timeline.
func TestGenerateDeterministic(t *testing.T) {
	for i := range 50 {
		a, ga := Generate(3, i)
		b, gb := Generate(3, i)
		if a.JSON() != b.JSON() || !reflect.DeepEqual(ga, gb) {
			t.Fatalf("timeline %d differs between two generations", i)
		}
		steps, _, err := RunGo(a)
		if err != nil || !reflect.DeepEqual(steps, ga) {
			t.Fatalf("timeline %d: replaying it gives other actions than generating it (%v)", i, err)
		}
	}
	if a, _ := Generate(3, 0); a.JSON() == func() string { b, _ := Generate(4, 0); return b.JSON() }() {
		t.Error("two seeds give the same timeline")
	}
}

// TestGenerateCovers requires of the timelines of one run what the
// differential promises: every event kind; events naming live and stale
// transports, checks and timers; checks answered (up and down) and never
// answered; every timer fired when due and late; every policy and every
// configuration knob; and, from the Go engine, every action, timer kind,
// state and reason.
func TestGenerateCovers(t *testing.T) {
	seen := map[string]int{}
	n := 2000
	if testing.Short() {
		n = 500
	}
	for i := range n {
		tl, _ := Generate(11, i)
		coverConfig(tl.Config, seen)
		g, err := newGoEngine(tl)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range tl.Steps {
			coverEvent(g, tl.Config, st, seen)
			acts, err := g.step(st)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range acts {
				f := strings.Fields(a)
				seen["action "+f[0]]++
				switch f[0] {
				case "timer":
					seen["timer started "+f[1]]++
				case "state":
					seen["state "+f[2]]++
					seen["reason "+f[3]]++
				case "open":
					seen["open "+f[2]+" "+f[4]]++
				case "update":
					seen["update "+f[1]]++
				}
			}
		}
		for _, c := range g.checks {
			if !c.answered {
				seen["check never answered"]++
			}
		}
		maps.DeleteFunc(seen, func(k string, _ int) bool { return strings.HasPrefix(k, "\x00") })
	}
	want := []string{
		"check never answered", "stale transport", "unknown transport", "transport 0", "stale check", "unknown check",
		"check 0", "check of the other kind", "timer not live", "open websocket upgrade", "open http resume", "open websocket clean",
	}
	for _, ev := range []string{"connect", "close", "viable", "connected", "failed", "closed", "timer", "connectivity",
		"websocket-check", "network-up", "network-down", "fatal", "details", "activity", "token", "authorize", "dialed"} {
		want = append(want, "event "+ev)
	}
	for _, k := range []string{"connectivity", "websocket-check"} {
		want = append(want, k+" up", k+" down")
	}
	// The connection contract's inputs: what a CONNECTED message says,
	// activity at every time, renewals answered every way, each for live
	// and stale IDs.
	want = append(want, "token renewed", "token failed", "connected maxIdleInterval", "connected connectionStateTtl",
		"connected error", "details maxIdleInterval", "details connectionStateTtl", "details error", "activity at",
		"activity at earlier", "activity at the step", "activity at later", "token error, canRenewToken true",
		"token error, canRenewToken false", "canRenewToken")
	for _, k := range []string{"connectivity", "websocket-check", "token"} {
		want = append(want, k+" check 0", k+" unknown check", k+" answering a check of the other kind", k+" stale check",
			k+" check in flight")
	}
	for _, ev := range []string{"details", "activity", "dialed"} {
		want = append(want, ev+" active transport", ev+" transport not active", ev+" stale transport")
	}
	want = append(want, "dialed rtt 0", "dialed rtt fraction", "dialed rtt a day", "dialed pending websocket",
		"dialed http", "dialed unknown transport", "dialed twice", "dialed adaptive on")
	for k := engine.TimerShortCircuit; k <= engine.TimerRenewToken; k++ {
		want = append(want, "timer started "+k.String(), "timer fired when due "+k.String(), "timer fired late "+k.String())
	}
	for _, a := range []string{"open", "dispose", "activate", "timer", "cancel", "check", "check-websocket", "state",
		"renew-token", "update"} {
		want = append(want, "action "+a)
	}
	for s := engine.Connecting; s <= engine.Failed; s++ {
		want = append(want, "state "+s.String())
	}
	for r := engine.ReasonConnectRequested; r <= engine.ReasonFatal; r++ {
		want = append(want, "reason "+r.String())
	}
	for _, r := range []engine.Reason{engine.ReasonDetails, engine.ReasonTransport} {
		want = append(want, "update "+r.String())
	}
	want = append(want, "policy websocket-first", "policy http-first", "policy websocket-check", "endpoint default",
		"endpoint explicit", "endpoint routing", "endpoint nonprod", "fallbackHosts empty", "fallbackHosts some",
		"webSocket off", "http off", "shortCircuitMs", "connectionStateTtlMs", "preference http", "preference websocket",
		"preference expired", "rememberTransport", "reconnectWindowMs", "immediateShare", "retrySpread", "suspendedSpread",
		"retryFamily full-jitter", "retryFamily equal-jitter", "retryFamily grpc", "retryFamily decorrelated-jitter",
		"immediateReconnect off", "immediateReconnect limited", "connectTimeoutMs", "idleSlackMs", "closingTimeoutMs",
		"renewalTimeoutMs", "jobs 1 ms", "jobs all equal", "idleLimitMs", "idleLimitMs with maxIdleInterval",
		"idleLimitMs without maxIdleInterval", "firstRetryMs", "firstRetryMs with a retry family", "firstRetryMs at its most",
		"adaptiveMultiple", "adaptiveMultiple 100", "adaptiveFloorMs", "adaptiveFloorMs at the short circuit",
		"endpoint address", "endpoint in capitals", "fallbackHosts one label", "fallbackHosts the primary",
		"timers due together, fired out of order")
	for _, w := range want {
		if seen[w] == 0 {
			t.Errorf("no timeline has %s", w)
		}
	}
	if t.Failed() {
		t.Logf("seen: %v", seen)
	}
}

func coverConfig(c Config, seen map[string]int) {
	seen["policy "+map[string]string{"": "websocket-first"}[c.Policy]+c.Policy]++
	switch {
	case c.Endpoint == "":
		seen["endpoint default"]++
	case strings.HasPrefix(c.Endpoint, "nonprod:"):
		seen["endpoint nonprod"]++
	case strings.Contains(c.Endpoint, ".") || c.Endpoint == "localhost":
		seen["endpoint explicit"]++
	default:
		seen["endpoint routing"]++
	}
	if c.FallbackHosts != nil {
		seen[map[bool]string{true: "fallbackHosts empty", false: "fallbackHosts some"}[len(*c.FallbackHosts) == 0]]++
		if slices.Contains(*c.FallbackHosts, "realtime-b") {
			seen["fallbackHosts one label"]++
		}
		if slices.Contains(*c.FallbackHosts, "main.realtime.ably.net") && c.Endpoint == "" {
			seen["fallbackHosts the primary"]++
		}
	}
	sc := cmp.Or(c.ShortCircuitMs, 2000)
	jobs := []int64{c.ConnectTimeoutMs, c.IdleSlackMs, c.ClosingTimeoutMs, c.RenewalTimeoutMs}
	for name, on := range map[string]bool{
		"webSocket off": c.WebSocket != nil && !*c.WebSocket, "http off": c.HTTP != nil && !*c.HTTP,
		"shortCircuitMs": c.ShortCircuitMs != 0, "connectionStateTtlMs": c.ConnectionStateTTLMs != 0,
		"preference http": strings.HasPrefix(c.Preference, "v1 http"), "preference websocket": strings.HasPrefix(c.Preference, "v1 websocket"),
		"preference expired": strings.Contains(c.Preference, fmt.Sprint(EpochUnixMs-86400000)), "rememberTransport": c.RememberTransport,
		"reconnectWindowMs": c.ReconnectWindowMs != 0, "immediateShare": c.ImmediateShare != 0, "retrySpread": c.RetrySpread != 0,
		"suspendedSpread": c.SuspendedSpread != 0, "canRenewToken": c.CanRenewToken,
		"retryFamily " + c.RetryFamily: c.RetryFamily != "", "immediateReconnect " + c.ImmediateReconnect: c.ImmediateReconnect != "",
		"connectTimeoutMs": c.ConnectTimeoutMs != 0, "idleSlackMs": c.IdleSlackMs != 0, "closingTimeoutMs": c.ClosingTimeoutMs != 0,
		"renewalTimeoutMs": c.RenewalTimeoutMs != 0, "jobs 1 ms": slices.Contains(jobs, 1),
		"jobs all equal": jobs[0] != 0 && jobs[0] == jobs[1] && jobs[1] == jobs[2] && jobs[2] == jobs[3],
		"idleLimitMs":    c.IdleLimitMs != 0, "firstRetryMs": c.FirstRetryMs != 0,
		"firstRetryMs with a retry family": c.FirstRetryMs != 0 && c.RetryFamily != "", "firstRetryMs at its most": c.FirstRetryMs == 15000,
		"adaptiveMultiple": c.AdaptiveMultiple != 0, "adaptiveMultiple 100": c.AdaptiveMultiple == 100,
		"adaptiveFloorMs": c.AdaptiveFloorMs != 0, "adaptiveFloorMs at the short circuit": c.AdaptiveMultiple != 0 && c.AdaptiveFloorMs == sc,
		"endpoint address": c.Endpoint == "127.0.0.1", "endpoint in capitals": c.Endpoint != strings.ToLower(c.Endpoint),
	} {
		if on {
			seen[name]++
		}
	}
}

// coverEvent notes what st names, in the Go engine's account before it.
func coverEvent(g *goEngine, c Config, st Step, seen map[string]int) {
	canRenew := c.CanRenewToken
	f := strings.Fields(st.Event)
	seen["event "+f[0]]++
	switch f[0] {
	case "viable", "connected", "failed", "closed", "details", "activity", "dialed":
		if f[0] == "dialed" {
			coverDialed(g, c, f, seen)
		}
		if f[0] == "connected" && c.IdleLimitMs != 0 {
			seen["idleLimitMs "+map[bool]string{true: "with", false: "without"}[strings.Contains(st.Event, "maxIdleInterval=")]+" maxIdleInterval"]++
		}
		id, _ := idOf(f[1], "T")
		t := g.tports[engine.TransportID(id)]
		switch {
		case id == 0:
			seen["transport 0"]++
		case t != nil && t.active:
			seen["live transport"]++
			seen[f[0]+" active transport"]++
		case t != nil:
			seen["live transport"]++
			seen[f[0]+" transport not active"]++
		case engine.TransportID(id) <= g.maxT:
			seen["stale transport"]++
			seen[f[0]+" stale transport"]++
		default:
			seen["unknown transport"]++
		}
		for _, o := range f[2:] {
			if k, v, ok := strings.Cut(o, "="); ok {
				seen[f[0]+" "+k]++
				if k == "at" {
					at, _ := strconv.ParseInt(v, 10, 64)
					seen["activity at "+map[int]string{-1: "earlier", 0: "the step", 1: "later"}[cmp.Compare(at, st.AtMs)]]++
				}
			}
		}
		if f[0] == "failed" && len(f) > 2 && f[2] == "token" {
			seen["token error, canRenewToken "+strconv.FormatBool(canRenew)]++
		}
	case "connectivity", "websocket-check", "token":
		seen[f[0]+" "+f[2]]++
		id, _ := idOf(f[1], "C")
		c := g.checks[engine.CheckID(id)]
		switch {
		case id == 0:
			seen["check 0"]++
			seen[f[0]+" check 0"]++
		case c == nil:
			seen["unknown check"]++
			seen[f[0]+" unknown check"]++
		case c.kind != f[0]:
			seen["check of the other kind"]++
			seen[f[0]+" answering a check of the other kind"]++
		case c.answered:
			seen["stale check"]++
			seen[f[0]+" stale check"]++
		default:
			seen[f[0]+" check in flight"]++
		}
	case "timer":
		name := strings.Join(f[1:], " ")
		if _, live := g.timers[name]; !live {
			seen["timer not live"]++
			break
		}
		kind := strings.Fields(name)[0]
		if first := g.liveTimers()[0]; first != name && g.dueMs(first) == g.dueMs(name) && st.AtMs == g.dueMs(name) {
			seen["timers due together, fired out of order"]++
		}
		if st.AtMs == g.dueMs(name) {
			seen["timer fired when due "+kind]++
		} else {
			seen["timer fired late "+kind]++
		}
	}
}

// coverDialed notes what a dialed event names and carries.
func coverDialed(g *goEngine, c Config, f []string, seen map[string]int) {
	rtt := strings.TrimPrefix(f[2], "rtt=")
	switch {
	case rtt == "0":
		seen["dialed rtt 0"]++
	case strings.Contains(rtt, "."):
		seen["dialed rtt fraction"]++
	case rtt == "86400000":
		seen["dialed rtt a day"]++
	}
	if c.AdaptiveMultiple != 0 {
		seen["dialed adaptive on"]++
	}
	id, _ := idOf(f[1], "T")
	switch t := g.tports[engine.TransportID(id)]; {
	case t == nil && engine.TransportID(id) > g.maxT:
		seen["dialed unknown transport"]++
	case t == nil:
	case t.kind == "http":
		seen["dialed http"]++
	case !t.viable:
		seen["dialed pending websocket"]++
	}
	// The timeline's own keys start with a NUL; the loop drops them
	// after each timeline.
	if seen["\x00dialed "+f[1]]++; seen["\x00dialed "+f[1]] == 2 {
		seen["dialed twice"]++
	}
}
