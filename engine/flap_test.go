package engine

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// flapRun connects an engine whose every websocket connects at once, drops
// the active websocket at each of the given times, and reports whether
// the attempt after the last drop opened a websocket.
func flapRun(t *testing.T, g FlapGuard, drops ...time.Duration) bool {
	t.Helper()
	cfg := AblyConfig()
	cfg.Flap = g
	_, ws := flapRunEngine(t, cfg, drops...)
	return ws
}

// flapRunEngine is flapRun with the whole configuration, returning the
// engine too.
func flapRunEngine(t *testing.T, cfg Config, drops ...time.Duration) (*Engine, bool) {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []Action
	opened := func() (TransportID, reconnect.TransportKind) {
		for _, a := range out {
			if a.Kind == ActionOpenTransport {
				return a.Transport, a.TransportKind
			}
		}
		t.Fatalf("nothing opened: %v", out)
		return 0, reconnect.NoTransport
	}
	out = e.Step(start, Event{Kind: EventConnect}, out[:0])
	id, kind := opened()
	for _, d := range drops {
		if kind != reconnect.WebSocket {
			t.Fatalf("an attempt before the last drop opened %v", kind)
		}
		out = e.Step(start.Add(d-time.Millisecond), Event{Kind: EventTransportConnected, Transport: id}, out[:0])
		out = e.Step(start.Add(d), Event{Kind: EventTransportClosed, Transport: id}, out[:0])
		id, kind = opened()
	}
	return e, kind == reconnect.WebSocket
}

// TestFlapGuardWritesNoPreferenceWithoutRememberTransport: the guard
// remembers HTTP (websocket-unstable) only in an engine that keeps the
// preference; without RememberTransport it writes none, and
// Engine.Preference keeps what the configuration held (docs/engine.md,
// The flapping guard; conformance/guesses.json
// flapping-preference-without-remember, which no fixture can see).
func TestFlapGuardWritesNoPreferenceWithoutRememberTransport(t *testing.T) {
	g := FlapGuard{Drops: 2, Window: 10 * time.Second, Hold: time.Minute}
	for _, remember := range []bool{false, true} {
		cfg := AblyConfig()
		cfg.Flap, cfg.RememberTransport = g, remember
		e, ws := flapRunEngine(t, cfg, 5*time.Second, 6*time.Second)
		if ws {
			t.Fatalf("remember %v: the guard did not trigger", remember)
		}
		p := e.Preference()
		switch {
		case !remember && p != (reconnect.Preference{}):
			t.Errorf("without RememberTransport the guard wrote %+v, want none", p)
		case remember && (p.Transport != reconnect.HTTP || p.Reason != reconnect.PreferenceWebSocketUnstable):
			t.Errorf("with RememberTransport the preference is %+v, want HTTP websocket-unstable", p)
		}
	}
}

func TestFlapGuardTriggersOnTheKthDropWithinTheWindowInclusive(t *testing.T) {
	g := FlapGuard{Drops: 3, Window: 10 * time.Second, Hold: time.Minute}
	s := time.Second
	for _, c := range []struct {
		name  string
		drops []time.Duration
		ws    bool
	}{
		{"two drops are not enough", []time.Duration{5 * s, 10 * s}, true},
		{"three drops exactly the window apart", []time.Duration{5 * s, 10 * s, 15 * s}, false},
		{"three drops a nanosecond more than the window apart", []time.Duration{5 * s, 10 * s, 15*s + 1}, true},
		{"the oldest of the last three counts, not the first ever", []time.Duration{5 * s, 20 * s, 25 * s, 30 * s}, false},
		{"after the hold the count starts again", []time.Duration{5 * s, 10 * s, 15 * s, 76 * s, 80 * s}, true},
	} {
		var got bool
		if c.name == "after the hold the count starts again" {
			got = flapRunAfterHold(t, g) // c.drops shows the drop times it plays
		} else {
			got = flapRun(t, g, c.drops...)
		}
		if got != c.ws {
			t.Errorf("%s: websocket opened %v, want %v", c.name, got, c.ws)
		}
	}
	if !flapRun(t, FlapGuard{Drops: -1}, s, 2*s, 3*s, 4*s, 5*s, 6*s) {
		t.Error("Drops < 0 should turn the guard off")
	}
}

// flapRunAfterHold triggers the guard (3 drops), lets the hold end on an
// HTTP connection, drops the upgrade websocket twice more, and reports
// whether the attempt after that opened a websocket: two drops after a
// hold do not trigger it again.
func flapRunAfterHold(t *testing.T, g FlapGuard) bool {
	t.Helper()
	cfg := AblyConfig()
	cfg.Flap = g
	e, _ := New(cfg)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []Action
	last := func(k ActionKind) Action {
		for i := len(out) - 1; i >= 0; i-- {
			if out[i].Kind == k {
				return out[i]
			}
		}
		t.Fatalf("no %v in %v", k, out)
		return Action{}
	}
	at := func(s int) time.Time { return start.Add(time.Duration(s) * time.Second) }
	out = e.Step(at(0), Event{Kind: EventConnect}, out[:0])
	for i := 1; i <= 3; i++ {
		id := last(ActionOpenTransport).Transport
		out = e.Step(at(5*i-1), Event{Kind: EventTransportConnected, Transport: id}, out[:0])
		out = e.Step(at(5*i), Event{Kind: EventTransportClosed, Transport: id}, out[:0])
	}
	httpID := last(ActionOpenTransport)
	if httpID.TransportKind != reconnect.HTTP {
		t.Fatalf("after three drops the attempt opened %v", httpID.TransportKind)
	}
	out = e.Step(at(16), Event{Kind: EventTransportConnected, Transport: httpID.Transport}, out[:0])
	hold := last(ActionStartTimer)
	if hold.TimerKind != TimerFlapHold || !hold.Due.Equal(at(75)) {
		t.Fatalf("want the flap-hold timer due at 75 s, got %v", hold)
	}
	out = e.Step(hold.Due, Event{Kind: EventTimerFired, Timer: hold.Timer}, out[:0])
	up := last(ActionOpenTransport)
	if up.TransportKind != reconnect.WebSocket || up.Mode != reconnect.ModeUpgrade {
		t.Fatalf("at the hold's end want an upgrade websocket, got %v", up)
	}
	out = e.Step(at(76), Event{Kind: EventTransportConnected, Transport: up.Transport}, out[:0])
	out = e.Step(at(77), Event{Kind: EventTransportClosed, Transport: up.Transport}, out[:0])
	id := last(ActionOpenTransport).Transport
	out = e.Step(at(79), Event{Kind: EventTransportConnected, Transport: id}, out[:0])
	out = e.Step(at(80), Event{Kind: EventTransportClosed, Transport: id}, out[:0])
	return last(ActionOpenTransport).TransportKind == reconnect.WebSocket
}

func TestFlapGuardValidation(t *testing.T) {
	for _, c := range []struct {
		g     FlapGuard
		field string
	}{
		{FlapGuard{Drops: MaxFlapDrops + 1}, "Config.Flap.Drops"},
		{FlapGuard{Window: -1}, "Config.Flap.Window"},
		{FlapGuard{Hold: -1}, "Config.Flap.Hold"},
	} {
		cfg := AblyConfig()
		cfg.Flap = c.g
		if fe, ok := cfg.Validate().(*reconnect.FieldError); !ok || fe.Field != c.field {
			t.Errorf("%+v: %v, want a *FieldError naming %s", c.g, cfg.Validate(), c.field)
		}
	}
	cfg := AblyConfig()
	cfg.Flap = FlapGuard{Drops: MaxFlapDrops, Window: 1, Hold: 1}
	if err := cfg.Validate(); err != nil {
		t.Errorf("the largest Drops: %v", err)
	}
}

// With Config.RememberTransport the flapping guard is remembered in the
// transport preference: HTTP, reason websocket-unstable, kept through the
// hold (an HTTP connection during the hold does not overwrite the reason),
// and no background websocket check runs until the hold is over.
func TestFlapGuardRemembersHTTPAsWebSocketUnstable(t *testing.T) {
	cfg := AblyConfig()
	cfg.RememberTransport = true
	cfg.Flap = FlapGuard{Drops: 2, Window: time.Minute, Hold: 5 * time.Minute}
	e, _ := New(cfg)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []Action
	at := func(s int) time.Time { return start.Add(time.Duration(s) * time.Second) }
	opened := func() Action {
		for _, a := range out {
			if a.Kind == ActionOpenTransport {
				return a
			}
		}
		t.Fatalf("nothing opened: %v", out)
		return Action{}
	}
	out = e.Step(at(0), Event{Kind: EventConnect}, out[:0])
	for i := 1; i <= 2; i++ {
		id := opened().Transport
		out = e.Step(at(10*i-1), Event{Kind: EventTransportConnected, Transport: id}, out[:0])
		out = e.Step(at(10*i), Event{Kind: EventTransportClosed, Transport: id}, out[:0])
	}
	want := reconnect.Preference{Transport: reconnect.HTTP, At: at(20), Reason: reconnect.PreferenceWebSocketUnstable}
	if got := e.Preference(); got != want {
		t.Fatalf("after the guard triggered: preference %+v, want %+v", got, want)
	}
	http := opened()
	for _, a := range out {
		if a.Kind == ActionCheckWebSocket {
			t.Fatalf("a background websocket check during the hold: %v", out)
		}
	}
	if http.TransportKind != reconnect.HTTP {
		t.Fatalf("the attempt after the guard opened %v", http.TransportKind)
	}
	out = e.Step(at(21), Event{Kind: EventTransportConnected, Transport: http.Transport}, out[:0])
	if got := e.Preference(); got != want {
		t.Fatalf("HTTP connected during the hold: preference %+v, want %+v", got, want)
	}
}
