// Package sim is a deterministic discrete-event simulator of reconnecting
// clients. Each simulated client is a real engine.Engine whose actions
// are performed against a simulated network described by a Profile; time is
// simulated, nothing sleeps, and no goroutine runs per client. The same seed
// gives byte-identical results.
//
// Two studies are built on it: Sweep, which measures how the short-circuit
// timeout and the transport policy change the time to CONNECTED and the
// transports wasted on each network profile; and Storm, which replays a
// server restart for up to a million clients and counts the connection
// attempts each retry-jitter strategy produces.
package sim

import (
	"bytes"
	"cmp"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
)

// Dist is a log-normal latency distribution in milliseconds: MedianMs is
// its median and Sigma the standard deviation of its logarithm; Sigma 0
// gives MedianMs every time.
type Dist struct {
	MedianMs float64 `json:"medianMs"`
	Sigma    float64 `json:"sigma"`
}

// sample draws one latency.
func (d Dist) sample(r *rand.Rand) time.Duration {
	ms := d.MedianMs
	if d.Sigma > 0 {
		ms *= math.Exp(d.Sigma * r.NormFloat64())
	}
	// Cap at a day so that a wild tail cannot overflow a Duration.
	return time.Duration(min(ms, 86_400_000) * float64(time.Millisecond))
}

// Path is how attempts of one transport kind to one class of host fare:
// with probability Reject the attempt is refused after RejectLatency, with
// probability Blackhole it never answers, otherwise it becomes viable after
// Connect and receives CONNECTED a quarter of that again later.
//
// Dial matters only to the adaptive short circuit: a blackholed websocket
// whose TCP (and TLS) connection comes up after Dial (a proxy that
// accepts the connection and swallows the upgrade) reports it; with Dial
// absent a blackholed websocket never does (the packets are lost). A
// websocket that connects reports its dial at a share of Connect drawn
// as three round trips (dialShare).
//
// Server, when set, is the server's own time to answer an attempt that
// connects, beyond the round trips of Connect (an accept loop under load,
// authentication before the upgrade's answer, a load balancer that
// terminates TCP and TLS in front of a busy server): the attempt is viable
// after Connect + Server, while a websocket's dial is still reported at
// its share of Connect, so a fast dial can meet a slow answer. Absent, it
// draws nothing, so profiles without it meet the same network as before.
type Path struct {
	Reject        float64 `json:"reject,omitempty"`
	Blackhole     float64 `json:"blackhole,omitempty"`
	Connect       Dist    `json:"connect"`
	RejectLatency Dist    `json:"rejectLatency"`
	Dial          Dist    `json:"dial,omitzero"`
	Server        Dist    `json:"server,omitzero"`
}

// HostClass is the behaviour of both transports to one class of host.
type HostClass struct {
	WebSocket Path `json:"webSocket"`
	HTTP      Path `json:"http"`
}

// Check is how a check (connectivity or websocket) answers: up (or pass)
// with probability Up, no answer at all with probability Hang, otherwise
// down; after Latency.
type Check struct {
	Up      float64 `json:"up,omitempty"`
	Pass    float64 `json:"pass,omitempty"`
	Hang    float64 `json:"hang,omitempty"`
	Latency Dist    `json:"latency"`
}

// Flap makes the network go down for DownMs out of every PeriodMs, at a
// phase drawn per client. While it is down every attempt is unreachable and
// the connectivity check fails.
type Flap struct {
	PeriodMs float64 `json:"periodMs"`
	DownMs   float64 `json:"downMs"`
}

// Profile is a simulated network: how the primary and the fallback hosts
// answer each transport, and how the two checks answer.
type Profile struct {
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Primary        HostClass `json:"primary"`
	Fallback       HostClass `json:"fallback"`
	Connectivity   Check     `json:"connectivity"`
	WebSocketCheck Check     `json:"webSocketCheck"`
	Flap           *Flap     `json:"flap,omitempty"`
	// WebSocketLifetime, if set, is how long an activated websocket lives
	// before the network kills it (a proxy that passes the handshake, then
	// drops the connection). Only FlapStudy, whose clients outlive
	// CONNECTED, uses it.
	WebSocketLifetime *Dist `json:"webSocketLifetime,omitempty"`
}

type profileFile struct {
	Comment  string    `json:"_comment,omitempty"`
	Profiles []Profile `json:"profiles"`
}

//go:embed profiles.json
var builtinJSON []byte

// Builtin returns the built-in profiles: healthy, slow-mobile,
// proxy-rejects-websocket, proxy-blackholes-websocket, primary-down,
// offline, flapping and flapping-websocket.
func Builtin() []Profile {
	return slices.Clone(builtinProfiles())
}

var builtinProfiles = sync.OnceValue(func() []Profile {
	ps, err := ParseProfiles(builtinJSON)
	if err != nil {
		panic("sim: built-in profiles: " + err.Error()) // a build defect, caught by the tests
	}
	return ps
})

// ParseProfiles reads a profile file: {"profiles": [ … ]}, each profile as
// in profiles.json. It is strict: a key that is unknown or differs from the
// documented one in case, anything after the top-level object, a missing or
// duplicate name or one outside [a-z0-9-] (at most 64 characters), a
// probability outside [0, 1] (or Reject + Blackhole above 1), a negative or
// non-finite latency, or a flap whose down time is not shorter than its
// period are errors naming the profile and field.
func ParseProfiles(data []byte) ([]Profile, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f profileFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("profile file: %s: %w", where(data, errorOffset(err, data, dec.InputOffset())), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("profile file: data after the top-level object at byte %d; want one JSON object", dec.InputOffset())
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, fmt.Errorf("profile file: %w", err)
	}
	if err := exactKeys(tree, reflect.TypeFor[profileFile](), ""); err != nil {
		return nil, fmt.Errorf("profile file: %w", err)
	}
	if len(f.Profiles) == 0 {
		return nil, errors.New("profile file: no profiles")
	}
	seen := map[string]bool{}
	for _, p := range f.Profiles {
		if p.Name == "" {
			return nil, errors.New("profile file: a profile has no name")
		}
		if !validName(p.Name) {
			return nil, fmt.Errorf("profile file: profile name %q: want 1 to 64 of a-z, 0-9 and -", p.Name)
		}
		if seen[p.Name] {
			return nil, fmt.Errorf("profile file: profile %q is defined twice", p.Name)
		}
		seen[p.Name] = true
		if err := p.validate(); err != nil {
			return nil, fmt.Errorf("profile %q: %w", p.Name, err)
		}
	}
	return f.Profiles, nil
}

// errorOffset returns the byte offset in data that a JSON decoding error
// names: a syntax or type error's own offset, an unknown field's key
// (found backwards from at, where the decoder stopped), or at.
func errorOffset(err error, data []byte, at int64) int64 {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return syntax.Offset - 1 // the offset is after the offending byte
	case errors.As(err, &typ):
		return typ.Offset
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if i := bytes.LastIndex(data[:max(0, min(at, int64(len(data))))], []byte(name)); i >= 0 {
			return int64(i)
		}
	}
	return at
}

// where renders byte offset off of data as "line L, column C", both
// counted from 1, the column in bytes.
func where(data []byte, off int64) string {
	off = max(0, min(off, int64(len(data))))
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}

// validName reports whether name is 1 to 64 characters of [a-z0-9-], so
// that --profiles and --mix can name it.
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// exactKeys checks that every object key in the decoded JSON value v is a
// field name of type t spelled exactly (encoding/json alone matches keys
// in any case).
func exactKeys(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil // a type mismatch, which the decoder reports
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			fields[name] = t.Field(i).Type
		}
		for k, sub := range obj {
			ft, ok := fields[k]
			if !ok {
				return fmt.Errorf("unknown key %q in %s", k, cmp.Or(path, "the top level"))
			}
			if err := exactKeys(sub, ft, strings.TrimPrefix(path+"."+k, ".")); err != nil {
				return err
			}
		}
	case reflect.Slice:
		arr, _ := v.([]any)
		for i, sub := range arr {
			if err := exactKeys(sub, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Merge adds extra to builtin. A profile named like a built-in one
// replaces it only when replace is set; otherwise that is an error.
func Merge(builtin, extra []Profile, replace bool) ([]Profile, error) {
	all := slices.Clone(builtin)
	index := make(map[string]int, len(builtin)+len(extra))
	for i, p := range all {
		index[p.Name] = i
	}
	for _, p := range extra {
		i, ok := index[p.Name]
		switch {
		case !ok:
			index[p.Name] = len(all)
			all = append(all, p)
		case replace:
			all[i] = p
		default:
			return nil, fmt.Errorf("profile %q is a built-in one; rename it, or pass --replace to replace the built-in", p.Name)
		}
	}
	return all, nil
}

func (p Profile) validate() error {
	prob := func(field string, v float64) error {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("%s = %v: a probability must be in [0, 1]", field, v)
		}
		return nil
	}
	dist := func(field string, d Dist) error {
		if !(d.MedianMs >= 0 && d.MedianMs < 1e9) || !(d.Sigma >= 0 && d.Sigma <= 10) {
			return fmt.Errorf("%s = %+v: medianMs must be in [0, 1e9) and sigma in [0, 10]", field, d)
		}
		return nil
	}
	var errs []error
	for _, hc := range []struct {
		name string
		h    HostClass
	}{{"primary", p.Primary}, {"fallback", p.Fallback}} {
		for _, pa := range []struct {
			name string
			p    Path
		}{{"webSocket", hc.h.WebSocket}, {"http", hc.h.HTTP}} {
			f := hc.name + "." + pa.name
			errs = append(errs, prob(f+".reject", pa.p.Reject), prob(f+".blackhole", pa.p.Blackhole),
				dist(f+".connect", pa.p.Connect), dist(f+".rejectLatency", pa.p.RejectLatency), dist(f+".dial", pa.p.Dial),
				dist(f+".server", pa.p.Server))
			if pa.p.Reject+pa.p.Blackhole > 1 {
				errs = append(errs, fmt.Errorf("%s: reject + blackhole = %v exceeds 1", f, pa.p.Reject+pa.p.Blackhole))
			}
		}
	}
	for _, c := range []struct {
		name string
		c    Check
	}{{"connectivity", p.Connectivity}, {"webSocketCheck", p.WebSocketCheck}} {
		errs = append(errs, prob(c.name+".up", c.c.Up), prob(c.name+".pass", c.c.Pass), prob(c.name+".hang", c.c.Hang),
			dist(c.name+".latency", c.c.Latency))
		if c.c.Up+c.c.Pass+c.c.Hang > 1 {
			errs = append(errs, fmt.Errorf("%s: the probabilities add up to more than 1", c.name))
		}
	}
	if lt := p.WebSocketLifetime; lt != nil {
		errs = append(errs, dist("webSocketLifetime", *lt))
	}
	if fl := p.Flap; fl != nil && !(fl.PeriodMs >= 1 && fl.DownMs >= 0 && fl.DownMs < fl.PeriodMs && fl.PeriodMs < 1e9) {
		errs = append(errs, fmt.Errorf("flap = %+v: need 0 ≤ downMs < periodMs, 1 ≤ periodMs < 1e9", *fl))
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Select returns the profiles named, in the order named, from among ps, or
// an error naming the first unknown one.
func Select(ps []Profile, names []string) ([]Profile, error) {
	index := make(map[string]int, len(ps))
	for i, p := range ps {
		if _, dup := index[p.Name]; !dup {
			index[p.Name] = i
		}
	}
	var out []Profile
	for _, n := range names {
		i, ok := index[n]
		if !ok {
			known := make([]string, len(ps))
			for j, p := range ps {
				known[j] = p.Name
			}
			return nil, fmt.Errorf("unknown profile %q; want one of %s", n, strings.Join(known, ", "))
		}
		out = append(out, ps[i])
	}
	return out, nil
}
