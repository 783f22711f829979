// Package engine is the sans-IO connection state machine of a realtime
// client, for SDK authors who run their own event loop (a Go SDK that wants
// the loop written for it uses package runner, which wraps this one). It
// composes the pure decisions of package reconnect — RTB1 retry delays, the
// websocket-first transport choice with its setTransportPending table, the
// host fallback flow with its connectivity check — into one Engine per
// connection.
//
// The SDK feeds Step an Event with the time it happened and performs the
// Actions it returns: open or dispose a transport, activate one, start or
// cancel a timer, check connectivity, renew a token, report a state change
// or an update. The engine
// performs no IO, reads no clock, starts no goroutine and draws randomness
// only from Config.Source.
//
//	cfg := engine.Defaults()
//	cfg.Endpoint = reconnect.EndpointOptions{Endpoint: "rt.example.com", FallbackHosts: []string{"rt-b.example.com"}}
//	e, err := engine.New(cfg)
//	if err != nil { … } // a *reconnect.FieldError naming the field
//	out := e.Step(now, engine.Event{Kind: engine.EventConnect}, nil)
//	// out: open a websocket on the primary host, start its connect timer
//	// and the short-circuit timer, report CONNECTING.
//
// There is no default host: New rejects a Config without an endpoint.
// Ably's hosts are a preset, AblyConfig (Endpoint.Ably set).
//
// # Spec points
//
//	RTN11  connect; RTN11c connect now from DISCONNECTED/SUSPENDED   EventConnect
//	RTN12  close, CLOSING → CLOSED                                  EventClose
//	RTN14c realtimeRequestTimeout per transport (Timeouts.Connect)  TimerConnect
//	RTN14d DISCONNECTED with retryIn from RTB1                      ActionStateChange, Action.RetryIn
//	RTN14e SUSPENDED after connectionStateTtl, flat retries         TimerStateTTL, TimerRetry
//	RTN15a immediate reconnect after a drop, one a second           ReasonReconnect
//	RTN17  host fallback with the connectivity check                ActionCheckConnectivity, EventConnectivity
//	RTN17f1 DISCONNECTED 500–504 while connected: a fallback host   ActionCheckConnectivity, then ActionOpenTransport
//	RTN20  network down / up                                        EventNetworkDown, EventNetworkUp
//	RTN4f  the error of each state change; RTN25 errorReason        Action.Failure, Engine.LastError
//	RTN21  connectionStateTtl, maxIdleInterval from CONNECTED       Event.Details, Details
//	RTN15c7 a CONNECTED with an error: its reason, errorReason      Event.Failure of EventTransportConnected
//	RTN4h, RTN24 UPDATE: conditions change, the state does not      ActionUpdate, EventConnectionDetails
//	RTN23a the idle timer, reset by any activity                    TimerIdle, EventActivity, Event.LastActivity
//	RTN14b, RTN15h token errors: one renewal, or FAILED             Config.CanRenewToken, ActionRenewToken, EventTokenRenewal, TimerRenewToken
//	liveness: a websocket that flaps gives way to HTTP              FlapGuard, Config.Flap, TimerFlapHold
//	ably-js 2.28.0's connection manager                             PolicyWebSocketCheck, TimerAttempt, TimerSlowCheck
//	the transport preference (spec §4)                              Config.Preference, Engine.Preference
//	storm-safe options (opt-in; docs/storm-safe-reconnect.md)       Config.ReconnectWindow, ImmediateShare, RetrySpread, SuspendedSpread
//	other protocols' retry delays (opt-in; docs/retry-policies.md)  Config.Retry (reconnect.RetryPolicy)
//	RTN15a's immediate reconnect kept, off or rate-limited          Config.ImmediateReconnect, ImmediateReconnectInterval
//	the first retry after a failed immediate reconnect (Defaults)   Config.FirstRetry, DefaultFirstRetry (docs/storms.md)
//
// The whole machine, row by row: docs/engine.md.
//
// # Decisions
//
//   - Every state change carries the failure that caused it (the zero
//     reconnect.Failure, FailureNone, for none); LastError is the failure
//     of the last state change or update that carried one, cleared on a
//     CONNECTED without an error.
//   - A change of conditions while CONNECTED (a later CONNECTED message,
//     the upgrade's new transport) is an ActionUpdate, never a state change
//     from CONNECTED to CONNECTED (RTN4h).
//   - Activity is a time, not a timer restart: EventActivity emits
//     nothing, and the idle timer, when it fires, starts again for what
//     remains after the last activity, so an SDK may report activity once
//     per message or only when the timer fires.
//   - The retry count resets on entering CONNECTED and on entering
//     SUSPENDED; the immediate reconnect after an unexpected drop does not
//     consume a retry number.
//   - Every check carries an ID (CheckID, Action.Check) that its answer
//     returns (Event.Check); an answer to a check no longer in flight, or
//     naming check 0, is ignored under every policy, so a check that
//     outlives its attempt never answers the next attempt's check, and an
//     SDK that cannot cancel a check just reports its answer late.
//
// # Concurrency
//
// An Engine holds the state of one connection and is not safe for
// concurrent use: one per connection, on one goroutine or under the
// caller's lock, like a raft node.
//
// One Config value may serve any number of engines on any goroutines (New
// copies it and resolves its own hosts, so later writes to
// Config.Endpoint.FallbackHosts change no engine), and Event and Action
// values are plain data. The one shared thing an engine calls is
// Config.Source, from Step: shared by engines on several goroutines it must
// be safe for concurrent use. A nil Source (reconnect.DefaultSource) is; a
// single *rand.Rand shared that way is a data race. Give each engine its
// own generator (for a reproducible fleet, rand.New(rand.NewPCG(seed,
// uint64(i))) for engine i), or wrap one in a mutex. Engine.Hosts returns a
// copy.
package engine
