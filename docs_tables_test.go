package reconnect

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/reconnect-go/reconnect/internal/fixturetest"
)

// renderPendingGrid renders the setTransportPending table as a Markdown grid:
// one row per kind of candidate (the three non-upgrade modes behave alike,
// which the test checks), one column per (pending, active) pair.
func renderPendingGrid(t *testing.T) string {
	tab := PendingTable()
	cell := func(c TransportKind, m Mode, p, a TransportKind) string {
		r := tab[pendingIndex(c, m, p, a)]
		s := fmt.Sprintf("%s (%d)", r.Decision, r.Rule)
		if !r.Reachable {
			s = "_" + s + "_"
		}
		return s
	}
	var b strings.Builder
	b.WriteString("| candidate ↓ · pending, active → |")
	for p := range TransportKind(numTransports) {
		for a := range TransportKind(numTransports) {
			fmt.Fprintf(&b, " %v, %v |", p, a)
		}
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", numTransports*numTransports) + "\n")
	rows := []struct {
		name  string
		c     TransportKind
		modes []Mode
	}{
		{"websocket (clean, resume, recover)", WebSocket, []Mode{ModeClean, ModeResume, ModeRecover}},
		{"websocket (upgrade)", WebSocket, []Mode{ModeUpgrade}},
		{"http (clean, resume, recover)", HTTP, []Mode{ModeClean, ModeResume, ModeRecover}},
		{"http (upgrade)", HTTP, []Mode{ModeUpgrade}},
		{"none (any mode)", NoTransport, []Mode{ModeClean, ModeResume, ModeRecover, ModeUpgrade}},
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s |", r.name)
		for p := range TransportKind(numTransports) {
			for a := range TransportKind(numTransports) {
				first := cell(r.c, r.modes[0], p, a)
				for _, m := range r.modes[1:] {
					if cell(r.c, m, p, a) != first {
						t.Fatalf("modes %v and %v of %v differ at (%v, %v)", r.modes[0], m, r.c, p, a)
					}
				}
				fmt.Fprintf(&b, " %s |", first)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// checkDocSection compares the text of the Markdown file path between the
// markers <!-- name:begin --> and <!-- name:end --> with want, or rewrites
// it under -update.
func checkDocSection(t *testing.T, path, name, want string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %s markers", path, name)
	}
	got := s[i+len(begin) : j]
	if got == want {
		return
	}
	if *fixturetest.Update {
		if err := os.WriteFile(path, []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s section %s is out of date; run go test -run Docs -update", path, name)
}

func TestDocsShowThePendingTable(t *testing.T) {
	checkDocSection(t, "docs/transport.md", "pending-table", renderPendingGrid(t))
}

// renderFallbackTable renders the qualifying-failure table from the data
// ShouldFallback reads.
func renderFallbackTable() string {
	when := map[fallbackWhen]string{
		never: "never", always: "always", status500to504: "status 500–504",
		status5xxOrCloud: "status 500–504, or `Server: CloudFront` with status ≥ 400",
	}
	var b strings.Builder
	b.WriteString("| failure (`FailureKind`) | moves to a fallback host | spec |\n|---|---|---|\n")
	for k := range numFailureKinds {
		r := fallbackTable[k]
		fmt.Fprintf(&b, "| %s | %s | %s |\n", r.name, when[r.when], r.spec)
	}
	return b.String()
}

func TestDocsShowTheQualifyingFailureTable(t *testing.T) {
	checkDocSection(t, "docs/hosts.md", "fallback-table", renderFallbackTable())
}
