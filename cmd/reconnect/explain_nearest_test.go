package main

import (
	"slices"
	"strings"
	"testing"
)

var someIDs = []string{"connect-timeout", "close-from-connected", "close-from-connecting", "close-from-connected-times-out",
	"network-down-then-up", "storm-safe-retry-spread", "storm-safe-reconnect-window", "fallback-not-for-a-4xx"}

func TestNearestIDs(t *testing.T) {
	for _, c := range []struct {
		id   string
		want []string
	}{
		{"NOPE", nil},
		{"", nil},
		{"x", nil},
		{"conect-timeout", []string{"connect-timeout"}},                                                                                   // one edit
		{"CONNECT-TIMEOUT", []string{"connect-timeout"}},                                                                                  // case
		{"close-from-conected", []string{"close-from-connected", "close-from-connecting", "close-from-connected-times-out"}},              // edits, nearest first, then a shared prefix
		{"close-from", []string{"close-from-connected", "close-from-connecting", "close-from-connected-times-out"}},                       // begins them, shortest first
		{"storm", []string{"storm-safe-retry-spread", "storm-safe-reconnect-window"}},                                                     // begins them
		{"reconnect-window", []string{"storm-safe-reconnect-window"}},                                                                     // within
		{"network-down-then-down", []string{"network-down-then-up"}},                                                                      // a long shared prefix
		{"close-from-connected-times-out-x", []string{"close-from-connected-times-out", "close-from-connected", "close-from-connecting"}}, // an edit, then shared prefixes, longest first
		{"fallback-not-for-a-5xx", []string{"fallback-not-for-a-4xx"}},
	} {
		got := nearestIDs(c.id, someIDs, maxSuggestions)
		if !slices.Equal(got, c.want) {
			t.Errorf("nearestIDs(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"conect", "connect", 1}, {"ab", "ba", 2},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// FuzzNearestIDs: any id gives at most maxSuggestions ids, each once, each
// one of the ids; an id that is one of them (in any case) comes first.
func FuzzNearestIDs(f *testing.F) {
	f.Add("NOPE")
	f.Add("close-from-conected")
	f.Add(strings.Repeat("é", 300))
	f.Fuzz(func(t *testing.T, id string) {
		got := nearestIDs(id, someIDs, maxSuggestions)
		if len(got) > maxSuggestions {
			t.Fatalf("%d suggestions", len(got))
		}
		seen := map[string]bool{}
		for _, x := range got {
			if seen[x] || !slices.Contains(someIDs, x) {
				t.Fatalf("nearestIDs(%q) = %q", id, got)
			}
			seen[x] = true
		}
		if i := slices.IndexFunc(someIDs, func(x string) bool { return strings.EqualFold(x, id) }); i >= 0 && (len(got) == 0 || !strings.EqualFold(got[0], id)) {
			t.Fatalf("nearestIDs(%q) = %q: the id itself is not first", id, got)
		}
		if msg := unknownScenario(id, someIDs); !strings.Contains(msg, "'reconnect explain --list' prints all 8") {
			t.Fatalf("unknownScenario(%q) = %q", id, msg)
		}
	})
}
