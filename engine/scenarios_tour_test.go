package engine

import "fmt"

// Tours: one timeline per policy through the connection's life — connect,
// network events in every state, activation, duplicates, the immediate
// reconnect and its rate limit, a failed retry, SUSPENDED, close in every
// state, fatal, connect afresh — and one through the host walk and RTN17f1
// while connected. The timeline is the same for the three policies; what
// differs is written once per policy below (the first transports of an
// attempt, what activation does, which attempt timers run), from the rows
// of docs/engine.md.

// tour builds the expected actions of one policy's timeline, numbering
// transports as the engine must (T1, T2, … in the order opened).
type tour struct {
	pol     string // websocket-first, http-first, websocket-check
	next    int    // the next transport ID
	cur     int    // the attempt's current transport
	active  int
	upgrade int // HTTP-first: the upgrade websocket in flight, or 0
}

// start is the policy's first transports of an attempt at time at on host,
// after the state change (START rows).
func (u *tour) start(at int64, host, mode string) []string {
	u.cur = u.next
	u.next++
	switch u.pol {
	case "http-first":
		return openWith(u.cur, at, "http", host, mode)
	case "websocket-check":
		return cat(timerAt("attempt", at+20000), timerAt("websocket-slow", at+4000), timerAt("websocket-give-up", at+10000),
			openWith(u.cur, at, "websocket", host, mode))
	}
	return wsFirst(u.cur, at, host, mode)
}

// attemptTimers are the attempt timers running while the first transport
// of an attempt is in flight, in the order they are cancelled.
func (u *tour) attemptTimers() []string {
	switch u.pol {
	case "http-first":
		return nil
	case "websocket-check":
		return []string{cancelT("websocket-slow"), cancelT("websocket-give-up"), cancelT("attempt")}
	}
	return []string{cancelT("short-circuit")}
}

// connectOK is the attempt's current transport receiving CONNECTED
// without a viable event first (treated as viable, then connected): kind
// is its kind, sc whether the short-circuit timer runs, ttl whether the
// state-TTL timer runs.
func (u *tour) connectOK(at int64, host, kind string, sc, ttl bool) []string {
	t := u.cur
	u.active = t
	out := []string{cancelT(connectT(t)), activateT(t)}
	if sc {
		out = append(out, cancelT("short-circuit"))
	}
	if u.pol == "websocket-check" {
		out = cat(cancelT("websocket-slow"), cancelT("websocket-give-up"), out, cancelT("attempt"))
	}
	if ttl {
		out = append(out, cancelT("state-ttl"))
	}
	out = append(out, stateTo("connecting", "connected", "connected"))
	if kind == "http" && u.pol != "websocket-check" {
		u.upgrade = u.next
		u.next++
		out = append(out, openWith(u.upgrade, at, "websocket", host, "upgrade")...)
	}
	return out
}

// disposeAll is disposing the active transport and an upgrade websocket
// in flight.
func (u *tour) disposeAll() []string {
	out := []string{disposeT(u.active)}
	if u.upgrade != 0 {
		out = append(out, lost(u.upgrade)...)
		u.upgrade = 0
	}
	u.active = 0
	return out
}

func tourConfig(pol, endpoint string, ttl int64) scenarioConfig {
	return scenarioConfig{Policy: pol, Endpoint: endpoint, ConnectionStateTTLMs: ttl}
}

// lifeTour is the connection's life under policy pol, on one host with no
// fallback (connectionStateTtl 30 s, draws of 0).
func lifeTour(pol string) scenario {
	u := &tour{pol: pol, next: 1}
	kind, sc := "websocket", pol == "websocket-first"
	if pol == "http-first" {
		kind = "http"
	}
	ok := func(at int64, ttl bool) []string { return u.connectOK(at, H, kind, sc, ttl) }
	var s []scenarioStep
	add := func(at int64, ev string, expect ...any) {
		s = append(s, scenarioStep{AtMs: at, Event: ev, Expect: cat(expect...)})
	}

	add(0, "connect", stateTo("initialized", "connecting", "connect-requested"), u.start(0, H, "clean"), timerAt("state-ttl", 30000))
	add(10, "connect")
	t := u.cur
	add(20, "network-up", lost(t), u.attemptTimers(), u.start(20, H, "clean"))
	t = u.cur
	add(30, "network-down", lost(t), u.attemptTimers(),
		withErr(stateRetry("connecting", "disconnected", "network-down", 15000), "unreachable"), timerAt("retry", 15030))
	add(40, "network-down")
	add(50, "connect", cancelT("retry"), stateTo("disconnected", "connecting", "connect-requested"), u.start(50, H, "clean"))
	add(60, fmt.Sprintf("connected T%d", u.cur), ok(60, true))
	add(70, fmt.Sprintf("connected T%d", u.active))
	add(80, "network-up")
	if u.upgrade != 0 {
		add(90, fmt.Sprintf("failed T%d refused", u.upgrade), lost(u.upgrade))
		u.upgrade = 0
	}
	// The immediate reconnect, then a drop within 1 s of it.
	drop := fmt.Sprintf("closed T%d", u.active)
	add(1000, drop, u.disposeAll(), stateRetry("connected", "disconnected", "dropped", 0), stateTo("disconnected", "connecting", "reconnect"),
		u.start(1000, H, "resume"), timerAt("state-ttl", 31000))
	add(1100, fmt.Sprintf("connected T%d", u.cur), ok(1100, true))
	drop = fmt.Sprintf("closed T%d", u.active)
	add(1500, drop, u.disposeAll(), stateRetry("connected", "disconnected", "dropped", 15000), timerAt("retry", 16500), timerAt("state-ttl", 31500))
	// The retry fails on the only host: DISCONNECTED, n = 2.
	add(16500, "timer retry", stateTo("disconnected", "connecting", "retry"), u.start(16500, H, "resume"))
	end := func(at int64) []string {
		return cat(withErr(stateRetry("connecting", "disconnected", "connect-failed", 20000), "refused"), timerAt("retry", at+20000))
	}
	switch pol {
	case "websocket-first":
		add(16600, fmt.Sprintf("failed T%d refused", u.cur), lost(u.cur), cancelT("short-circuit"), openWith(u.next, 16600, "http", H, "resume"))
		u.cur = u.next
		u.next++
		add(16610, fmt.Sprintf("failed T%d refused", u.cur), lost(u.cur), end(16610))
	case "http-first":
		add(16600, fmt.Sprintf("failed T%d refused", u.cur), lost(u.cur), end(16600))
	case "websocket-check":
		add(16600, fmt.Sprintf("failed T%d refused", u.cur), lost(u.cur), "check-websocket")
		add(16610, "websocket-check down", cancelT("websocket-slow"), cancelT("websocket-give-up"), openWith(u.next, 16610, "http", H, "resume"))
		u.cur = u.next
		u.next++
		add(16620, fmt.Sprintf("failed T%d refused", u.cur), lost(u.cur), cancelT("attempt"), end(16620))
	}
	// connectionStateTtl passes in DISCONNECTED: SUSPENDED.
	add(31500, "timer state-ttl", cancelT("retry"), withErr(stateRetry("disconnected", "suspended", "state-ttl", 30000), "refused"), timerAt("retry", 61500))
	add(40000, "network-up", cancelT("retry"), stateTo("suspended", "connecting", "network-up"), u.start(40000, H, "resume"))
	add(40100, fmt.Sprintf("connected T%d", u.cur), ok(40100, false))
	add(50000, "network-down", u.disposeAll(), withErr(stateRetry("connected", "disconnected", "network-down", 15000), "unreachable"),
		timerAt("retry", 65000), timerAt("state-ttl", 80000))
	add(51000, "network-up", cancelT("retry"), stateTo("disconnected", "connecting", "network-up"), u.start(51000, H, "resume"))
	add(51100, fmt.Sprintf("connected T%d", u.cur), ok(51100, true))
	// Close while CONNECTED (an upgrade websocket in flight is disposed), twice; the transport closes.
	var upg []string
	if u.upgrade != 0 {
		upg = lost(u.upgrade)
		u.upgrade = 0
	}
	add(60000, "close", upg, stateTo("connected", "closing", "close-requested"), timerAt("close", 70000))
	add(60010, "close")
	add(60100, fmt.Sprintf("closed T%d", u.active), disposeT(u.active), cancelT("close"), stateTo("closing", "closed", "closed"))
	add(60200, "fatal other")
	add(60300, "network-down")
	add(60400, "timer retry")
	// Connect afresh (clean), close while CONNECTING.
	add(61000, "connect", stateTo("closed", "connecting", "connect-requested"), u.start(61000, H, "clean"), timerAt("state-ttl", 91000))
	stop := []string{}
	switch pol {
	case "websocket-first":
		stop = []string{cancelT("short-circuit"), cancelT("state-ttl")}
	case "http-first":
		stop = []string{cancelT("state-ttl")}
	case "websocket-check":
		stop = []string{cancelT("state-ttl"), cancelT("websocket-slow"), cancelT("websocket-give-up"), cancelT("attempt")}
	}
	add(61100, "close", lost(u.cur), stop, stateTo("connecting", "closed", "close-requested"))
	// Connect afresh, CONNECTED, fatal; fatal again; connect, close timer.
	add(62000, "connect", stateTo("closed", "connecting", "connect-requested"), u.start(62000, H, "clean"), timerAt("state-ttl", 92000))
	add(62100, fmt.Sprintf("connected T%d", u.cur), ok(62100, true))
	add(62200, "fatal token:401", u.disposeAll(), withErr(stateTo("connected", "failed", "fatal"), "token"))
	add(62300, "fatal other")
	add(63000, "connect", stateTo("failed", "connecting", "connect-requested"), u.start(63000, H, "clean"), timerAt("state-ttl", 93000))
	add(63100, fmt.Sprintf("connected T%d", u.cur), ok(63100, true))
	upg = nil
	if u.upgrade != 0 {
		upg = lost(u.upgrade)
		u.upgrade = 0
	}
	add(70000, "close", upg, stateTo("connected", "closing", "close-requested"), timerAt("close", 80000))
	add(80000, "timer close", disposeT(u.active), stateTo("closing", "closed", "closed"))
	s[len(s)-1].ExpectState = "closed"

	return scenario{ID: "tour-life-" + pol, Spec: "engine",
		Comment: "the connection's life under " + pol + " on one host: connect, connect and network-up while connecting (a restart), network-down while connecting and while disconnected, " +
			"connect now, CONNECTED, a duplicate connected, the immediate reconnect and a drop within 1 s of it (RTB1), a failed retry (n = 2), SUSPENDED at connectionStateTtl, " +
			"network-up from SUSPENDED, network-down while connected, close while connected, closing, closed, connecting and connected, fatal, connect afresh",
		Config: tourConfig(pol, H, 30000),
		Draws:  []float64{0, 0, 0, 0},
		Steps:  s,
	}
}

// hostsTour is the host walk and RTN17f1 under policy pol with Ably's
// hosts: a refused first host, the connectivity check down, a retry, the
// check up and a fallback host, CONNECTED, a DISCONNECTED 503 and the
// reconnect on a fallback host.
func hostsTour(pol string) scenario {
	u := &tour{pol: pol, next: 1}
	var s []scenarioStep
	add := func(at int64, ev string, expect ...any) {
		s = append(s, scenarioStep{AtMs: at, Event: ev, Expect: cat(expect...)})
	}
	flow := "http"
	if pol == "websocket-check" {
		flow = "websocket"
	}
	// walk fails the attempt's first host at at (and at+10 for
	// websocket-first's HTTP) and asks for the connectivity check.
	walk := func(at int64) int64 {
		if pol == "websocket-first" {
			add(at, fmt.Sprintf("failed T%d refused", u.cur), lost(u.cur), cancelT("short-circuit"), openWith(u.next, at, "http", P, "clean"))
			u.cur = u.next
			u.next++
			at += 10
		}
		add(at, fmt.Sprintf("failed T%d refused", u.cur), lost(u.cur), "check", timerAt("connectivity-check", at+10000))
		return at
	}
	add(0, "connect", stateTo("initialized", "connecting", "connect-requested"), u.start(0, P, "clean"), timerAt("state-ttl", 120000))
	at := walk(10)
	var wc []string
	if pol == "websocket-check" {
		wc = []string{cancelT("websocket-slow"), cancelT("websocket-give-up"), cancelT("attempt")}
	}
	add(at+10, "connectivity down", cancelT("connectivity-check"), wc,
		withErr(stateRetry("connecting", "disconnected", "connectivity-down", 15000), "refused"), timerAt("retry", at+10+15000))
	at += 10 + 15000
	add(at, "timer retry", stateTo("disconnected", "connecting", "retry"), u.start(at, P, "clean"))
	at = walk(at + 10)
	// Draws 0.5, 0, 0.9: the order c, a, e.
	add(at+10, "connectivity up", cancelT("connectivity-check"), openWith(u.next, at+10, flow, fbHost("c"), "clean"))
	u.cur = u.next
	u.next++
	add(at+20, fmt.Sprintf("connected T%d", u.cur), u.connectOK(at+20, fbHost("c"), flow, false, true))
	if u.upgrade != 0 {
		// The upgrade websocket is refused: HTTP stays.
		add(at+30, fmt.Sprintf("failed T%d refused", u.upgrade), lost(u.upgrade))
		u.upgrade = 0
	}
	at = 30000
	first := []string{"check", timerAt("connectivity-check", at+10000)}
	if pol == "websocket-check" {
		first = cat(timerAt("attempt", at+20000), timerAt("websocket-slow", at+4000), timerAt("websocket-give-up", at+10000), first)
	}
	add(at, fmt.Sprintf("closed T%d disconnected:503", u.active), u.disposeAll(),
		withErr(stateRetry("connected", "disconnected", "dropped", 0), "disconnected:503"), stateTo("disconnected", "connecting", "reconnect"),
		first, timerAt("state-ttl", at+120000))
	// Draws 0, 0, 0: the order a, b, c; the first transports open on a.
	u.cur = u.next
	u.next++
	var open []string
	switch pol {
	case "websocket-first":
		open = wsFirst(u.cur, at+50, fbHost("a"), "resume")
	case "http-first":
		open = openWith(u.cur, at+50, "http", fbHost("a"), "resume")
	case "websocket-check":
		open = openWith(u.cur, at+50, "websocket", fbHost("a"), "resume")
	}
	add(at+50, "connectivity up", cancelT("connectivity-check"), open)
	add(at+100, fmt.Sprintf("connected T%d", u.cur), u.connectOK(at+100, fbHost("a"), map[bool]string{true: "http", false: "websocket"}[pol == "http-first"], pol == "websocket-first", true))
	s[len(s)-1].ExpectState = "connected"
	return scenario{ID: "tour-hosts-" + pol, Spec: "RTN17/RTN17f1",
		Comment: "the host walk under " + pol + ": the first host refused, the connectivity check says down (no fallback host), the retry's first host refused, the check says up, " +
			"a fallback host (draws 0.5, 0, 0.9: c) connects (an upgrade websocket is refused); the server then sends DISCONNECTED 503 (RTN17f1): the reconnect checks the internet and starts on a fallback host of a new order (draws 0, 0, 0: a)",
		Config: scenarioConfig{Policy: pol},
		Draws:  []float64{0, 0.5, 0, 0.9, 0, 0, 0},
		Steps:  s,
	}
}

func tourScenarios() []scenario {
	var out []scenario
	for _, pol := range []string{"websocket-first", "http-first", "websocket-check"} {
		out = append(out, lifeTour(pol), hostsTour(pol))
	}
	return out
}
