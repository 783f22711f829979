package reconnect

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestPropertyHostOrderIsPrimaryThenADuplicateFreePrefixOfAPermutation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "fallbacks")
		fallbacks := make([]string, n)
		for i := range fallbacks {
			fallbacks[i] = "fb" + string(rune('a'+i)) + ".example.com"
		}
		maxFallbacks := rapid.IntRange(-2, 10).Draw(t, "maxFallbacks")
		draws := rapid.SliceOfN(anyU(), 10, 10).Draw(t, "draws")
		dst := rapid.SliceOfN(rapid.Just("earlier"), 0, 2).Draw(t, "dst")
		h := Hosts{Primary: "primary.example.com", Fallbacks: slices.Clone(fallbacks)}
		got := AppendHostOrder(dst, h, maxFallbacks, &pinnedSource{draws: draws})
		if !slices.Equal(h.Fallbacks, fallbacks) {
			t.Fatal("AppendHostOrder changed h.Fallbacks")
		}
		got = got[len(dst):]
		want := min(max(maxFallbacks, 0), n)
		if len(got) != 1+want || got[0] != h.Primary {
			t.Fatalf("order %v: want the primary then %d fallbacks", got, want)
		}
		seen := map[string]bool{}
		for _, x := range got[1:] {
			if seen[x] || !slices.Contains(fallbacks, x) {
				t.Fatalf("order %v repeats or invents %s", got, x)
			}
			seen[x] = true
		}
	})
}

func TestHostOrderEveryOrderingOfThreeOfFiveIsReachableAndUniform(t *testing.T) {
	h := Hosts{Primary: "p", Fallbacks: []string{"a", "b", "c", "d", "e"}}
	src := rand.New(rand.NewPCG(17, 29))
	counts := map[string]int{}
	buf := make([]string, 0, 6)
	const draws = 100_000
	for range draws {
		buf = AppendHostOrder(buf[:0], h, 3, src)
		counts[strings.Join(buf[1:], "")]++
	}
	if len(counts) != 60 {
		t.Fatalf("%d distinct orderings of 3 of 5, want all 60", len(counts))
	}
	expected := float64(draws) / 60
	chi2 := 0.0
	for _, c := range counts {
		d := float64(c) - expected
		chi2 += d * d / expected
	}
	// 59 degrees of freedom: the 99.9th percentile is about 98; a biased
	// pick such as "never the last host" gives thousands.
	if chi2 > 150 {
		t.Fatalf("chi-square %.1f over 60 orderings: not uniform", chi2)
	}
	t.Logf("chi-square %.1f (59 degrees of freedom)", chi2)
}

func TestHostOrderAllocatesNothingWithRoom(t *testing.T) {
	h := Hosts{Primary: "p", Fallbacks: []string{"a", "b", "c", "d", "e"}}
	buf := make([]string, 0, 6)
	src := rand.New(rand.NewPCG(1, 1))
	if allocs := testing.AllocsPerRun(100, func() { buf = AppendHostOrder(buf[:0], h, 3, src) }); allocs != 0 {
		t.Fatalf("%v allocations per call", allocs)
	}
}

func TestPropertyShouldFallbackIsFalseForEvery4xxExceptCloudFront(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		status := rapid.IntRange(400, 499).Draw(t, "status")
		server := rapid.SampledFrom([]string{"", "nginx", "cloudflare", "CloudFrontX", "Cloud Front"}).Draw(t, "server")
		for _, k := range []FailureKind{FailureHTTPStatus, FailureDisconnected, FailureToken, FailureOther} {
			if ShouldFallback(Failure{Kind: k, Status: status, Server: server}) {
				t.Fatalf("%v %d (Server %q) qualifies", k, status, server)
			}
		}
		if !ShouldFallback(Failure{Kind: FailureHTTPStatus, Status: status, Server: "CloudFront"}) {
			t.Fatalf("CloudFront %d does not qualify", status)
		}
	})
}

func TestShouldFallbackOutOfRangeKindNeverQualifies(t *testing.T) {
	if ShouldFallback(Failure{Kind: numFailureKinds, Status: 500}) || ShouldFallback(Failure{Kind: 255, Status: 503}) {
		t.Fatal("an unknown failure kind qualified")
	}
	if FailureKind(200).String() != "FailureKind(200)" || FailureTimeout.String() != "timeout" {
		t.Fatal("FailureKind.String")
	}
}

func TestPropertyPreferredHostNeverReturnsAnExpiredHost(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var p PreferredHost
		t0 := time.Unix(1_700_000_000, 0)
		var host string
		var until time.Time
		now := t0
		for range rapid.IntRange(1, 30).Draw(t, "steps") {
			now = now.Add(time.Duration(rapid.Int64Range(0, int64(20*time.Minute)).Draw(t, "advance")))
			switch rapid.IntRange(0, 2).Draw(t, "op") {
			case 0:
				ttl := time.Duration(rapid.Int64Range(-1, int64(15*time.Minute)).Draw(t, "ttl"))
				host = rapid.SampledFrom([]string{"a", "b"}).Draw(t, "host")
				p.FallbackSucceeded(host, now, ttl)
				if ttl <= 0 {
					host = ""
				}
				until = now.Add(ttl)
			case 1:
				f := Failure{Kind: rapid.SampledFrom([]FailureKind{FailureTimeout, FailureToken, FailureHTTPStatus}).Draw(t, "kind"), Status: 503}
				failedHost := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "failedHost")
				p.Failed(failedHost, f)
				if failedHost == host && ShouldFallback(f) {
					host = ""
				}
			case 2:
				got := p.First("primary", now)
				if got != "primary" && (got != host || !now.Before(until)) {
					t.Fatalf("First at %v = %s; remembered %q until %v", now.Sub(t0), got, host, until.Sub(t0))
				}
				if host != "" && now.Before(until) && got != host {
					t.Fatalf("First = %s while %s is preferred", got, host)
				}
			}
		}
	})
}

func TestPreferredHostSaturatesAHugeTTL(t *testing.T) {
	var p PreferredHost
	now := time.Unix(0, 0)
	p.FallbackSucceeded("fb", now, time.Duration(1<<63-1))
	if p.First("primary", now.Add(100*365*24*time.Hour)) != "fb" {
		t.Fatal("a huge ttl wrapped around")
	}
}

// FuzzResolveHosts: any options resolve to a valid primary host and
// distinct fallback hosts (one of which may be the primary), or to a
// *FieldError that names an option, quotes its value (true for
// FallbackHostsUseDefault) and says what is expected; without Ably, the
// primary host is the Endpoint given (lowered), Ably's deprecated options
// are refused, and an Endpoint that holds a URL is told to give the host
// name (and port) only. With Ably, the options the spec calls invalid as a set
// (REC1b1, REC1c1, REC2a1) never resolve, RestHost (else RealtimeHost) is
// the primary host (REC1d), and FallbackHostsUseDefault gives the default
// five fallback hosts (REC2b).
func FuzzResolveHosts(f *testing.F) {
	f.Add("", "", "fb.example.com", true, true, "", "", false)
	f.Add("nonprod:x", "", "", false, true, "", "", false)
	f.Add("a.b", "prod", "a b", true, false, "", "", false)
	f.Add("https://rt.example.com:443/x", "", "", false, false, "", "", false)
	f.Add("[::1]:80", "", "fe80::1%eth0", true, false, "", "", false)
	f.Add("sandbox", "", "", false, false, "", "", false)
	f.Add("", "", "", false, true, "rest.example.com", "rt.example.com", true)
	f.Add("", "sandbox", "", false, true, "", "rt.example.com", false)
	f.Add("", "", "localhost", true, true, "LOCALHOST", "", false)
	f.Add("localhost", "", "localhost", true, false, "", "", false)
	f.Add("realtime:8080", "", "[::1]:9000,realtime-b,RT:8080", true, false, "", "", false)
	f.Add("nonprod:8443", "", "[10.0.0.7]:80", true, false, "", "", false)
	f.Add("rt.example.com:08443", "", "rt:0", true, false, "", "", false)
	f.Add("[fe80::1%25eth0]:80", "", "", false, false, "", "", false)
	f.Add("realtime:8443", "", "", false, true, "", "", false)
	f.Fuzz(func(t *testing.T, endpoint, environment, fallback string, setFallbacks, ably bool, restHost, realtimeHost string, useDefault bool) {
		o := EndpointOptions{Endpoint: endpoint, Environment: environment, Ably: ably, RestHost: restHost, RealtimeHost: realtimeHost, FallbackHostsUseDefault: useDefault}
		if setFallbacks {
			o.FallbackHosts = strings.Split(fallback, ",")
		}
		legacy := restHost != "" || realtimeHost != "" || useDefault
		h, err := ResolveHosts(o)
		if err != nil {
			fe, ok := err.(*FieldError)
			if !ok {
				t.Fatalf("error %v is not a *FieldError", err)
			}
			_, qerr := strconv.Unquote(fe.Value)
			if fe.Field == "EndpointOptions.FallbackHostsUseDefault" {
				qerr = nil
				if fe.Value != "true" || !useDefault {
					qerr = strconv.ErrSyntax
				}
			}
			if !strings.HasPrefix(fe.Field, "EndpointOptions.") || qerr != nil || fe.Problem == "" {
				t.Fatalf("%#v: %v: want an option, its quoted value and a problem", o, err)
			}
			if !ably && environment == "" && !legacy && fe.Field == "EndpointOptions.Endpoint" && strings.Contains(endpoint, "://") && !strings.Contains(fe.Problem, "give the host") {
				t.Fatalf("%#v: %v: a URL is not told to give the host name only", o, err)
			}
			return
		}
		if h.Primary == "" || h.Fallbacks == nil {
			t.Fatalf("ResolveHosts(%#v) = %+v", o, h)
		}
		if !ably && (h.Primary != asciiLower(endpoint) || environment != "" || legacy) {
			t.Fatalf("ResolveHosts(%#v) = %+v: without Ably the primary is the Endpoint given, and Ably's deprecated options are refused", o, h)
		}
		if ably {
			switch {
			case endpoint != "" && (environment != "" || legacy):
				t.Fatalf("ResolveHosts(%#v) = %+v: REC1b1 makes these options invalid", o, h)
			case environment != "" && (restHost != "" || realtimeHost != ""):
				t.Fatalf("ResolveHosts(%#v) = %+v: REC1c1 makes these options invalid", o, h)
			case setFallbacks && useDefault:
				t.Fatalf("ResolveHosts(%#v) = %+v: REC2a1 makes these options invalid", o, h)
			case restHost != "" && h.Primary != asciiLower(restHost):
				t.Fatalf("ResolveHosts(%#v) = %+v: REC1d1 makes restHost the primary", o, h)
			case restHost == "" && realtimeHost != "" && h.Primary != asciiLower(realtimeHost):
				t.Fatalf("ResolveHosts(%#v) = %+v: REC1d2 makes realtimeHost the primary", o, h)
			case useDefault && !slices.Equal(h.Fallbacks, fiveFallbacks("main", ".fallback.ably-realtime.com")):
				t.Fatalf("ResolveHosts(%#v) = %+v: REC2b gives the default fallback hosts", o, h)
			case !useDefault && !setFallbacks && (restHost != "" || realtimeHost != "") && len(h.Fallbacks) != 0:
				t.Fatalf("ResolveHosts(%#v) = %+v: REC2c6 gives no fallback hosts", o, h)
			}
		}
		if _, err := checkHost("x", h.Primary, !ably); err != nil {
			t.Fatalf("bad primary %v: %v", h, err)
		}
		seen := map[string]bool{}
		for _, x := range h.Fallbacks {
			if _, err := checkHost("x", x, !ably); err != nil || seen[x] {
				t.Fatalf("bad fallback host list %v: %v", h, err)
			}
			seen[x] = true
		}
	})
}

func FuzzConnectivityUp(f *testing.F) {
	f.Add(200, []byte("yes\n"))
	f.Add(500, []byte("<html>yes</html>"))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		up := ConnectivityUp(status, body)
		if up && (status < 200 || status > 299 || strings.TrimSpace(string(body)) != "yes") {
			t.Fatalf("ConnectivityUp(%d, %q) = true", status, body)
		}
	})
}

func FuzzShouldFallback(f *testing.F) {
	f.Add(uint8(5), 503, "CloudFront")
	f.Fuzz(func(t *testing.T, kind uint8, status int, server string) {
		fl := Failure{Kind: FailureKind(kind), Status: status, Server: server}
		got := ShouldFallback(fl)
		// The Server header is trimmed of HTTP's optional white space
		// only (space and tab), as isCloudFront documents: "\nCloudFront"
		// is not CloudFront.
		ows := strings.Trim(server, " \t")
		statusKind := fl.Kind == FailureHTTPStatus || fl.Kind == FailureDisconnected || fl.Kind == FailureToken || fl.Kind == FailureOther || fl.Kind >= numFailureKinds
		if statusKind && got && status >= 400 && status <= 499 && !strings.EqualFold(ows, "CloudFront") {
			t.Fatalf("%+v qualifies", fl)
		}
		if got != oracleQualifies(fl.Kind.String(), status, ows) && strings.EqualFold(ows, "CloudFront") == (ows == "CloudFront") && fl.Kind < numFailureKinds {
			t.Fatalf("%+v: ShouldFallback %t disagrees with the rules", fl, got)
		}
	})
}
