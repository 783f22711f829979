package conform

import (
	"testing"

	"github.com/reconnect-go/reconnect/engine"
)

// TestScenarioCheckAnswersNameTheirCheck: a check answer names its check
// ("connectivity C3 up"); the format without one is rejected, and C0 is a
// valid name that the engine rejects as no check.
func TestScenarioCheckAnswersNameTheirCheck(t *testing.T) {
	var r renderer
	for _, c := range []struct {
		in   string
		want engine.Event
	}{
		{"connectivity C3 up", engine.Event{Kind: engine.EventConnectivity, Check: 3, Up: true}},
		{"connectivity C0 down", engine.Event{Kind: engine.EventConnectivity}},
		{"websocket-check C12 down", engine.Event{Kind: engine.EventWebSocketCheck, Check: 12}},
	} {
		got, err := r.event(c.in)
		if err != nil || got != c.want {
			t.Errorf("event(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"connectivity up", "connectivity 3 up", "connectivity C3", "connectivity C3 maybe", "websocket-check T3 up", "connectivity C-1 up"} {
		if _, err := r.event(bad); err == nil {
			t.Errorf("event(%q) accepted", bad)
		}
	}
	if got := r.render(engine.Action{Kind: engine.ActionCheckConnectivity, Check: 4}); got != "check C4" {
		t.Errorf("render = %q, want check C4", got)
	}
	if got := r.render(engine.Action{Kind: engine.ActionCheckWebSocket, Check: 5}); got != "check-websocket C5" {
		t.Errorf("render = %q, want check-websocket C5", got)
	}
}
