package conform

// The events of what the server says (docs/engine.md, The server speaks,
// Liveness, Token errors): a CONNECTED message with its details, a later
// one, activity, and the answer to a token renewal.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// serverEvent reads
//
//	connected T<n>[ maxIdleInterval=<ms>][ connectionStateTtl=<ms>][ error=<failure>]
//	details T<n>[ maxIdleInterval=<ms>][ connectionStateTtl=<ms>][ error=<failure>]
//	activity T<n>[ at=<ms>]
//	token C<n> renewed | token C<n> failed <failure>
//
// each option at most once, in any order; f is s split into words.
func serverEvent(s string, f []string) (engine.Event, error) {
	bad := func(why string) (engine.Event, error) { return engine.Event{}, fmt.Errorf("bad event %q: %s", s, why) }
	if len(f) < 2 {
		return bad("a transport or check ID must follow")
	}
	if f[0] == "token" {
		n, ok := idOf(f[1], "C")
		if !ok {
			return bad("want token C<n> renewed | token C<n> failed <failure>")
		}
		ev := engine.Event{Kind: engine.EventTokenRenewal, Check: engine.CheckID(n)}
		switch {
		case len(f) == 3 && f[2] == "renewed":
			ev.Up = true
			return ev, nil
		case len(f) == 4 && f[2] == "failed":
			fl, err := ParseFailure(f[3])
			ev.Failure = fl
			return ev, err
		}
		return bad("want token C<n> renewed | token C<n> failed <failure>")
	}
	n, ok := idOf(f[1], "T")
	if !ok {
		return bad("bad transport")
	}
	ev := engine.Event{Transport: engine.TransportID(n)}
	switch f[0] {
	case "connected":
		ev.Kind = engine.EventTransportConnected
	case "details":
		ev.Kind = engine.EventConnectionDetails
	case "activity":
		ev.Kind = engine.EventActivity
	}
	seen := map[string]bool{}
	for _, opt := range f[2:] {
		k, v, ok := strings.Cut(opt, "=")
		if !ok || seen[k] {
			return bad("want key=value options, each at most once")
		}
		seen[k] = true
		if k == "error" && ev.Kind != engine.EventActivity {
			fl, err := ParseFailure(v)
			if err != nil {
				return ev, err
			}
			ev.Failure = fl
			continue
		}
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms < 0 {
			return bad("a duration is whole milliseconds, at least 0")
		}
		d := time.Duration(ms) * time.Millisecond
		switch {
		case k == "maxIdleInterval" && ev.Kind != engine.EventActivity:
			ev.Details.MaxIdleInterval = d
		case k == "connectionStateTtl" && ev.Kind != engine.EventActivity:
			ev.Details.ConnectionStateTTL = d
		case k == "at" && ev.Kind == engine.EventActivity:
			ev.LastActivity = scenarioEpoch.Add(d)
		default:
			return bad("unknown option " + k)
		}
	}
	return ev, nil
}

// idOf reads "<prefix><n>".
func idOf(w, prefix string) (uint64, bool) {
	if !strings.HasPrefix(w, prefix) {
		return 0, false
	}
	n, err := strconv.ParseUint(w[len(prefix):], 10, 64)
	return n, err == nil
}
