// Package parity runs the engine with PolicyWebSocketCheck on the event
// timelines of conformance/ably-js-parity/timelines.json, in virtual time
// with a fake network, and renders the same trace the Node driver there
// prints for the real ably-js ConnectionManager, so that a test can compare
// the two line by line.
//
// Both sides share one notion of virtual time: every callback is a task due
// at a whole millisecond; tasks due at the same millisecond run in the order
// they were scheduled (FIFO); the timeline's own events are scheduled first,
// so they run before anything else due at the same millisecond; and every
// random draw is 0 (jitter coefficient 1, fallback hosts in listed order).
package parity

import (
	"encoding/json"
	"fmt"
	"os"
)

// Primary is the default primary host; Rule.Host "primary" matches it and
// "fallback" every other host.
const Primary = "main.realtime.ably.net"

// Timelines is the document timelines.json holds.
type Timelines struct {
	Timelines []Timeline `json:"timelines"`
}

// Timeline is one run: what the network does, and what happens when.
type Timeline struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Transports are ably-js transport names ("web_socket", "comet"); empty
	// means both.
	Transports []string `json:"transports,omitempty"`
	// Network lists behaviour rules; the first that matches a request wins,
	// and no match means everything works (see Defaults).
	Network []Rule  `json:"network,omitempty"`
	Events  []Event `json:"events"`
	// Until is when the run stops, in ms; 0 means 300000.
	Until int64 `json:"until,omitempty"`
	// ConnectionStateTTL, in ms, is connectionStateTtl (the client option
	// and the CONNECTED message's connectionDetails); 0 means 120000.
	ConnectionStateTTL int64 `json:"connectionStateTtl,omitempty"`
	// ServerConnectionStateTTL, in ms, is the CONNECTED message's
	// connectionDetails.connectionStateTtl alone (RTN21), the client
	// option staying ConnectionStateTTL's; 0 means ConnectionStateTTL's.
	ServerConnectionStateTTL int64 `json:"serverConnectionStateTtl,omitempty"`
	// MaxIdleInterval, in ms, is the CONNECTED message's
	// connectionDetails.maxIdleInterval; 0 means none (no idle timer).
	// The fake server sends nothing after CONNECTED.
	MaxIdleInterval int64 `json:"maxIdleInterval,omitempty"`
	// Auth is the client's credentials: "key" (the default: an API key),
	// "token" (a token with no means of renewal) or "callback" (an
	// authCallback, whose renewals the "auth" rules answer). A timeline
	// with an "authorize" event must use "callback": the fake network has
	// no token endpoint for a key.
	Auth string `json:"auth,omitempty"`
}

// Rule says how the fake network answers one kind of request.
type Rule struct {
	// Transport is "ws", "http", "any" (ws and http), "wscheck" (the
	// websocket connectivity check), "connectivity" (the HTTP check) or
	// "auth" (a token renewal through the authCallback).
	Transport string `json:"transport"`
	// Host is "primary", "fallback", "any" or a host name; empty is any.
	Host string `json:"host,omitempty"`
	// From and Until bound, in ms, when a request must be made to match
	// (From ≤ t < Until); nil means unbounded.
	From  *int64 `json:"from,omitempty"`
	Until *int64 `json:"until,omitempty"`
	// Do is "connect" (opens, then sends CONNECTED), "open" (opens, never
	// sends CONNECTED), "disconnect" (opens, then sends DISCONNECTED with
	// Status and Code), "error" (opens, then sends ERROR with Status and
	// Code), "refuse", "blackhole", "status" (http only: the connect
	// request is answered with HTTP status Status, 403 by default, and a
	// body with no error code, as a proxy's error page); for connectivity
	// "up", "down" or
	// "blackhole" (no answer: the request times out after
	// httpRequestTimeout); for auth "up" (a new token), "down" (an error
	// with Status, 401 by default, and Code, 40170 by default) or
	// "blackhole" (no answer: realtimeRequestTimeout ends it).
	Do string `json:"do"`
	// After is when the answer comes, in ms after the request; nil means
	// 1 for refuse and down (auth's down: the default's), else the
	// default's. ConnectedAfter is how long after opening CONNECTED (or
	// DISCONNECTED, or ERROR) comes; nil means 10.
	After          *int64 `json:"after,omitempty"`
	ConnectedAfter *int64 `json:"connectedAfter,omitempty"`
	Status         int    `json:"status,omitempty"`
	// Code is the error's code for disconnect (80003 by default), error
	// (40000) and auth's down (40170).
	Code int `json:"code,omitempty"`
	// Error shapes the error of disconnect and error: "" (Status and
	// Code), "no-code" (a statusCode, Status, and no code) or "none" (no
	// error member at all). With "no-code" or "none" the server closes
	// the websocket cleanly right after the message, as the server does
	// after a DISCONNECTED or ERROR.
	Error string `json:"error,omitempty"`
}

// Event is one thing that happens at a time: "connect", "close",
// "restart" (close, then a new client with the same persisted storage
// connects), "drop" (the active transport drops), "server-disconnected"
// (the server sends DISCONNECTED with Status and Code, 80003 by default,
// on the active transport), "server-error" (the server sends a
// connection-wide ERROR with Status and Code, 40000 by default),
// "server-connected" (the server sends another CONNECTED whose
// connectionStateTtl is TTL, RTN24), "offline" and "online" (the OS
// network events; while offline every request fails after 1 ms) and
// "authorize" (Auth#authorize, RTC8: the authCallback is asked for a
// token, which the "auth" rules answer). Error shapes the error of
// server-disconnected and server-error as Rule.Error does.
type Event struct {
	At     int64  `json:"at"`
	Do     string `json:"do"`
	Status int    `json:"status,omitempty"`
	Code   int    `json:"code,omitempty"`
	TTL    int64  `json:"ttl,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Defaults are the answers without a matching rule: everything works.
var Defaults = map[string]Rule{
	"ws":           {Do: "connect", After: ms(20), ConnectedAfter: ms(10)},
	"http":         {Do: "connect", After: ms(20), ConnectedAfter: ms(10)},
	"connectivity": {Do: "up", After: ms(30)},
	"wscheck":      {Do: "connect", After: ms(25)},
	"auth":         {Do: "up", After: ms(50)},
}

func ms(v int64) *int64 { return &v }

// Load reads and checks a timelines document.
func Load(path string) (Timelines, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Timelines{}, err
	}
	return Parse(path, b)
}

// maxUntil bounds a timeline's length in virtual time (one hour), so that a
// run always ends.
const maxUntil = 3600000

// Parse decodes and checks a timelines document; name prefixes its errors.
func Parse(name string, b []byte) (Timelines, error) {
	var doc Timelines
	path := name
	if err := json.Unmarshal(b, &doc); err != nil {
		return doc, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for _, tl := range doc.Timelines {
		if tl.ID == "" || seen[tl.ID] {
			return doc, fmt.Errorf("%s: timeline id %q is empty or repeated", path, tl.ID)
		}
		seen[tl.ID] = true
		if tl.Until < 0 || tl.Until > maxUntil {
			return doc, fmt.Errorf("%s: timeline %s: until %d is not in [0, %d] ms", path, tl.ID, tl.Until, maxUntil)
		}
		for name, v := range map[string]int64{"connectionStateTtl": tl.ConnectionStateTTL,
			"serverConnectionStateTtl": tl.ServerConnectionStateTTL, "maxIdleInterval": tl.MaxIdleInterval} {
			if v < 0 || v > maxUntil {
				return doc, fmt.Errorf("%s: timeline %s: %s %d is not in [0, %d] ms", path, tl.ID, name, v, maxUntil)
			}
		}
		switch tl.Auth {
		case "", "key", "token", "callback":
		default:
			return doc, fmt.Errorf("%s: timeline %s: auth %q is not key, token or callback", path, tl.ID, tl.Auth)
		}
		for _, r := range tl.Network {
			if _, ok := Defaults[r.Transport]; !ok && r.Transport != "any" {
				return doc, fmt.Errorf("%s: timeline %s: rule transport %q is not ws, http, any, wscheck, connectivity or auth", path, tl.ID, r.Transport)
			}
			switch r.Do {
			case "connect", "open", "disconnect", "error", "refuse", "blackhole", "up", "down":
			case "status":
				if r.Transport != "http" {
					return doc, fmt.Errorf("%s: timeline %s: rule do status is for transport http only, not %q", path, tl.ID, r.Transport)
				}
			default:
				return doc, fmt.Errorf("%s: timeline %s: rule do %q is unknown", path, tl.ID, r.Do)
			}
			if err := checkErrorShape(r.Error); err != nil {
				return doc, fmt.Errorf("%s: timeline %s: rule %w", path, tl.ID, err)
			}
		}
		for _, e := range tl.Events {
			switch e.Do {
			case "connect", "close", "restart", "drop", "server-disconnected", "server-error", "server-connected", "offline", "online":
			case "authorize":
				if tl.Auth != "callback" {
					return doc, fmt.Errorf("%s: timeline %s: event authorize needs auth callback, not %q", path, tl.ID, tl.Auth)
				}
			default:
				return doc, fmt.Errorf("%s: timeline %s: event do %q is unknown", path, tl.ID, e.Do)
			}
			if err := checkErrorShape(e.Error); err != nil {
				return doc, fmt.Errorf("%s: timeline %s: event %w", path, tl.ID, err)
			}
		}
	}
	return doc, nil
}

// checkErrorShape checks a Rule.Error or Event.Error.
func checkErrorShape(v string) error {
	switch v {
	case "", "no-code", "none":
		return nil
	}
	return fmt.Errorf("error %q is not empty, no-code or none", v)
}

// rule returns how the network answers a request of kind to host at t.
func (tl *Timeline) rule(kind, host string, t int64, offline bool) Rule {
	if offline {
		if kind == "connectivity" || kind == "auth" {
			return Rule{Do: "down", After: ms(1)}
		}
		return Rule{Do: "refuse", After: ms(1)}
	}
	for _, r := range tl.Network {
		if r.Transport != kind && (r.Transport != "any" || (kind != "ws" && kind != "http")) {
			continue
		}
		switch r.Host {
		case "", "any":
		case "primary":
			if host != Primary {
				continue
			}
		case "fallback":
			if host == Primary {
				continue
			}
		default:
			if host != r.Host {
				continue
			}
		}
		if r.From != nil && t < *r.From || r.Until != nil && t >= *r.Until {
			continue
		}
		if r.After == nil {
			r.After = Defaults[kind].After
			if r.Do == "refuse" || r.Do == "down" && kind != "auth" {
				r.After = ms(1)
			}
		}
		if r.ConnectedAfter == nil {
			r.ConnectedAfter = ms(10)
		}
		return r
	}
	return Defaults[kind]
}
