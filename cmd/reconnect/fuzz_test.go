package main

import (
	"strings"
	"testing"
)

// FuzzScheduleArgs runs schedule with two arbitrary arguments: it never
// panics, succeeds with nothing on stderr, or fails with status 2, nothing
// on stdout and one line on stderr.
func FuzzScheduleArgs(f *testing.F) {
	for _, seed := range [][2]string{
		{"--initial", "15"}, {"--attempts", "x"}, {"--seed", "-1"}, {"--json=maybe", ""},
		{"--initial=1ns", "--json"}, {"-h", ""}, {"--bogus", "1"}, {"--attempts", "99999999999999999999"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		args := []string{"schedule", a, b}
		out, errOut, status := runCLI(args...)
		switch status {
		case 0:
			if errOut != "" {
				t.Fatalf("%q: status 0 with stderr %q", args, errOut)
			}
		case 2:
			if out != "" || strings.Count(errOut, "\n") != 1 {
				t.Fatalf("%q: status 2, stdout %q, stderr %q; want nothing and one line", args, out, errOut)
			}
		default:
			t.Fatalf("%q: status %d", args, status)
		}
	})
}
