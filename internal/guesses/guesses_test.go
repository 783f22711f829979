package guesses

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/fixtures"
	"github.com/reconnect-go/reconnect/internal/conform"
	"github.com/reconnect-go/reconnect/internal/exhaustive"
)

// root is the repository's root, from this package's folder.
const root = "../.."

// listPath is the list of guesses.
var listPath = filepath.Join(root, "conformance", "guesses.json")

// references are the files a flip may edit, in conformance/js.
var references = []string{"engine.mjs", "adapter.mjs"}

// docs are the documents a rule may quote.
var docs = []string{"docs/engine.md", "docs/hosts.md", "fixtures/README.md"}

// unobservableSection is the heading of the section of docs/engine.md that
// declares every guess no case can see.
const unobservableSection = "### Guesses no case can see"

func load(t *testing.T) []Guess {
	t.Helper()
	f, err := Load(listPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Guesses) == 0 {
		t.Fatal("no guesses")
	}
	return f.Guesses
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func suite(t *testing.T) conform.Suite {
	t.Helper()
	s, err := conform.LoadSuite(fixtures.FS)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// section returns the text of doc from the heading to the next heading of
// the same level or above.
func section(doc, heading string) string {
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		return ""
	}
	rest := doc[i+len(heading)+2:]
	level := strings.Count(strings.Fields(heading)[0], "#")
	for _, l := range strings.SplitAfter(rest, "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.Trim(f[0], "#") == "" && len(f[0]) <= level {
			return rest[:strings.Index(rest, l)]
		}
	}
	return rest
}

// TestGuessesFile checks the list without running anything: every guess
// has a rule its document states, and either a flip that applies to the
// reference with pins that are fixture cases (scenarios for the engine),
// or a reason no case can see it that docs/engine.md declares.
func TestGuessesFile(t *testing.T) {
	gs := load(t)
	text := map[string]string{}
	for _, d := range docs {
		text[d] = Squash(read(t, d))
	}
	refs := map[string]string{}
	for _, r := range references {
		refs[r] = read(t, filepath.Join("conformance", "js", r))
	}
	cases := map[string]string{} // case ID → area
	for _, c := range suite(t).Cases {
		cases[c.ID] = c.Area
	}
	declared := section(read(t, "docs/engine.md"), unobservableSection)
	if declared == "" {
		t.Fatalf("docs/engine.md has no section %q", unobservableSection)
	}
	ids := map[string]bool{}
	for _, g := range gs {
		switch {
		case g.ID == "" || strings.ContainsAny(g.ID, " `"):
			t.Errorf("guess %q: want an ID of one word", g.ID)
		case ids[g.ID]:
			t.Errorf("%s: listed twice", g.ID)
		}
		ids[g.ID] = true
		if len(g.Sources) == 0 || g.Guess == "" {
			t.Errorf("%s: no sources or no question", g.ID)
		}
		if doc, ok := text[g.Rule.Doc]; !ok {
			t.Errorf("%s: rule in %q, want one of %v", g.ID, g.Rule.Doc, docs)
		} else if q := Squash(g.Rule.Quote); q == "" || !strings.Contains(doc, q) {
			t.Errorf("%s: %s does not say %q", g.ID, g.Rule.Doc, g.Rule.Quote)
		}
		if (g.Unobservable == "") == (len(g.Pins) == 0) {
			t.Errorf("%s: want either pins or a reason it is unobservable, not both or neither", g.ID)
		}
		if g.Unobservable != "" {
			if len(g.Flip) != 0 || g.File != "" {
				t.Errorf("%s: unobservable, yet it has a flip", g.ID)
			}
			if !strings.Contains(declared, "`"+g.ID+"`") {
				t.Errorf("%s: unobservable, but docs/engine.md's %q does not declare it", g.ID, unobservableSection)
			}
			continue
		}
		ref, ok := refs[g.File]
		if !ok || len(g.Flip) == 0 || g.Flipped == "" {
			t.Errorf("%s: want a flip of one of %v and what it does", g.ID, references)
			continue
		}
		if _, err := g.Apply(ref); err != nil {
			t.Error(err)
		}
		for _, p := range g.Pins {
			switch area, ok := cases[p]; {
			case !ok:
				t.Errorf("%s: pin %s is no fixture case", g.ID, p)
			case g.File == "engine.mjs" && area != conform.AreaScenarios:
				t.Errorf("%s: pin %s is a case of %s, not a scenario", g.ID, p, area)
			}
		}
	}
	// Every unobservable guess the section declares is in the list.
	for _, m := range regexp.MustCompile("\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(declared, -1) {
		if !ids[m[1]] {
			t.Errorf("docs/engine.md declares %s unobservable; conformance/guesses.json does not list it", m[1])
		}
	}
}

// portItems are the items of the ports' guess files, each as a source
// names it: the file and the item's label.
var portItems = []struct {
	file string
	item *regexp.Regexp // its first group is the label
}{
	{"conformance/js/ENGINE-GUESSES.md", regexp.MustCompile(`(?m)^\*\*(G[0-9]+)\. `)},
	{"conformance/python/ENGINE-GUESSES.md", regexp.MustCompile(`(?m)^\*\*([A-D][0-9]+)\. `)},
	{"conformance/python/GUESSES.md", regexp.MustCompile(`(?m)^### ([A-C][0-9]+)\. `)},
	{"conformance/rust/ENGINE-GUESSES.md", regexp.MustCompile(`(?m)^([0-9]+)\. `)},
}

// TestGuessesCoverThePorts checks that every guess the JS, Python and Rust
// ports wrote down is in the list: each item of their guess files (the numbered
// silences of GUESSES.md section D and its section E included) is named
// by a guess's sources.
func TestGuessesCoverThePorts(t *testing.T) {
	named := map[string]bool{}
	for _, g := range load(t) {
		for _, s := range g.Sources {
			named[s] = true
		}
	}
	for _, p := range portItems {
		doc := read(t, p.file)
		var items []string
		for _, m := range p.item.FindAllStringSubmatch(doc, -1) {
			items = append(items, m[1])
		}
		if strings.HasSuffix(p.file, "python/GUESSES.md") {
			d := section(doc, "## D. Silences where the guess agreed with the Go implementation (probed, not in the fixtures)")
			for _, m := range regexp.MustCompile(`(?m)^([0-9]+)\. \*\*`).FindAllStringSubmatch(d, -1) {
				items = append(items, "D"+m[1])
			}
			if strings.Contains(doc, "\n## E. ") {
				items = append(items, "E")
			}
		}
		if len(items) == 0 {
			t.Errorf("%s: no items found", p.file)
		}
		for _, it := range items {
			if !named[p.file+" "+it] {
				t.Errorf("%s %s: no guess in conformance/guesses.json names it", p.file, it)
			}
		}
	}
}

// TestGuessesPinned runs the reference with each guess flipped over that
// guess's pins, one subtest per guess named by its ID, each in its own
// process and folder, so a broken flip fails that guess alone: every pin
// must be a fixture case and must fail (a pin that passes no longer pins
// the guess), and the unflipped reference (the subtest "reference") must
// run and pass them all. With GUESSES_DISCOVER set it also runs each flip
// over its whole area and logs every case that fails. It needs node (a
// skip without it, a failure in CI) and starts one process per guess, so
// -short skips it.
//
// The default mode (go test ./... without RECONNECT_EXHAUSTIVE=1, see
// internal/exhaustive) runs one flipped guess in guessSample, the first
// of each group of guessSample in the file's order, and the reference; it
// checks every guess's pins and flip without running them.
func TestGuessesPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("starts one adapter process per guess")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no node: %v", err)
		}
		t.Skip("no node")
	}
	gs := slices.DeleteFunc(load(t), func(g Guess) bool { return len(g.Flip) == 0 })
	s := suite(t)
	cases := map[string]bool{}
	for _, c := range s.Cases {
		cases[c.ID] = true
	}
	refs := map[string]string{}
	for _, r := range references {
		refs[r] = read(t, filepath.Join("conformance", "js", r))
	}
	discover := os.Getenv("GUESSES_DISCOVER") != ""
	// only keeps the cases ids names, and with GUESSES_DISCOVER every
	// case the reference file can change: the scenarios for the engine,
	// the other areas for the adapter's functions.
	only := func(ids []string, file string) conform.Suite {
		out := conform.Suite{Tolerance: s.Tolerance}
		for _, c := range s.Cases {
			whole := discover && file != "" && (file == "engine.mjs") == (c.Area == conform.AreaScenarios)
			if whole || slices.Contains(ids, c.ID) {
				out.Cases = append(out.Cases, c)
			}
		}
		return out
	}
	// run writes files (the reference's, with replace in place of its
	// own) to a folder of t's and runs them over suite: the IDs of the
	// cases that failed, how many passed, and how the run broke or
	// stopped if it did.
	run := func(t *testing.T, replace map[string]string, suite conform.Suite) (failed map[string]bool, passed int, broken string) {
		t.Helper()
		dir := t.TempDir()
		for _, name := range references {
			content, ok := replace[name]
			if !ok {
				content = refs[name]
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		rep, err := conform.RunCommand(context.Background(), suite, []string{node, filepath.Join(dir, "adapter.mjs")}, conform.Options{Timeout: 60 * time.Second})
		failed = map[string]bool{}
		for _, f := range rep.Failures {
			failed[f.ID] = true
		}
		switch {
		case err != nil:
			broken = err.Error()
		case rep.Broken != "":
			broken = rep.Broken
		case rep.Stopped != "":
			broken = "stopped: " + rep.Stopped
		}
		return failed, rep.Passed, broken
	}

	var all []string
	for _, g := range gs {
		all = append(all, g.Pins...)
	}
	t.Logf("%d guesses flipped, %d pins", len(gs), len(all))
	if !exhaustive.On() && !discover {
		t.Logf("the default mode runs %d of them; %s=1 runs every one", (len(gs)+guessSample-1)/guessSample, exhaustive.Env)
	}
	t.Run("reference", func(t *testing.T) {
		t.Parallel()
		suite := only(all, "")
		failed, passed, broken := run(t, nil, suite)
		if broken != "" || len(failed) != 0 {
			t.Errorf("the reference itself fails pinned cases: %v %s", slices.Sorted(maps.Keys(failed)), broken)
		} else if passed != len(suite.Cases) {
			t.Errorf("the reference passes %d of the %d pinned cases and fails none: the others did not run", passed, len(suite.Cases))
		}
	})
	for i, g := range gs {
		t.Run(g.ID, func(t *testing.T) {
			t.Parallel()
			// what names the guess, its flip and its pins in every message.
			what := fmt.Sprintf("%s (flip of %s: %s; pins %s)", g.ID, g.File, g.Flipped, strings.Join(g.Pins, ", "))
			for _, p := range g.Pins {
				if !cases[p] {
					t.Errorf("%s: pin %s is no fixture case", what, p)
				}
			}
			flipped, err := g.Apply(refs[g.File])
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if !discover && !exhaustive.Sampled(i, guessSample) {
				t.Skipf("the default mode runs one flipped guess in %d (its pins and its flip are checked above); %s=1 runs every one", guessSample, exhaustive.Env)
			}
			failed, _, broken := run(t, map[string]string{g.File: flipped}, only(g.Pins, g.File))
			if broken != "" {
				t.Fatalf("%s: the flipped reference broke: %s", what, broken)
			}
			for _, p := range g.Pins {
				if cases[p] && !failed[p] {
					t.Errorf("%s: pin %s passes with the guess flipped: it no longer pins the guess", what, p)
				}
			}
			if discover {
				t.Logf("%s: %d cases fail: %v", g.ID, len(failed), slices.Sorted(maps.Keys(failed)))
			}
		})
	}
}

// guessSample is how many flipped guesses the default mode runs one of.
const guessSample = 8
