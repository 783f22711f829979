package engine

// The scenario oracle: timelines of (time, event) with the exact actions
// the spec points and this package's decisions (doc.go) require, written by
// hand from them, never recorded from the engine. They live as text in
// testdata/scenarios (the format: testdata/scenarios/README.md), read by
// loadScenarios (scenarios_text_test.go) into the values below, which
// fixtures/scenarios.json is written from. Times are milliseconds from the
// scenario's start; defaults are the spec's (short circuit 2 s,
// realtimeRequestTimeout 10 s, httpRequestTimeout 10 s, connectionStateTtl
// 120 s, disconnectedRetryTimeout 15 s, suspendedRetryTimeout 30 s).

type scenarioConfig struct {
	ShortCircuitMs       *int64   `json:"shortCircuitMs,omitempty"` // 0 means the default, 2000 ms
	Endpoint             string   `json:"endpoint,omitempty"`
	WebSocket            *bool    `json:"webSocket,omitempty"`
	HTTP                 *bool    `json:"http,omitempty"`
	Policy               string   `json:"policy,omitempty"`
	ConnectionStateTTLMs int64    `json:"connectionStateTtlMs,omitempty"`
	FallbackHosts        []string `json:"fallbackHosts,omitempty"`
	Preference           string   `json:"preference,omitempty"`
	RememberTransport    bool     `json:"rememberTransport,omitempty"`
	ReconnectWindowMs    int64    `json:"reconnectWindowMs,omitempty"`
	ImmediateShare       float64  `json:"immediateShare,omitempty"`
	RetrySpread          float64  `json:"retrySpread,omitempty"`
	SuspendedSpread      float64  `json:"suspendedSpread,omitempty"`
	CanRenewToken        bool     `json:"canRenewToken,omitempty"`
	// The jobs of realtimeRequestTimeout (0 means it) and the
	// client-side idle limit (0 means none).
	ConnectTimeoutMs int64 `json:"connectTimeoutMs,omitempty"`
	IdleSlackMs      int64 `json:"idleSlackMs,omitempty"`
	ClosingTimeoutMs int64 `json:"closingTimeoutMs,omitempty"`
	RenewalTimeoutMs int64 `json:"renewalTimeoutMs,omitempty"`
	IdleLimitMs      int64 `json:"idleLimitMs,omitempty"`

	RetryFamily                  string  `json:"retryFamily,omitempty"`
	RetryBaseMs                  int64   `json:"retryBaseMs,omitempty"`
	RetryCapMs                   int64   `json:"retryCapMs,omitempty"`
	RetryMultiplier              float64 `json:"retryMultiplier,omitempty"`
	RetryJitter                  float64 `json:"retryJitter,omitempty"`
	ImmediateReconnect           string  `json:"immediateReconnect,omitempty"`
	ImmediateReconnectIntervalMs int64   `json:"immediateReconnectIntervalMs,omitempty"`
	AdaptiveMultiple             float64 `json:"adaptiveMultiple,omitempty"`
	AdaptiveFloorMs              int64   `json:"adaptiveFloorMs,omitempty"`
	FirstRetryMs                 int64   `json:"firstRetryMs,omitempty"` // 0: off (RTB1 as specified)
}

type scenarioStep struct {
	AtMs             int64    `json:"atMs"`
	Event            string   `json:"event"`
	Expect           []string `json:"expect"`
	ExpectState      string   `json:"expectState,omitempty"`
	ExpectRetryCount *int     `json:"expectRetryCount,omitempty"`
}

type scenario struct {
	ID      string         `json:"id"`
	Spec    string         `json:"spec"`
	UTS     []string       `json:"uts,omitempty"`
	Rows    []string       `json:"rows"`
	Comment string         `json:"_comment"`
	Config  scenarioConfig `json:"config"`
	Draws   []float64      `json:"draws"`
	Steps   []scenarioStep `json:"steps"`
}

// P is the primary host of the default endpoint, and fbHost(l) its
// fallback host l (a–e): the fixture's header names them.
const P = "main.realtime.ably.net"

func fbHost(l string) string { return "main." + l + ".fallback.ably-realtime.com" }
