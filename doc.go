// Package reconnect decides when and how a realtime client reconnects: the
// RTB1 retry delay with its backoff and jitter, the websocket-first transport
// choice with HTTP fallback, and the fallback-host flow gated by a
// connectivity check, as pure functions of their arguments.
//
// Time and randomness are always arguments. A function that needs a uniform
// draw takes it as u ∈ [0, 1] or reads it from a Source the caller passes
// (nil meaning a default; see Source); nothing here reads a clock, sleeps, starts a
// goroutine or keeps package-level mutable state.
//
// # Spec points
//
//	RTB1   retry time = initial × backoff × jitter   RetryDelay, RetryBounds, Backoff, Schedule
//	RTB1a  backoff coefficient min((n+2)/3, 2)        BackoffCoefficient
//	RTB1b  jitter coefficient in [0.8, 1]             JitterCoefficient, Source, DefaultSource
//	TO3l*  default timeouts                           Timeouts, DefaultTimeouts
//	RTN14d DISCONNECTED retryIn from RTB1             RetryDelay with Timeouts.DisconnectedRetry
//	RTN14e flat SUSPENDED retries                     Timeouts.SuspendedRetry (no backoff)
//	(storm-safe, opt-in; docs/storm-safe-reconnect.md) Config.ReconnectWindow, ImmediateShare,
//	       RetrySpread, SuspendedSpread; SpreadRetryDelay, SpreadDelay, WindowWait
//
//	transport fallback (websocket first, then HTTP):
//	  chooseTransport                                 ChooseTransport, DefaultShortCircuit
//	  "if called back with an err within 2s"          HTTPOnWebSocketFailure
//	  "wait two seconds … no transport pending"       HTTPOnShortCircuit
//	  setTransportPending rules 1–4                   DecidePending, PendingTable, PendingRow
//	  the existing upgrade mechanism                  UpgradeAfterActivation
//
//	REC1, REC2     primary and fallback hosts          ResolveHosts, EndpointOptions, Hosts
//	RSC15a, RTN17  random fallback order               AppendHostOrder
//	RSC15l, RTN17f qualifying failures                 ShouldFallback, Failure, FailureKind
//	RTN17j, REC3   connectivity check                  ConnectivityUp, DefaultConnectivityCheckURL
//	RSC15f         preferred fallback host             PreferredHost
//
//	the engine (Engine, Config, Event, Action, State, Reason, TimerKind):
//	  RTN11  connect; RTN11c connect now from DISCONNECTED/SUSPENDED   EventConnect
//	  RTN12  close, CLOSING → CLOSED                                  EventClose
//	  RTN14c realtimeRequestTimeout per transport                     TimerConnect
//	  RTN14d DISCONNECTED with retryIn from RTB1                      ActionStateChange.RetryIn
//	  RTN14e SUSPENDED after connectionStateTtl, flat retries         TimerStateTTL, TimerRetry
//	  RTN15a immediate reconnect after a drop, one a second           ReasonReconnect
//	  RTN17  host fallback with the connectivity check                ActionCheckConnectivity, EventConnectivity
//	  RTN20  network down / up                                        EventNetworkDown, EventNetworkUp
//	  RTN4f  the error of each state change; RTN25 errorReason        Action.Failure, Engine.LastError, FailureNone
//	  liveness: a websocket that flaps gives way to HTTP              FlapGuard, Config.Flap, TimerFlapHold
//	  RTN14e SUSPENDED the moment connectionStateTtl passes mid-attempt TimerStateTTL
//	  RTN17f1 DISCONNECTED 500–504 while connected: a fallback host   ActionCheckConnectivity, then ActionOpenTransport
//	  ably-js 2.28.0's connection manager                             PolicyWebSocketCheck, TimerAttempt, TimerSlowCheck
//	  the transport preference (spec §4)                              Preference, Config.Preference, Engine.Preference
//
//	the engine with real timers, transports and checks: package runner
//	(RTN12a CLOSE on entering CLOSING, RTN17j the HTTP connectivity check).
//
// # Decisions
//
// Where the sources leave a point open, this package decides it, and the
// shared fixtures under fixtures/ carry the same decisions to other
// languages:
//
//   - n is 1-indexed: the first retry is attempt 1, and an attempt below 1 is
//     treated as 1, so no coefficient is ever 2/3.
//   - The jitter coefficient is 1 − 0.2·u; u is clamped into [0, 1] and NaN
//     counts as 0. It never exceeds 1, so 2 × initial is a hard cap.
//   - Arithmetic is float64 in the order initial × backoff × jitter, rounded
//     to the nearest nanosecond (halves away from zero); initial ≤ 0 gives
//     0, and results saturate at the largest time.Duration instead of
//     wrapping.
//   - The retry count resets on entering CONNECTED and on entering
//     SUSPENDED; the immediate reconnect after an unexpected drop does not
//     consume a retry number (callers of Backoff call Reset accordingly).
//   - The setTransportPending table answers every combination, including
//     the ones a correct connection manager never produces (marked
//     Reachable: false); a NoTransport candidate or an out-of-range enum is
//     discarded under rule 0. Activating a websocket closes every other
//     transport.
//   - The connectivity check is up only for a 2xx status whose trimmed body
//     is exactly "yes" (the spec says "contains"). A refused connection is a
//     qualifying failure. Fallback hosts are drawn uniformly: draw k picks
//     index ⌊u·r⌋ of the r not yet drawn. Transport fallback comes before
//     host fallback: websocket on the primary, HTTP on the primary, the
//     connectivity check, HTTP on the fallback hosts, then DISCONNECTED.
//   - The short-circuit timer is armed only when HTTP is available too; a
//     websocket failure starts HTTP at once unless HTTP has started or
//     something is pending or active. An HTTP transport closed for a
//     websocket (rules 1 and 2) opens again on its host if that websocket
//     dies before connecting, so working HTTP always connects within one
//     attempt.
//   - Every state change carries the failure that caused it (the zero
//     Failure, FailureNone, for none); LastError is the failure of the
//     last state change that carried one, cleared on CONNECTED.
//
// # Concurrency
//
// Every function and DefaultSource are safe for concurrent use. A Backoff,
// a PreferredHost and an Engine hold the state of one connection and, like
// a *rand.Rand, are not: one per connection, on one goroutine or under the
// caller's lock.
//
// What engines may share: one Config value may serve any number of
// engines on any goroutines (NewEngine copies it and resolves its own
// hosts, so later writes to Config.Endpoint.FallbackHosts change no
// engine), and Hosts, Failure, Event and Action values are plain data. The
// one shared thing an engine calls is Config.Source, from Step: shared by
// engines on several goroutines it must be safe for concurrent use. A nil
// Source (DefaultSource) is; a single *rand.Rand shared that way is a data
// race. Give each engine its own generator (for a reproducible fleet,
// rand.New(rand.NewPCG(seed, uint64(i))) for engine i), or wrap one in a
// mutex. The same holds for the Source of a Backoff, Schedule or
// AppendHostOrder called from several goroutines. Engine.Hosts returns a
// copy, so what it returns may be kept and changed freely.
package reconnect
