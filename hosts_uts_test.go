package reconnect

// The tests of the Ably specification's Universal Test Specifications that
// the host functions own (conformance/uts/catalogue.json, owner root), as
// hosts.json items that carry the UTS test in their uts field. Every
// expectation here is read from the UTS test's assertions and the spec
// points it names (REC1, REC2, REC3, RSC15), written out by hand: none is
// computed by this package. A UTS test that makes several assertions gives
// several items, each carrying its ID.

// utsFallbackFile is the UTS file of the REST fallback tests.
const utsFallbackFile = "uts/rest/unit/fallback.md"

// utsRef names one UTS test as the fixtures' uts field writes it.
func utsRef(file, id string) []string { return []string{file + "#" + id} }

// utsFallback names a test of uts/rest/unit/fallback.md.
func utsFallback(id string) []string { return utsRef(utsFallbackFile, "rest/unit/"+id) }

// utsFive is the five fallback hosts of REC2c for a routing policy's
// prefix and domain, as the UTS tests list them.
func utsFive(prefix, domain string) []string {
	return []string{prefix + ".a." + domain, prefix + ".b." + domain, prefix + ".c." + domain, prefix + ".d." + domain, prefix + ".e." + domain}
}

func utsHostsItems() []hostsItem {
	const pr = "main.realtime.ably.net"
	mainFive := utsFive("main", "fallback.ably-realtime.com")
	// legacy is a REC1/REC2 item with Ably's deprecated options: restHost,
	// realtimeHost ("" not set), fallbackHostsUseDefault.
	legacy := func(id, uts, spec, comment string, endpoint, environment *string, restHost, realtimeHost string, useDefault bool, fallbacks []string, set bool) hostsItem {
		it := hostsItem{ID: "uts-" + id, Spec: spec, Function: "resolveHosts", UTS: utsFallback(uts), Comment: comment,
			Endpoint: endpoint, Environment: environment, FallbackHosts: fallbacks, FallbacksSet: ptr(set), FallbackHostsUseDefault: useDefault}
		if restHost != "" {
			it.RestHost = ptr(restHost)
		}
		if realtimeHost != "" {
			it.RealtimeHost = ptr(realtimeHost)
		}
		return it
	}
	invalid := func(it hostsItem, field string) hostsItem { it.ExpectedErrorField = field; return it }
	valid := func(it hostsItem, primary string, want []string) hostsItem {
		it.ExpectedPrimary, it.ExpectedFallbacks = primary, &want
		return it
	}
	none := []string{}
	resolve := func(id, uts, comment string, endpoint, environment *string, fallbacks []string, set bool, primary string, want []string) hostsItem {
		it := hostsItem{ID: "uts-" + id, Spec: "REC1/REC2", Function: "resolveHosts", UTS: utsFallback(uts), Comment: comment,
			Endpoint: endpoint, Environment: environment, FallbackHosts: fallbacks, FallbacksSet: ptr(set),
			ExpectedPrimary: primary, ExpectedFallbacks: &want}
		return it
	}
	qualifies := func(id, uts, spec, kind string, status int, server string, want bool) hostsItem {
		it := hostsItem{ID: "uts-" + id, Spec: spec, Function: "shouldFallback", UTS: utsFallback(uts),
			FailureKind: kind, Status: ptr(status), Server: server, ExpectedFallback: ptr(want)}
		return it
	}
	qualifiesRange := func(id, uts string, lo, hi int) hostsItem {
		return hostsItem{ID: "uts-" + id, Spec: "RSC15l3", Function: "shouldFallback", UTS: utsFallback(uts),
			FailureKind: "http-status", StatusRange: []int{lo, hi}, ExpectedFallback: ptr(true)}
	}
	items := []hostsItem{
		// RSC15m: an explicitly empty fallbackHosts: the 500 qualifies, and
		// there is no host to retry on.
		resolve("rsc15m-empty-fallback-hosts", "RSC15m/no-fallback-empty-hosts-0", "fallbackHosts: [] leaves the primary alone",
			nil, nil, nil, true, pr, none),
		qualifies("rsc15m-500-qualifies", "RSC15m/no-fallback-empty-hosts-0", "RSC15m", "http-status", 500, "", true),
		// RSC15a: the primary first, then fallback hosts of the five in a
		// random order; a pinned draw picks index floor(u·r) of the r left.
		{ID: "uts-rsc15a-random-order", Spec: "RSC15a", Function: "hostOrder", UTS: utsFallback("RSC15a/fallback-random-order-0"),
			Comment: "draws 0.9, 0.1, 0.5 over a..e: e (index 4 of 5), a (0 of 4), c (1 of 3); httpMaxRetryCount 3",
			Primary: pr, Fallbacks: mainFive, MaxFallbacks: ptr(3), Draws: drawNumbers([]float64{0.9, 0.1, 0.5}),
			ExpectedOrder: []string{pr, mainFive[4], mainFive[0], mainFive[2]}},
		// RSC15l: the qualifying errors.
		qualifiesRange("rsc15l-qualifying-5xx", "RSC15l/qualifying-errors-trigger-fallback-0", 500, 504),
		qualifies("rsc15l-qualifying-timeout", "RSC15l/qualifying-errors-trigger-fallback-0", "RSC15l2", "timeout", 0, "", true),
		qualifies("rsc15l-qualifying-400", "RSC15l/qualifying-errors-trigger-fallback-0", "RSC15l", "http-status", 400, "", false),
		qualifies("rsc15l-qualifying-401", "RSC15l/qualifying-errors-trigger-fallback-0", "RSC15l", "http-status", 401, "", false),
		qualifies("rsc15l-qualifying-404", "RSC15l/qualifying-errors-trigger-fallback-0", "RSC15l", "http-status", 404, "", false),
		qualifies("rsc15l4-cloudfront-403", "RSC15l4/cloudfront-error-triggers-fallback-0", "RSC15l4", "http-status", 403, "CloudFront", true),
		qualifies("rsc15l-refused", "RSC15l/connection-refused-fallback-0", "RSC15l1", "refused", 0, "", true),
		qualifies("rsc15l-dns", "RSC15l/dns-error-fallback-1", "RSC15l1", "dns", 0, "", true),
		qualifies("rsc15l-connection-timeout", "RSC15l/connection-timeout-fallback-2", "RSC15l2", "timeout", 0, "", true),
		qualifies("rsc15l-request-timeout", "RSC15l/request-timeout-fallback-3", "RSC15l2", "timeout", 0, "", true),
		qualifiesRange("rsc15l-5xx", "RSC15l/http-5xx-triggers-fallback-4", 500, 504),
		qualifies("rsc15l-4xx-400", "RSC15l/http-4xx-no-fallback-5", "RSC15l", "http-status", 400, "", false),
		qualifies("rsc15l-4xx-401", "RSC15l/http-4xx-no-fallback-5", "RSC15l", "http-status", 401, "", false),
		qualifies("rsc15l-4xx-404", "RSC15l/http-4xx-no-fallback-5", "RSC15l", "http-status", 404, "", false),
		// RSC15f: the preferred fallback host and its fallbackRetryTimeout.
		{ID: "uts-rsc15f-successful-fallback-cached", Spec: "RSC15f", Function: "preferredHost", UTS: utsFallback("RSC15f/successful-fallback-cached-0"),
			Comment: "fallbackRetryTimeout 60000; the primary fails, main.a succeeds and is used for the next request", Primary: pr, Steps: []cacheStep{
				{AtMs: 0, Op: "first", Expected: pr},
				{AtMs: 0, Op: "failed", Host: pr, FailureKind: "http-status", Status: 500},
				{AtMs: 0, Op: "fallbackSucceeded", Host: mainFive[0], TTLMs: ptr(int64(60000))},
				{AtMs: 10, Op: "first", Expected: mainFive[0]},
			}},
		{ID: "uts-rsc15f-cached-fallback-expires", Spec: "RSC15f", Function: "preferredHost", UTS: utsFallback("RSC15f/cached-fallback-expires-1"),
			Comment: "fallbackRetryTimeout 100: 150 ms later the primary is tried again", Primary: pr, Steps: []cacheStep{
				{AtMs: 0, Op: "fallbackSucceeded", Host: mainFive[1], TTLMs: ptr(int64(100))},
				{AtMs: 150, Op: "first", Expected: pr},
			}},
		{ID: "uts-rsc15f-expired-not-resurrected", Spec: "RSC15f", Function: "preferredHost", UTS: utsFallback("RSC15f/expired-not-resurrected-2"),
			Comment: "request 3 goes to the remembered host; after the timeout request 4 goes to the primary; request 3's late success is no fallback sequence, so request 5 goes to the primary",
			Primary: pr, Steps: []cacheStep{
				{AtMs: 0, Op: "first", Expected: pr},
				{AtMs: 0, Op: "fallbackSucceeded", Host: mainFive[3], TTLMs: ptr(int64(100))},
				{AtMs: 0, Op: "first", Expected: mainFive[3]},
				{AtMs: 150, Op: "first", Expected: pr},
				{AtMs: 160, Op: "first", Expected: pr},
			}},
		// REC1, REC2: the primary domain and the fallback domains.
		resolve("rec1a-default-primary", "REC1a/default-primary-domain-0", "", nil, nil, nil, false, pr, mainFive),
		resolve("rec1b2-explicit-hostname", "REC1b2/explicit-hostname-with-period-0", "", ptr("custom.ably.example.com"), nil, nil, false, "custom.ably.example.com", none),
		resolve("rec1b2-localhost", "REC1b2/endpoint-localhost-1", "", ptr("localhost"), nil, nil, false, "localhost", none),
		resolve("rec1b2-ipv6", "REC1b2/endpoint-ipv6-address-2", "the SDK brackets it in the URL", ptr("::1"), nil, nil, false, "::1", none),
		resolve("rec1b3-nonprod", "REC1b3/nonprod-routing-policy-0", "", ptr("nonprod:staging"), nil, nil, false,
			"staging.realtime.ably-nonprod.net", utsFive("staging", "fallback.ably-realtime-nonprod.com")),
		resolve("rec1b4-production-policy", "REC1b4/production-routing-policy-0", "", ptr("test"), nil, nil, false,
			"test.realtime.ably.net", utsFive("test", "fallback.ably-realtime.com")),
		{ID: "uts-rec1b1-endpoint-conflicts-environment", Spec: "REC1b1", Function: "resolveHosts", UTS: utsFallback("REC1b1/endpoint-conflicts-environment-0"),
			Comment: "endpoint with the deprecated environment is invalid (the SDK's 40000)", Endpoint: ptr("test"), Environment: ptr("production"),
			FallbacksSet: ptr(false), ExpectedErrorField: "EndpointOptions.Environment"},
		resolve("rec1c2-environment", "REC1c2/environment-sets-primary-domain-0", "", nil, ptr("sandbox"), nil, false,
			"sandbox.realtime.ably.net", utsFive("sandbox", "fallback.ably-realtime.com")),
		valid(legacy("rec1d1-resthost", "REC1d1/resthost-sets-primary-domain-0", "REC1d1", "",
			nil, nil, "custom.rest.example.com", "", false, nil, false), "custom.rest.example.com", none),
		valid(legacy("rec1d2-realtimehost", "REC1d2/realtimehost-sets-primary-domain-0", "REC1d2", "",
			nil, nil, "", "custom.realtime.example.com", false, nil, false), "custom.realtime.example.com", none),
		valid(legacy("rec1d-resthost-precedence", "REC1d/resthost-precedence-over-realtimehost-0", "REC1d1", "the REST request goes to restHost, not realtimeHost",
			nil, nil, "rest.example.com", "realtime.example.com", false, nil, false), "rest.example.com", none),
		// REC1b1, REC1c1, REC2a1: options invalid as a set (the SDK's
		// 40000); the error names the deprecated option.
		invalid(legacy("rec1b1-endpoint-conflicts-resthost", "REC1b1/endpoint-conflicts-resthost-1", "REC1b1", "endpoint with the deprecated restHost is invalid",
			ptr("test"), nil, "custom.host.com", "", false, nil, false), "EndpointOptions.RestHost"),
		invalid(legacy("rec1b1-endpoint-conflicts-realtimehost", "REC1b1/endpoint-conflicts-realtimehost-2", "REC1b1", "endpoint with the deprecated realtimeHost is invalid",
			ptr("test"), nil, "", "custom.realtime.com", false, nil, false), "EndpointOptions.RealtimeHost"),
		invalid(legacy("rec1b1-endpoint-conflicts-fallback-default", "REC1b1/endpoint-conflicts-fallback-default-3", "REC1b1", "endpoint with the deprecated fallbackHostsUseDefault is invalid",
			ptr("test"), nil, "", "", true, nil, false), "EndpointOptions.FallbackHostsUseDefault"),
		invalid(legacy("rec1c1-environment-conflicts-resthost", "REC1c1/environment-conflicts-resthost-0", "REC1c1", "environment with restHost is invalid",
			nil, ptr("sandbox"), "custom.host.com", "", false, nil, false), "EndpointOptions.RestHost"),
		invalid(legacy("rec1c1-environment-conflicts-realtimehost", "REC1c1/environment-conflicts-realtimehost-1", "REC1c1", "environment with realtimeHost is invalid",
			nil, ptr("sandbox"), "", "custom.realtime.com", false, nil, false), "EndpointOptions.RealtimeHost"),
		invalid(legacy("rec2a1-fallback-hosts-conflicts-use-default", "REC2a1/fallback-hosts-conflicts-use-default-0", "REC2a1", "fallbackHosts with fallbackHostsUseDefault is invalid",
			nil, nil, "", "", true, []string{"fb1.example.com"}, true), "EndpointOptions.FallbackHostsUseDefault"),
		// REC2b: the default fallback hosts behind a custom restHost; the
		// primary's 500 qualifies, so the second request goes to one of them.
		valid(legacy("rec2b-fallback-hosts-use-default", "REC2b/fallback-hosts-use-default-0", "REC2b", "restHost would give no fallback hosts (REC2c6); fallbackHostsUseDefault gives the default five",
			nil, nil, "custom.host.com", "", true, nil, false), "custom.host.com", mainFive),
		qualifies("rec2b-500-qualifies", "REC2b/fallback-hosts-use-default-0", "RSC15l3", "http-status", 500, "", true),
		resolve("rec2c1-default-fallbacks", "REC2c1/default-fallback-domains-0", "", nil, nil, nil, false, pr, mainFive),
		resolve("rec2a2-custom-fallbacks", "REC2a2/custom-fallback-hosts-0", "",
			nil, nil, []string{"fb1.example.com", "fb2.example.com", "fb3.example.com"}, true, pr, []string{"fb1.example.com", "fb2.example.com", "fb3.example.com"}),
		resolve("rec2c2-explicit-hostname", "REC2c2/explicit-hostname-no-fallbacks-0", "", ptr("custom.ably.example.com"), nil, nil, false, "custom.ably.example.com", none),
		resolve("rec2c3-nonprod", "REC2c3/nonprod-fallback-domains-0", "", ptr("nonprod:staging"), nil, nil, false,
			"staging.realtime.ably-nonprod.net", utsFive("staging", "fallback.ably-realtime-nonprod.com")),
		resolve("rec2c4-production-endpoint", "REC2c4/production-endpoint-fallback-domains-0", "", ptr("test"), nil, nil, false,
			"test.realtime.ably.net", utsFive("test", "fallback.ably-realtime.com")),
		resolve("rec2c5-production-environment", "REC2c5/production-environment-fallback-domains-0", "", nil, ptr("sandbox"), nil, false,
			"sandbox.realtime.ably.net", utsFive("sandbox", "fallback.ably-realtime.com")),
		valid(legacy("rec2c6-resthost", "REC2c6/custom-resthost-no-fallbacks-0", "REC2c6", "",
			nil, nil, "custom.rest.example.com", "", false, nil, false), "custom.rest.example.com", none),
		valid(legacy("rec2c6-realtimehost", "REC2c6/custom-realtimehost-no-fallbacks-1", "REC2c6", "",
			nil, nil, "", "custom.realtime.example.com", false, nil, false), "custom.realtime.example.com", none),
	}
	// REC3: the connectivity check's answer.
	for _, c := range []struct {
		id     string
		status int
		body   string
		up     bool
	}{{"yes", 200, "yes", true}, {"no", 200, "no", false}, {"empty", 200, "", false}, {"404", 404, "Not Found", false}} {
		items = append(items, hostsItem{ID: "uts-rec3-connectivity-" + c.id, Spec: "REC3", Function: "connectivityUp",
			UTS: utsFallback("REC3/connectivity-check-validation-0"), Status: ptr(c.status), Body: c.body, ExpectedUp: ptr(c.up)})
	}
	// request_endpoint.md: REST requests go to the primary domain first.
	re := func(id string) []string { return utsRef("uts/rest/unit/request_endpoint.md", "rest/unit/"+id) }
	items = append(items,
		hostsItem{ID: "uts-rsc25-default-primary", Spec: "RSC25/REC1a", Function: "resolveHosts", UTS: re("RSC25/default-primary-domain-0"),
			FallbacksSet: ptr(false), ExpectedPrimary: pr, ExpectedFallbacks: &mainFive},
		hostsItem{ID: "uts-rsc25-custom-endpoint", Spec: "RSC25/REC1b2", Function: "resolveHosts", UTS: re("RSC25/custom-endpoint-domain-1"),
			Endpoint: ptr("test"), FallbacksSet: ptr(false), ExpectedPrimary: "test.realtime.ably.net", ExpectedFallbacks: ptr(utsFive("test", "fallback.ably-realtime.com"))},
		hostsItem{ID: "uts-rsc25-multiple-requests-primary", Spec: "RSC25/RSC15f", Function: "preferredHost", UTS: re("RSC25/multiple-requests-primary-domain-2"),
			Comment: "every request of a client with no preferred fallback host goes to the primary", Primary: pr, Steps: []cacheStep{
				{AtMs: 0, Op: "first", Expected: pr}, {AtMs: 10, Op: "first", Expected: pr}, {AtMs: 20, Op: "first", Expected: pr},
			}},
		hostsItem{ID: "uts-rsc25-primary-before-fallback", Spec: "RSC25/RSC15a", Function: "hostOrder", UTS: re("RSC25/primary-tried-before-fallback-3"),
			Comment: "the primary first, a fallback host after it", Primary: pr, Fallbacks: mainFive, MaxFallbacks: ptr(3),
			Draws: drawNumbers([]float64{0, 0, 0}), ExpectedOrder: []string{pr, mainFive[0], mainFive[1], mainFive[2]}},
	)
	// The proxy integration tests. rest_faults.md: endpoint localhost has
	// no fallback host, so the 503 (which qualifies) is the only request.
	faults := func(id string) []string {
		return utsRef("uts/realtime/integration/proxy/rest_faults.md", "realtime/proxy/"+id)
	}
	items = append(items,
		hostsItem{ID: "uts-proxy-rsc15m-localhost-no-fallbacks", Spec: "RSC15m/REC2c2", Function: "resolveHosts", UTS: faults("RSC15m/http-503-no-fallback-0"),
			Endpoint: ptr("localhost"), FallbacksSet: ptr(false), ExpectedPrimary: "localhost", ExpectedFallbacks: &none},
		hostsItem{ID: "uts-proxy-rsc15m-503-qualifies", Spec: "RSC15m", Function: "shouldFallback", UTS: faults("RSC15m/http-503-no-fallback-0"),
			FailureKind: "http-status", Status: ptr(503), ExpectedFallback: ptr(true)},
	)
	// rest_fallback.md: the tests configure endpoint localhost with
	// fallbackHosts [localhost], the same proxy twice: the fallback host
	// equal to the primary is accepted (REC2a2) and tried as a fallback,
	// so the second request goes through the proxy again. Each test gives
	// the hosts, the order of its two requests, and its qualifying rule.
	rf := func(id string) []string {
		return utsRef("uts/rest/integration/proxy/rest_fallback.md", "rest/proxy/"+id)
	}
	localhost := []string{"localhost"}
	proxyHosts := func(id, test, comment string) []hostsItem {
		return []hostsItem{
			{ID: "uts-proxy-" + id + "-hosts", Spec: "REC2a2", Function: "resolveHosts", UTS: rf(test),
				Comment: "endpoint localhost with fallbackHosts [localhost]: the same proxy as primary and fallback", Endpoint: ptr("localhost"),
				FallbackHosts: localhost, FallbacksSet: ptr(true), ExpectedPrimary: "localhost", ExpectedFallbacks: &localhost},
			{ID: "uts-proxy-" + id + "-order", Spec: "RSC15a", Function: "hostOrder", UTS: rf(test),
				Comment: comment, Primary: "localhost", Fallbacks: localhost, MaxFallbacks: ptr(3),
				Draws: drawNumbers([]float64{0}), ExpectedOrder: []string{"localhost", "localhost"}},
		}
	}
	items = append(items, proxyHosts("rsc15l2", "RSC15l2/timeout-triggers-fallback-0", "the timed-out request, then the fallback host")...)
	items = append(items,
		hostsItem{ID: "uts-proxy-rsc15l2-timeout-qualifies", Spec: "RSC15l2", Function: "shouldFallback", UTS: rf("RSC15l2/timeout-triggers-fallback-0"),
			FailureKind: "timeout", Status: ptr(0), ExpectedFallback: ptr(true)})
	items = append(items, proxyHosts("rsc15l4", "RSC15l4/cloudfront-header-fallback-0", "the CloudFront 403, then the fallback host")...)
	items = append(items,
		hostsItem{ID: "uts-proxy-rsc15l4-cloudfront-403-qualifies", Spec: "RSC15l4", Function: "shouldFallback", UTS: rf("RSC15l4/cloudfront-header-fallback-0"),
			FailureKind: "http-status", Status: ptr(403), Server: "CloudFront", ExpectedFallback: ptr(true)})
	items = append(items, proxyHosts("rsc15l-drop", "RSC15l/connection-drop-fallback-1", "the dropped request, then the fallback host (runner.Classify reads the reset as unreachable: runner/uts_test.go)")...)
	items = append(items,
		hostsItem{ID: "uts-proxy-rsc15l-drop-unreachable-qualifies", Spec: "RSC15l1", Function: "shouldFallback", UTS: rf("RSC15l/connection-drop-fallback-1"),
			FailureKind: "unreachable", Status: ptr(0), ExpectedFallback: ptr(true)})
	items = append(items, hostsItem{ID: "uts-proxy-rsc15l-4xx-hosts", Spec: "REC2a2", Function: "resolveHosts", UTS: rf("RSC15l/http-4xx-not-retried-0"),
		Comment: "endpoint localhost with fallbackHosts [localhost]: a fallback host exists, and the 403 still is not retried", Endpoint: ptr("localhost"),
		FallbackHosts: localhost, FallbacksSet: ptr(true), ExpectedPrimary: "localhost", ExpectedFallbacks: &localhost})
	items = append(items,
		hostsItem{ID: "uts-proxy-rsc15l-403-not-retried", Spec: "RSC15l", Function: "shouldFallback", UTS: rf("RSC15l/http-4xx-not-retried-0"),
			FailureKind: "http-status", Status: ptr(403), ExpectedFallback: ptr(false)})
	return items
}
