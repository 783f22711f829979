// Package reconnect is the reconnection policy of a realtime client, as
// pure functions: the RTB1 retry delay with its backoff and jitter, the
// websocket-first transport choice with HTTP fallback (the
// setTransportPending table), and the fallback-host decisions gated by a
// connectivity check. It is an independent implementation of points of the
// Ably realtime client features specification, not an Ably product.
//
// # Where to start
//
//   - Writing a Go SDK: package runner runs a whole connection (timers,
//     transports, checks) around package engine, the sans-IO state machine.
//     Start with runner.New; this package gives you Failure and the
//     configuration values (Timeouts, EndpointOptions, Preference).
//   - Porting to another language: the functions here are one per spec
//     point, and fixtures/ holds the shared JSON cases every port runs.
//   - Only a retry delay: RetryDelay, or a Backoff for one connection.
//
// Time and randomness are always arguments. A function that needs a uniform
// draw takes it as u ∈ [0, 1] or reads it from a Source the caller passes
// (nil meaning a default; see Source); nothing here reads a clock, sleeps,
// starts a goroutine or keeps package-level mutable state.
//
//	d := reconnect.RetryDelay(15*time.Second, 2, u) // the second retry: 20 s × (1 − 0.2u)
//
// # Spec points
//
//	RTB1   retry time = initial × backoff × jitter   RetryDelay, RetryBounds, Backoff, Schedule
//	RTB1a  backoff coefficient min((n+2)/3, 2)        BackoffCoefficient
//	RTB1b  jitter coefficient in [0.8, 1]             JitterCoefficient, Source, DefaultSource
//	TO3l*  default timeouts                           Timeouts, DefaultTimeouts, DefaultChannelRetry,
//	                                                  DefaultFallbackRetry, DefaultHTTPOpen, DefaultHTTPMaxRetryDuration
//	RTN14d DISCONNECTED retryIn from RTB1             RetryDelay with Timeouts.DisconnectedRetry
//	RTN14e flat SUSPENDED retries                     Timeouts.SuspendedRetry (no backoff)
//	(storm-safe, opt-in; docs/storm-safe-reconnect.md) SpreadRetryDelay, SpreadDelay, WindowWait
//
//	other protocols' retry delays (SPEC.md §6; docs/retry-policies.md):
//	  capped exponential, full jitter (AWS)           FullJitter
//	  capped exponential, equal jitter (AWS)          EqualJitter
//	  gRPC connection backoff                         GRPCBackoff, DefaultGRPCBackoff
//	  decorrelated jitter (AWS)                       DecorrelatedJitter
//	  one family as a value (engine.Config.Retry)     RetryPolicy, RetryFamily, ParseRetryFamily
//
//	transport fallback (websocket first, then HTTP):
//	  chooseTransport                                 ChooseTransport, DefaultShortCircuit
//	  "if called back with an err within 2s"          HTTPOnWebSocketFailure
//	  "wait two seconds … no transport pending"       HTTPOnShortCircuit
//	  setTransportPending rules 1–4                   DecidePending, PendingTable, PendingRow
//	  the existing upgrade mechanism                  UpgradeAfterActivation
//
//	REC1, REC2     primary and fallback hosts          ResolveHosts, EndpointOptions (Ably's rules: its Ably), Hosts
//	RSC15a, RTN17  random fallback order               AppendHostOrder
//	RSC15l, RTN17f qualifying failures                 ShouldFallback, Failure, FailureKind
//	RTN17j, REC3   connectivity check                  ConnectivityUp, AblyConnectivityCheckURL
//	RSC15f         preferred fallback host             PreferredHost
//
//	the connection state machine built from these: package engine;
//	the same with real timers, transports and checks: package runner.
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
//
// # Concurrency
//
// Every function and DefaultSource are safe for concurrent use. A Backoff
// and a PreferredHost hold the state of one connection and, like a
// *rand.Rand, are not: one per connection, on one goroutine or under the
// caller's lock. A Source called from several goroutines (a Backoff,
// Schedule or AppendHostOrder shared that way) must be safe for concurrent
// use: DefaultSource is; a single *rand.Rand is not.
package reconnect
