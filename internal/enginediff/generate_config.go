package enginediff

// The generator's configurations: every knob of a scenario's config, most
// of them at their defaults in most timelines.

import (
	"math/rand/v2"
	"strconv"
)

func randConfig(r *rand.Rand) Config {
	var c Config
	c.Policy = pick(r, "", "websocket-first", "http-first", "websocket-check")
	// Ably's preset resolves the endpoint (the scenarios' config has no
	// other): a routing policy, an explicit host, an address, a host in
	// capitals (hosts are lowered); a port is an error there, so own hosts
	// with ports cannot be expressed.
	c.Endpoint = pick(r, "", "", "rt.example.com", "acme", "nonprod:acme", "localhost", "127.0.0.1", "RT.Example.COM")
	switch r.IntN(10) {
	case 0:
		c.FallbackHosts = &[]string{}
	case 1:
		c.FallbackHosts = &[]string{"f1.example.com"}
	case 2:
		c.FallbackHosts = &[]string{"f1.example.com", "f2.example.com", "f3.example.com", "f4.example.com"}
	case 3:
		// One-label hosts (a service name), one equal to the primary
		// host, one in capitals.
		c.FallbackHosts = &[]string{pick(r, "realtime-b", "localhost", "main.realtime.ably.net", "rt.example.com", "F1.Example.COM")}
		if r.IntN(2) == 0 {
			*c.FallbackHosts = append(*c.FallbackHosts, "realtime-c")
		}
	}
	switch r.IntN(8) {
	case 0:
		c.WebSocket = new(bool)
	case 1:
		c.HTTP = new(bool)
	}
	c.ShortCircuitMs = pick[int64](r, 0, 0, 0, 1, 500, 3000)
	c.ConnectionStateTTLMs = pick[int64](r, 0, 0, 3000, 5000, 10000, 30000)
	if r.IntN(3) == 0 {
		at := pick[int64](r, EpochUnixMs, EpochUnixMs-1000, EpochUnixMs-86400000, EpochUnixMs-86400000+1, EpochUnixMs+5000)
		c.Preference = "v1 " + pick(r, "http", "http", "websocket") + " " + strconv.FormatInt(at, 10) + " " + pick(r, "connected", "websocket-unstable")
	}
	c.RememberTransport = r.IntN(3) == 0
	if r.IntN(4) == 0 {
		c.ReconnectWindowMs = pick[int64](r, 1000, 2000, 4000, 10000)
		c.ImmediateShare = pick(r, 0, 0, 0.1, 0.5)
	}
	if r.IntN(5) == 0 {
		c.RetrySpread = pick(r, 0.5, 1)
	}
	if r.IntN(5) == 0 {
		c.SuspendedSpread = pick(r, 0.5, 1)
	}
	if r.IntN(5) == 0 && c.RetrySpread == 0 {
		// The retry families (engine.Config.Retry) at their storm
		// parameters and at small ones, which retry often.
		switch r.IntN(4) {
		case 0:
			c.RetryFamily, c.RetryBaseMs, c.RetryCapMs = "full-jitter", pick[int64](r, 1000, 200), pick[int64](r, 30000, 2000)
		case 1:
			c.RetryFamily, c.RetryBaseMs, c.RetryCapMs = "equal-jitter", pick[int64](r, 1000, 200), pick[int64](r, 30000, 2000)
		case 2:
			c.RetryFamily, c.RetryBaseMs, c.RetryCapMs = "grpc", pick[int64](r, 1000, 300), pick[int64](r, 120000, 5000)
			c.RetryMultiplier, c.RetryJitter = pick(r, 1.6, 1, 2.5), pick(r, 0.2, 0, 1)
		default:
			c.RetryFamily, c.RetryBaseMs, c.RetryCapMs = "decorrelated-jitter", pick[int64](r, 1000, 100), pick[int64](r, 30000, 3000)
		}
	}
	if r.IntN(5) == 0 {
		if c.ReconnectWindowMs == 0 && r.IntN(2) == 0 {
			c.ImmediateReconnect = "off"
		} else {
			c.ImmediateReconnect, c.ImmediateReconnectIntervalMs = "limited", pick[int64](r, 1000, 5000, 30000)
		}
	}
	c.CanRenewToken = r.IntN(2) == 0
	randJobs(r, &c)
	randFirstRetry(r, &c)
	randAdaptive(r, &c)
	return c
}

// randJobs sets, in one timeline in four, some of the jobs of
// realtimeRequestTimeout (connect, idle slack, closing, renewal) to their
// own values: 1 ms, short, equal to realtimeRequestTimeout, to the short
// circuit, to disconnectedRetryTimeout, or all to one value (their timers
// then fall due together); and, in one in five, the client-side idle
// limit, which holds when a CONNECTED message gives no maxIdleInterval.
func randJobs(r *rand.Rand, c *Config) {
	if r.IntN(4) == 0 {
		sc := c.ShortCircuitMs
		if sc == 0 {
			sc = 2000
		}
		job := func() int64 {
			if r.IntN(2) == 0 {
				return 0 // realtimeRequestTimeout
			}
			return pick(r, 1, 1, 100, 1000, sc, 5000, realtimeRequestTimeoutMs, 15000, 30000)
		}
		c.ConnectTimeoutMs, c.IdleSlackMs, c.ClosingTimeoutMs, c.RenewalTimeoutMs = job(), job(), job(), job()
		if r.IntN(5) == 0 { // all the same
			v := pick[int64](r, 1, sc, 5000)
			c.ConnectTimeoutMs, c.IdleSlackMs, c.ClosingTimeoutMs, c.RenewalTimeoutMs = v, v, v, v
		}
	}
	if r.IntN(5) == 0 {
		c.IdleLimitMs = pick[int64](r, 1, 500, 3000, realtimeRequestTimeoutMs, 25000, 120000)
	}
}

// randFirstRetry sets, in one timeline in five, the first-retry rule: 1
// ms, short, or at its maximum, disconnectedRetryTimeout. With a retry
// family other than RTB1 (set or not by randConfig) the family governs.
func randFirstRetry(r *rand.Rand, c *Config) {
	if r.IntN(5) == 0 {
		c.FirstRetryMs = pick[int64](r, 1, 100, 500, 1000, 5000, disconnectedRetryTimeoutMs)
	}
}

// randAdaptive turns the adaptive short circuit on in one timeline in
// four (mostly websocket-first, where it acts): the multiple at its
// bounds (1, 100) and between, the floor 0, 1 ms, short, equal to the
// short circuit (its ceiling) or above it.
func randAdaptive(r *rand.Rand, c *Config) {
	if r.IntN(4) != 0 || (c.Policy == "http-first" || c.Policy == "websocket-check") && r.IntN(3) > 0 {
		return
	}
	sc := c.ShortCircuitMs
	if sc == 0 {
		sc = 2000
	}
	c.AdaptiveMultiple = pick(r, 1, 1.5, 3, 3, 7.25, 100)
	c.AdaptiveFloorMs = pick[int64](r, 0, 0, 1, 100, 250, sc, sc+1000)
}

// disconnectedRetryTimeoutMs is the default disconnectedRetryTimeout,
// which the timelines do not change: the first-retry rule's maximum.
const disconnectedRetryTimeoutMs = 15000
