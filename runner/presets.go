package runner

// The checks' presets: no connectivity check, and Ably's checks for Ably's
// service. Nothing calls Ably unless given one of these.

import (
	"context"
	"net/http"
	"sync"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// NoConnectivityCheck, as Options.CheckConnectivity, checks nothing: it
// answers up at once, so a qualifying failure always moves on to the
// next fallback host and PolicyWebSocketCheck's slow check never means
// DISCONNECTED. For a service without a connectivity URL.
func NoConnectivityCheck(context.Context) bool { return true }

// AblyConnectivityCheck, as Options.CheckConnectivity, is the preset for
// Ably's service (with engine.AblyConfig): HTTPConnectivityCheck with
// http.DefaultClient and reconnect.AblyConnectivityCheckURL.
func AblyConnectivityCheck(ctx context.Context) bool { return ablyCheckNet()(ctx) }

// AblyWebSocketCheckURL is Ably's websocket check host for
// PolicyWebSocketCheck, as the JavaScript SDK that ships the policy sets
// it (wsConnectivityCheckUrl): for Ably's service only.
const AblyWebSocketCheckURL = "wss://ws-up.ably-realtime.com"

// AblyWebSocketCheck, as Options.CheckWebSocket, is the preset for Ably's
// service under PolicyWebSocketCheck: WebSocketHandshakeCheck with
// http.DefaultClient and AblyWebSocketCheckURL.
func AblyWebSocketCheck(ctx context.Context) bool { return ablyCheckWS()(ctx) }

// Ably's checks, made once and shared by every runner.
var (
	ablyCheckNet = sync.OnceValue(func() func(context.Context) bool {
		return HTTPConnectivityCheck(http.DefaultClient, reconnect.AblyConnectivityCheckURL)
	})
	ablyCheckWS = sync.OnceValue(func() func(context.Context) bool {
		return WebSocketHandshakeCheck(http.DefaultClient, AblyWebSocketCheckURL)
	})
)

// checkChecks reports a check o lacks as a *reconnect.FieldError: the
// connectivity check always, the websocket check under
// PolicyWebSocketCheck.
func (o Options) checkChecks() error {
	switch {
	case o.CheckConnectivity == nil:
		return &reconnect.FieldError{Field: "Options.CheckConnectivity", Value: "nil", Problem: "is required: give your service's check (HTTPConnectivityCheck with its URL), NoConnectivityCheck for none, or AblyConnectivityCheck for Ably's service"}
	case o.CheckWebSocket == nil && o.Config.Policy == engine.PolicyWebSocketCheck:
		return &reconnect.FieldError{Field: "Options.CheckWebSocket", Value: "nil", Problem: "is required under engine.PolicyWebSocketCheck: give your service's check (WebSocketHandshakeCheck with its URL), or AblyWebSocketCheck for Ably's service"}
	}
	return nil
}
