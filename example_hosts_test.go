package reconnect_test

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/reconnect-go/reconnect"
)

func ExampleResolveHosts() {
	h, _ := reconnect.ResolveHosts(reconnect.EndpointOptions{Endpoint: "nonprod:sandbox"})
	fmt.Println(h.Primary)
	fmt.Println(h.Fallbacks[0], "…", len(h.Fallbacks), "fallbacks")

	h, _ = reconnect.ResolveHosts(reconnect.EndpointOptions{Endpoint: "realtime.example.com"})
	fmt.Println(h.Primary, len(h.Fallbacks), "fallbacks")

	_, err := reconnect.ResolveHosts(reconnect.EndpointOptions{Endpoint: "acme", Environment: "acme"})
	fmt.Println(err)
	// Output:
	// sandbox.realtime.ably-nonprod.net
	// sandbox.a.fallback.ably-realtime-nonprod.com … 5 fallbacks
	// realtime.example.com 0 fallbacks
	// reconnect: EndpointOptions.Environment = "acme": cannot be combined with Endpoint (REC1b1)
}

func ExampleAppendHostOrder() {
	h, _ := reconnect.ResolveHosts(reconnect.EndpointOptions{})
	// The primary host, then httpMaxRetryCount fallbacks in random order;
	// a seeded source makes the order reproducible.
	order := reconnect.AppendHostOrder(nil, h, reconnect.DefaultTimeouts().HTTPMaxRetryCount, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(len(order), order[0])
	// Output:
	// 4 main.realtime.ably.net
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
	ttl := reconnect.DefaultTimeouts().FallbackRetry // 10 minutes

	p.FallbackSucceeded("main.c.fallback.ably-realtime.com", t0, ttl)
	fmt.Println(p.First(primary, t0.Add(9*time.Minute)))
	fmt.Println(p.First(primary, t0.Add(10*time.Minute)))
	// Output:
	// main.c.fallback.ably-realtime.com
	// main.realtime.ably.net
}
