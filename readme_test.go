package reconnect

import (
	"context"
	"encoding/json"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/internal/fixturetest"
)

// renderPendingGrid renders the setTransportPending table as a Markdown grid:
// one row per kind of candidate (the three non-upgrade modes behave alike,
// which the test checks), one column per (pending, active) pair.
func renderPendingGrid(t *testing.T) string {
	tab := PendingTable()
	cell := func(c Transport, m Mode, p, a Transport) string {
		r := tab[pendingIndex(c, m, p, a)]
		s := fmt.Sprintf("%s (%d)", r.Decision, r.Rule)
		if !r.Reachable {
			s = "_" + s + "_"
		}
		return s
	}
	var b strings.Builder
	b.WriteString("| candidate ↓ · pending, active → |")
	for p := range Transport(numTransports) {
		for a := range Transport(numTransports) {
			fmt.Fprintf(&b, " %v, %v |", p, a)
		}
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", numTransports*numTransports) + "\n")
	rows := []struct {
		name  string
		c     Transport
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
		for p := range Transport(numTransports) {
			for a := range Transport(numTransports) {
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

// checkREADMESection compares the README text between the markers
// <!-- name:begin --> and <!-- name:end --> with want, or rewrites it under
// -update.
func checkREADMESection(t *testing.T, name, want string) {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	begin, end := "<!-- "+name+":begin -->\n", "<!-- "+name+":end -->"
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the %s markers", name)
	}
	got := s[i+len(begin) : j]
	if got == want {
		return
	}
	if *fixturetest.Update {
		if err := os.WriteFile("README.md", []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md section %s is out of date; run go test -run README -update", name)
}

func TestREADMEShowsThePendingTable(t *testing.T) {
	checkREADMESection(t, "pending-table", renderPendingGrid(t))
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

func TestREADMEShowsTheQualifyingFailureTable(t *testing.T) {
	checkREADMESection(t, "fallback-table", renderFallbackTable())
}

// readmeGoBlocks returns the body of every ```go block of README.md.
func readmeGoBlocks(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	rest := string(data)
	for {
		i := strings.Index(rest, "\n```go\n")
		if i < 0 {
			break
		}
		rest = rest[i+len("\n```go\n"):]
		j := strings.Index(rest, "\n```\n")
		if j < 0 {
			t.Fatal("README.md: a ```go block is not closed")
		}
		blocks = append(blocks, rest[:j+1])
		rest = rest[j:]
	}
	return blocks
}

// TestREADMEGoBlocksAreWholeFilesThatBuild checks that every Go block of
// README.md is a whole, gofmt-formatted file with a package clause and
// imports, and that it builds and passes go vet against this module (the
// blocks that import github.com/cenkalti/backoff build in the bench
// module, which requires it).
func TestREADMEGoBlocksAreWholeFilesThatBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every block with the go command")
	}
	blocks := readmeGoBlocks(t)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go block")
	}
	dirs := map[string]string{}   // module directory → temporary directory of its blocks
	pkgs := map[string][]string{} // module directory → the blocks' packages, relative to it
	for i, b := range blocks {
		f, err := parser.ParseFile(token.NewFileSet(), "block.go", b, parser.ImportsOnly)
		if err != nil {
			t.Errorf("block %d is not a whole Go file: %v\n%s", i+1, err, b)
			continue
		}
		if formatted, err := format.Source([]byte(b)); err != nil || string(formatted) != b {
			t.Errorf("block %d is not gofmt-formatted:\n%s", i+1, b)
		}
		mod := "."
		for _, im := range f.Imports {
			if strings.Contains(im.Path.Value, "github.com/cenkalti/backoff") {
				mod = "bench"
			}
		}
		if dirs[mod] == "" {
			// A leading "_" keeps the directory out of ./... patterns.
			d, err := os.MkdirTemp(mod, "_readme")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(d) })
			dirs[mod] = d
		}
		dir := filepath.Join(dirs[mod], fmt.Sprintf("block%d", i+1))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "block.go"), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(mod, dir)
		pkgs[mod] = append(pkgs[mod], "./"+filepath.ToSlash(rel))
	}
	for mod, list := range pkgs {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, "go", append([]string{"vet"}, list...)...)
		cmd.Dir = mod
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("go vet of the README blocks in module %s: %v\n%s", mod, err, out)
		}
	}
}

// TestREADMECountsTheScenarios keeps the README's count of scenario
// timelines equal to the fixture's.
func TestREADMECountsTheScenarios(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`fixtures/scenarios.json` holds ([0-9]+) timelines").FindSubmatch(data)
	if m == nil {
		t.Fatal("README.md no longer says how many timelines fixtures/scenarios.json holds")
	}
	raw, err := os.ReadFile("fixtures/scenarios.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if got, want := string(m[1]), strconv.Itoa(len(f.Items)); got != want {
		t.Errorf("README.md says fixtures/scenarios.json holds %s timelines; it holds %s: update the number in README.md's engine section", got, want)
	}
}
