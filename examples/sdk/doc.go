// Package sdk is the skeleton of a realtime SDK on package runner, for a
// team to fork: the runner decides when and where to connect, and this
// package does the rest.
//
//   - client.go: the SDK's Client, what its users call (Connect, Publish,
//     Close) and the configuration it gives the runner: your own hosts,
//     your own connectivity check, every state change logged through
//     log/slog.
//   - dialer.go: the runner's Dialer. Host names map to addresses in one
//     place (Options.Resolve), which the transports and the connectivity
//     check all dial through.
//   - transport.go: what both transports share, the one rule for how a
//     transport ends (Failed before it reported Viable, Closed after) and
//     the protocol messages every transport handles alike.
//   - websocket.go: the websocket transport (github.com/coder/websocket).
//   - longpoll.go: the HTTP long-poll transport: a connect request, then
//     polls that deliver messages, and a request per message sent.
//
// Every transport dials on a goroutine of its own, never inside
// Dialer.Open, and its methods return at once, so the Client may set
// runner.Options.Inline (Options.Inline here).
package sdk
