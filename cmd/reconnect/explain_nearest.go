package main

import (
	"fmt"
	"slices"
	"strings"
)

// maxSuggestions is how many scenario ids an unknown id is answered with.
const maxSuggestions = 5

// unknownScenario is the message for a scenario id that is not in ids:
// the nearest ids (see nearestIDs), or that none is close, and how to list
// them all.
func unknownScenario(id string, ids []string) string {
	all := fmt.Sprintf("'reconnect explain --list' prints all %d", len(ids))
	near := nearestIDs(id, ids, maxSuggestions)
	if len(near) == 0 {
		return fmt.Sprintf("no scenario %q, and no id is close to it; %s", id, all)
	}
	return fmt.Sprintf("no scenario %q; the nearest: %s (%s)", id, strings.Join(near, ", "), all)
}

// nearestIDs returns at most max of ids that are near id, nearest first,
// compared in lower case: the ids that id begins (at least 3 bytes of
// it), then those within a few edits of it (Levenshtein distance at most
// 2, or a quarter of id's length), then those that contain it (at least
// 4 bytes), then those that share a prefix of at least 5 bytes and half
// of id. Ties keep the order of ids.
func nearestIDs(id string, ids []string, max int) []string {
	q := strings.ToLower(id)
	if len(q) > 200 { // no id is that long; keep the distances cheap
		q = q[:200]
	}
	type near struct {
		class, key, i int
	}
	var found []near
	for i, x := range ids {
		x = strings.ToLower(x)
		d := editDistance(q, x)
		cp := commonPrefix(q, x)
		switch {
		case len(q) >= 3 && strings.HasPrefix(x, q):
			found = append(found, near{0, len(x), i})
		case d <= max2(2, len(q)/4):
			found = append(found, near{1, d, i})
		case len(q) >= 4 && strings.Contains(x, q):
			found = append(found, near{2, len(x), i})
		case cp >= 5 && 2*cp >= len(q):
			found = append(found, near{3, -cp, i})
		}
	}
	slices.SortFunc(found, func(a, b near) int {
		if a.class != b.class {
			return a.class - b.class
		}
		if a.key != b.key {
			return a.key - b.key
		}
		return a.i - b.i
	})
	var out []string
	for _, f := range found[:min(len(found), max)] {
		out = append(out, ids[f.i])
	}
	return out
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
