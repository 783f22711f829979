// Package fixturetest holds what the fixture oracles of the root package
// and of the engine share: the -update flag, golden-file comparison and the
// number formats of the JSON fixtures. Only tests import it.
package fixturetest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Update rewrites the committed fixture files from their oracles:
//
//	go test -run Fixture . ./engine -args -update
var Update = flag.Bool("update", false, "rewrite fixtures/*.json from the oracles")

// CheckGolden compares the committed fixture file at path with want, the bytes
// the oracle produces now, or rewrites it under -update.
func CheckGolden(t *testing.T, path string, want any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(want); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	committed, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Fixture . ./engine -args -update to create it)", err)
	}
	if !bytes.Equal(committed, got) {
		t.Errorf("%s differs from what its oracle produces; regenerate it with go test -run Fixture . ./engine -args -update and review the diff", path)
	}
}

// Load decodes the committed fixture file at path into v, rejecting unknown
// fields so that the file and the test structs cannot drift apart.
func Load(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// Items returns the items array of the fixture file at path, each item
// undecoded, in the file's order; the file's other top-level fields are
// not read.
func Items(t *testing.T, path string) []json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f.Items
}

// MsFromNs writes an integer number of nanoseconds as an exact decimal
// number of milliseconds, without trailing zeros.
func MsFromNs(ns int64) json.Number {
	neg := ns < 0
	u := uint64(ns)
	if neg {
		u = uint64(-ns)
	}
	s := fmt.Sprintf("%d.%06d", u/1e6, u%1e6)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if neg {
		s = "-" + s
	}
	return json.Number(s)
}

// NsFromMs parses an exact decimal number of milliseconds with at most six
// decimals back into nanoseconds.
func NsFromMs(t *testing.T, ms json.Number) time.Duration {
	t.Helper()
	s := string(ms)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 6 {
		t.Fatalf("%s ms is finer than a nanosecond", ms)
	}
	frac += strings.Repeat("0", 6-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || w > (math.MaxInt64-f)/1e6 {
		t.Fatalf("bad millisecond value %s", ms)
	}
	ns := w*1e6 + f
	if neg {
		ns = -ns
	}
	return time.Duration(ns)
}

// FloatNumber writes a float64 as the shortest JSON number that parses back
// to it; NaN and the infinities, which JSON lacks, become the strings "NaN",
// "Infinity" and "-Infinity".
func FloatNumber(f float64) json.RawMessage {
	switch {
	case math.IsNaN(f):
		return json.RawMessage(`"NaN"`)
	case math.IsInf(f, 1):
		return json.RawMessage(`"Infinity"`)
	case math.IsInf(f, -1):
		return json.RawMessage(`"-Infinity"`)
	}
	return json.RawMessage(strconv.FormatFloat(f, 'g', -1, 64))
}

// ParseFloatNumber reverses FloatNumber.
func ParseFloatNumber(t *testing.T, raw json.RawMessage) float64 {
	t.Helper()
	switch string(raw) {
	case `"NaN"`:
		return math.NaN()
	case `"Infinity"`:
		return math.Inf(1)
	case `"-Infinity"`:
		return math.Inf(-1)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		t.Fatalf("bad number %s: %v", raw, err)
	}
	return f
}
