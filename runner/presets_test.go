package runner

import (
	"context"
	"errors"
	"testing"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// No check defaults to a vendor's: a missing one is a *FieldError naming
// it and saying what to give; the presets and a check of one's own are
// accepted.
func TestNewRequiresTheChecks(t *testing.T) {
	own := engine.Defaults()
	own.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com"}
	wc := own
	wc.Policy = engine.PolicyWebSocketCheck
	mine := func(context.Context) bool { return true }
	for _, c := range []struct {
		name string
		o    Options
		want string // the error's text; "" for none
	}{
		{"no endpoint", Options{Config: engine.Defaults(), CheckConnectivity: NoConnectivityCheck},
			`reconnect: Config.Endpoint.Endpoint = "": is required: give your service's primary host name, such as "rt.example.com" (for Ably's service, start from AblyConfig)`},
		{"no connectivity check", Options{Config: own},
			"reconnect: Options.CheckConnectivity = nil: is required: give your service's check (HTTPConnectivityCheck with its URL), NoConnectivityCheck for none, or AblyConnectivityCheck for Ably's service"},
		{"no websocket check under PolicyWebSocketCheck", Options{Config: wc, CheckConnectivity: mine},
			"reconnect: Options.CheckWebSocket = nil: is required under engine.PolicyWebSocketCheck: give your service's check (WebSocketHandshakeCheck with its URL), or AblyWebSocketCheck for Ably's service"},
		{"no check", Options{Config: own, CheckConnectivity: NoConnectivityCheck}, ""},
		{"a check of one's own", Options{Config: wc, CheckConnectivity: mine, CheckWebSocket: mine}, ""},
		{"Ably's presets", Options{Config: engine.AblyConfig(), CheckConnectivity: AblyConnectivityCheck, CheckWebSocket: AblyWebSocketCheck}, ""},
	} {
		c.o.Dialer = newMemDialer()
		ctx, cancel := context.WithCancel(context.Background())
		r, err := New(ctx, c.o)
		cancel()
		if r != nil {
			<-r.Done()
		}
		var fe *reconnect.FieldError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.As(err, &fe) || err.Error() != c.want):
			t.Errorf("%s:\n got  %v\n want %s", c.name, err, c.want)
		}
	}
}

// NoConnectivityCheck answers up, at once and whatever its context.
func TestNoConnectivityCheckIsUp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if !NoConnectivityCheck(ctx) {
		t.Fatal("NoConnectivityCheck answered down")
	}
}
