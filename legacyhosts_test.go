package reconnect

// Ably's deprecated endpoint options written as data (legacyhosts.go):
// every expectation is spelled out by hand from the spec point in its
// comment (REC1b1, REC1c1, REC1d, REC2a1, REC2b, REC2c6), never computed
// by the code under test.

const (
	fieldRestHost     = "EndpointOptions.RestHost"
	fieldRealtimeHost = "EndpointOptions.RealtimeHost"
	fieldUseDefault   = "EndpointOptions.FallbackHostsUseDefault"
)

// mainFive are the default fallback hosts of REC2c1, which
// fallbackHostsUseDefault brings back (REC2b).
var mainFive = fiveFallbacks("main", ".fallback.ably-realtime.com")

var legacyHostCases = []endpointCase{
	// REC1d1, REC1d2: restHost, else realtimeHost, is the primary host;
	// REC2c6: no fallback hosts.
	{id: "legacy-resthost", restHost: "rest.example.com", primary: "rest.example.com", fallbacks: []string{}},
	{id: "legacy-realtimehost", realtimeHost: "rt.example.com", primary: "rt.example.com", fallbacks: []string{}},
	{id: "legacy-resthost-over-realtimehost", restHost: "rest.example.com", realtimeHost: "rt.example.com", primary: "rest.example.com", fallbacks: []string{},
		comment: "REC1d1: restHost is the primary domain, for a realtime connection too (REC1 names one primary domain)"},
	{id: "legacy-resthost-localhost", restHost: "localhost", primary: "localhost", fallbacks: []string{}},
	{id: "legacy-resthost-ipv4", restHost: "10.0.0.7", primary: "10.0.0.7", fallbacks: []string{}},
	{id: "legacy-realtimehost-ipv6", realtimeHost: "::1", primary: "::1", fallbacks: []string{}},
	{id: "legacy-resthost-word", restHost: "ably-proxy", primary: "ably-proxy", fallbacks: []string{},
		comment: "a word without a dot is a host name here: restHost names no routing policy"},
	{id: "legacy-realtimehost-word", realtimeHost: "sandbox", primary: "sandbox", fallbacks: []string{}},
	{id: "legacy-resthost-upper-case", restHost: "REST.Example.COM", primary: "rest.example.com", fallbacks: []string{}},
	// REC2a2 with restHost: the fallback hosts are the option's value.
	{id: "legacy-resthost-with-fallback-hosts", restHost: "rest.example.com", fallbackHosts: []string{"fb.example.com"}, primary: "rest.example.com", fallbacks: []string{"fb.example.com"}},
	{id: "legacy-realtimehost-with-fallback-hosts-empty", realtimeHost: "rt.example.com", fallbackHosts: []string{}, primary: "rt.example.com", fallbacks: []string{}},
	{id: "legacy-resthost-fallback-is-primary", restHost: "localhost", fallbackHosts: []string{"localhost"}, primary: "localhost", fallbacks: []string{"localhost"}},
	// REC2b: fallbackHostsUseDefault gives the default five, whatever
	// names the primary.
	{id: "legacy-use-default-resthost", restHost: "rest.example.com", useDefault: true, primary: "rest.example.com", fallbacks: mainFive},
	{id: "legacy-use-default-realtimehost", realtimeHost: "rt.example.com", useDefault: true, primary: "rt.example.com", fallbacks: mainFive},
	{id: "legacy-use-default-environment", environment: "acme", useDefault: true, primary: "acme.realtime.ably.net", fallbacks: mainFive,
		comment: "REC2b comes before REC2c5: the default fallback hosts, not acme's"},
	{id: "legacy-use-default-alone", useDefault: true, primary: "main.realtime.ably.net", fallbacks: mainFive},
	// REC1b1: endpoint with a deprecated option; the deprecated one is named.
	{id: "invalid-legacy-endpoint-and-resthost", endpoint: "acme", restHost: "rest.example.com", errField: fieldRestHost},
	{id: "invalid-legacy-endpoint-and-realtimehost", endpoint: "acme", realtimeHost: "rt.example.com", errField: fieldRealtimeHost},
	{id: "invalid-legacy-endpoint-and-use-default", endpoint: "acme", useDefault: true, errField: fieldUseDefault},
	{id: "invalid-legacy-hostname-and-resthost", endpoint: "rt.example.com", restHost: "rt.example.com", errField: fieldRestHost},
	{id: "invalid-legacy-nonprod-and-use-default", endpoint: "nonprod:sandbox", useDefault: true, errField: fieldUseDefault},
	{id: "invalid-legacy-endpoint-environment-and-resthost", endpoint: "acme", environment: "acme", restHost: "rest.example.com", errField: fieldEnvironment,
		comment: "REC1b1 names environment first"},
	{id: "invalid-legacy-endpoint-resthost-and-realtimehost", endpoint: "acme", restHost: "rest.example.com", realtimeHost: "rt.example.com", errField: fieldRestHost},
	{id: "invalid-legacy-endpoint-realtimehost-and-use-default", endpoint: "acme", realtimeHost: "rt.example.com", useDefault: true, errField: fieldRealtimeHost},
	{id: "invalid-legacy-endpoint-fallback-hosts-and-use-default", endpoint: "acme", fallbackHosts: []string{"fb.example.com"}, useDefault: true, errField: fieldUseDefault},
	// REC1c1: environment with restHost or realtimeHost.
	{id: "invalid-legacy-environment-and-resthost", environment: "acme", restHost: "rest.example.com", errField: fieldRestHost},
	{id: "invalid-legacy-environment-and-realtimehost", environment: "acme", realtimeHost: "rt.example.com", errField: fieldRealtimeHost},
	{id: "invalid-legacy-environment-production-and-realtimehost", environment: "production", realtimeHost: "rt.example.com", errField: fieldRealtimeHost},
	{id: "invalid-legacy-environment-resthost-and-realtimehost", environment: "acme", restHost: "rest.example.com", realtimeHost: "rt.example.com", errField: fieldRestHost},
	// REC2a1: fallbackHosts, even empty, with fallbackHostsUseDefault.
	{id: "invalid-legacy-fallback-hosts-and-use-default", fallbackHosts: []string{"fb.example.com"}, useDefault: true, errField: fieldUseDefault},
	{id: "invalid-legacy-fallback-hosts-empty-and-use-default", fallbackHosts: []string{}, useDefault: true, errField: fieldUseDefault},
	{id: "invalid-legacy-resthost-fallback-hosts-and-use-default", restHost: "rest.example.com", fallbackHosts: []string{"fb.example.com"}, useDefault: true, errField: fieldUseDefault},
	{id: "invalid-legacy-resthost-fallback-hosts-empty-and-use-default", restHost: "rest.example.com", fallbackHosts: []string{}, useDefault: true, errField: fieldUseDefault},
	// The host rules apply to restHost and realtimeHost, both validated.
	{id: "invalid-legacy-resthost-port", restHost: "rest.example.com:8080", errField: fieldRestHost},
	{id: "invalid-legacy-resthost-url", restHost: "https://rest.example.com", errField: fieldRestHost},
	{id: "invalid-legacy-resthost-space", restHost: "rest example.com", errField: fieldRestHost},
	{id: "invalid-legacy-resthost-nonprod", restHost: "nonprod:sandbox", errField: fieldRestHost},
	{id: "invalid-legacy-resthost-label-hyphen", restHost: "-rest.example.com", errField: fieldRestHost},
	{id: "invalid-legacy-realtimehost-trailing-dot", realtimeHost: "rt.example.com.", errField: fieldRealtimeHost},
	{id: "invalid-legacy-realtimehost-all-digit-label", realtimeHost: "10.0.0.256", errField: fieldRealtimeHost},
	{id: "invalid-legacy-unused-realtimehost", restHost: "rest.example.com", realtimeHost: "rt example.com", errField: fieldRealtimeHost,
		comment: "REC1d1 leaves realtimeHost unused, but a bad value is still refused"},
	{id: "invalid-legacy-resthost-fallback-duplicate", restHost: "rest.example.com", fallbackHosts: []string{"fb.example.com", "FB.example.com"}, errField: "EndpointOptions.FallbackHosts[1]"},
	// docs/hosts.md: the sets are checked before any host name or routing
	// policy id, in the order REC1b1, REC1c1, REC2a1; then the host names,
	// restHost before realtimeHost, both before the fallback hosts.
	{id: "invalid-legacy-bad-endpoint-and-resthost", endpoint: "a..b", restHost: "rest.example.com", errField: fieldRestHost,
		comment: "REC1b1 before the endpoint's host name"},
	{id: "invalid-legacy-bad-environment-and-resthost", environment: "not_a_policy", restHost: "rest.example.com", errField: fieldRestHost,
		comment: "REC1c1 before the environment's routing policy id"},
	{id: "invalid-legacy-bad-resthost-fallback-hosts-and-use-default", restHost: "a..b", fallbackHosts: []string{"fb.example.com"}, useDefault: true, errField: fieldUseDefault,
		comment: "REC2a1 before restHost's host name"},
	{id: "invalid-legacy-bad-fallback-host-and-use-default", fallbackHosts: []string{"a..b"}, useDefault: true, errField: fieldUseDefault,
		comment: "REC2a1 before the fallback host's name"},
	{id: "invalid-legacy-environment-resthost-fallback-hosts-and-use-default", environment: "acme", restHost: "rest.example.com", fallbackHosts: []string{"fb.example.com"}, useDefault: true, errField: fieldRestHost,
		comment: "REC1c1 before REC2a1"},
	{id: "invalid-legacy-endpoint-realtimehost-fallback-hosts-empty-and-use-default", endpoint: "acme", realtimeHost: "rt.example.com", fallbackHosts: []string{}, useDefault: true, errField: fieldRealtimeHost,
		comment: "REC1b1 before REC2a1"},
	{id: "invalid-legacy-bad-resthost-and-bad-realtimehost", restHost: "a..b", realtimeHost: "c..d", errField: fieldRestHost},
	{id: "invalid-legacy-bad-resthost-and-bad-fallback", restHost: "a..b", fallbackHosts: []string{"c..d"}, errField: fieldRestHost},
	{id: "invalid-legacy-bad-realtimehost-and-bad-fallback", realtimeHost: "a..b", fallbackHosts: []string{"c..d"}, errField: fieldRealtimeHost},
}
