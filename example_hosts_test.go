package reconnect_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/reconnect-go/reconnect"
)

func ExampleResolveHosts() {
	// Your own service: the options name the hosts, and nothing else.
	h, _ := reconnect.ResolveHosts(reconnect.EndpointOptions{
		Endpoint:      "RT.example.com",
		FallbackHosts: []string{"rt-b.example.com"},
	})
	fmt.Println(h.Primary, h.Fallbacks)

	// A name as the SDK gives it: one label (a docker-compose or
	// Kubernetes service), a port, an IPv6 address in brackets with one.
	h, _ = reconnect.ResolveHosts(reconnect.EndpointOptions{
		Endpoint:      "realtime:8443",
		FallbackHosts: []string{"realtime-b", "[::1]:8080"},
	})
	fmt.Println(h.Primary, h.Fallbacks)

	// Forgetting the endpoint, or giving a URL, is an error, never a
	// default host.
	_, err := reconnect.ResolveHosts(reconnect.EndpointOptions{FallbackHosts: []string{"rt-b.example.com"}})
	fmt.Println(err)
	_, err = reconnect.ResolveHosts(reconnect.EndpointOptions{Endpoint: "wss://rt.example.com:443/realtime"})
	fmt.Println(err)
	// Output:
	// rt.example.com [rt-b.example.com]
	// realtime:8443 [realtime-b [::1]:8080]
	// reconnect: EndpointOptions.Endpoint = "": is required: give your service's primary host name, such as "rt.example.com" (Ably's hosts need EndpointOptions.Ably)
	// reconnect: EndpointOptions.Endpoint = "wss://rt.example.com:443/realtime": is a URL: give the host and port only, "rt.example.com:443"
}

// Ably's endpoint rules (REC1, REC2) are a preset: EndpointOptions.Ably.
func ExampleResolveHosts_ably() {
	h, _ := reconnect.ResolveHosts(reconnect.EndpointOptions{Ably: true})
	fmt.Println(h.Primary, len(h.Fallbacks), "fallbacks")

	h, _ = reconnect.ResolveHosts(reconnect.EndpointOptions{Ably: true, Endpoint: "nonprod:sandbox"})
	fmt.Println(h.Primary)
	fmt.Println(h.Fallbacks[0], "…", len(h.Fallbacks), "fallbacks")

	_, err := reconnect.ResolveHosts(reconnect.EndpointOptions{Ably: true, Endpoint: "acme", Environment: "acme"})
	fmt.Println(err)

	// The deprecated restHost, with fallbackHostsUseDefault (REC1d1, REC2b).
	h, _ = reconnect.ResolveHosts(reconnect.EndpointOptions{Ably: true, RestHost: "rest.example.com", FallbackHostsUseDefault: true})
	fmt.Println(h.Primary, h.Fallbacks[0], "…", len(h.Fallbacks), "fallbacks")
	// Output:
	// main.realtime.ably.net 5 fallbacks
	// sandbox.realtime.ably-nonprod.net
	// sandbox.a.fallback.ably-realtime-nonprod.com … 5 fallbacks
	// reconnect: EndpointOptions.Environment = "acme": cannot be combined with Endpoint (REC1b1): give one of them; Environment is deprecated, and Endpoint takes the same routing policy id
	// rest.example.com main.a.fallback.ably-realtime.com … 5 fallbacks
}

func ExampleAppendHostOrder() {
	h, _ := reconnect.ResolveHosts(reconnect.EndpointOptions{
		Endpoint:      "rt.example.com",
		FallbackHosts: []string{"a.example.com", "b.example.com", "c.example.com", "d.example.com"},
	})
	// The primary host, then httpMaxRetryCount fallbacks in random order;
	// a seeded source makes the order reproducible.
	order := reconnect.AppendHostOrder(nil, h, reconnect.DefaultTimeouts().HTTPMaxRetryCount, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(len(order), order[0])
	// Output:
	// 4 rt.example.com
}

func ExampleShouldFallback() {
	for _, f := range []reconnect.Failure{
		{Kind: reconnect.FailureTimeout},
		{Kind: reconnect.FailureHTTPStatus, Status: 503},
		{Kind: reconnect.FailureHTTPStatus, Status: 404},
		{Kind: reconnect.FailureHTTPStatus, Status: 403, Server: "CloudFront"},
		{Kind: reconnect.FailureDisconnected, Status: 500},
		{Kind: reconnect.FailureToken, Status: 401},
	} {
		fmt.Println(f.Kind, f.Status, reconnect.ShouldFallback(f))
	}
	// Output:
	// timeout 0 true
	// http-status 503 true
	// http-status 404 false
	// http-status 403 true
	// disconnected 500 true
	// token 401 false
}

func ExampleFailure_String() {
	// The text engine actions and logs carry: the kind, then the status
	// for the kinds that have one, then an http-status failure's Server
	// header when it names one.
	for _, f := range []reconnect.Failure{
		{Kind: reconnect.FailureDNS},
		{Kind: reconnect.FailureHTTPStatus, Status: 503},
		{Kind: reconnect.FailureHTTPStatus, Status: 403, Server: "CloudFront"},
		{Kind: reconnect.FailureDisconnected, Status: 500, Server: "ignored"},
		{Kind: reconnect.FailureToken, Status: 401},
		{},
	} {
		fmt.Println(f)
	}
	// Output:
	// dns
	// http-status:503
	// http-status:403:CloudFront
	// disconnected:500
	// token
	// none
}

func ExampleConnectivityUp() {
	fmt.Println(reconnect.ConnectivityUp(200, []byte("yes\n")))
	fmt.Println(reconnect.ConnectivityUp(200, []byte("<html>yes</html>"))) // a captive portal
	fmt.Println(reconnect.ConnectivityUp(503, []byte("yes")))
	// Output:
	// true
	// false
	// false
}

func ExamplePreferredHost() {
	var p reconnect.PreferredHost
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	primary := "main.realtime.ably.net"
	ttl := reconnect.DefaultFallbackRetry // 10 minutes

	p.FallbackSucceeded("main.c.fallback.ably-realtime.com", t0, ttl)
	fmt.Println(p.First(primary, t0.Add(9*time.Minute)))
	fmt.Println(p.First(primary, t0.Add(10*time.Minute)))
	// Output:
	// main.c.fallback.ably-realtime.com
	// main.realtime.ably.net
}
