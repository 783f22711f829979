package uts

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The UTS tests translated into this repository's fixtures and tests, and
// the table of docs/conformance.md that counts them per UTS file
// (go test ./conformance/uts -args -update rewrites the table's counts,
// keeping each row's "why").

var update = flag.Bool("update", false, "rewrite the UTS table of docs/conformance.md")

const conformanceDoc = "../../docs/conformance.md"

// utsRef is how a fixture item or a Go test names a UTS test.
var utsRef = regexp.MustCompile(`"(uts/[a-z0-9_/]+\.md#[^"#\s]+)"`)

// translatedRefs returns every <file>#<id> a fixture item carries in its
// uts field, or a Go test of the root or the runner names in a string, with
// where it was found.
func translatedRefs(t *testing.T) map[string][]string {
	t.Helper()
	refs := map[string][]string{}
	for _, f := range []string{"rtb1.json", "hosts.json", "scenarios.json"} {
		path := filepath.Join("../../fixtures", f)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Items []struct {
				ID  string   `json:"id"`
				UTS []string `json:"uts"`
			} `json:"items"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, it := range file.Items {
			for _, r := range it.UTS {
				refs[r] = append(refs[r], f+" "+it.ID)
			}
		}
	}
	for _, pattern := range []string{"../../*_test.go", "../../runner/*_test.go"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range utsRef.FindAllStringSubmatch(string(data), -1) {
				refs[m[1]] = append(refs[m[1]], filepath.Base(f))
			}
		}
	}
	return refs
}

// utsCounts is one row of the table.
type utsCounts struct{ tests, owned, translated, pass, divergence, out int }

// utsTable counts the catalogue per file, in the catalogue's order.
func utsTable(t *testing.T, c catalogue, refs map[string][]string) ([]string, map[string]*utsCounts, *utsCounts) {
	t.Helper()
	var files []string
	rows := map[string]*utsCounts{}
	total := &utsCounts{}
	for _, it := range c.Items {
		n := rows[it.File]
		if n == nil {
			n = &utsCounts{}
			rows[it.File] = n
			files = append(files, it.File)
		}
		add := func(f func(*utsCounts)) { f(n); f(total) }
		add(func(c *utsCounts) { c.tests++ })
		if it.Owner == "out-of-scope" {
			add(func(c *utsCounts) { c.out++ })
			continue
		}
		add(func(c *utsCounts) { c.owned++ })
		if len(refs[it.File+"#"+it.ID]) == 0 {
			continue
		}
		add(func(c *utsCounts) { c.translated++ })
		if len(it.Divergence) > 0 {
			add(func(c *utsCounts) { c.divergence++ })
		} else {
			add(func(c *utsCounts) { c.pass++ })
		}
	}
	return files, rows, total
}

// TestUTSTranslationsMatchTheCatalogue: every UTS test a fixture or a test
// names is an owned test of the catalogue; a translated test passes
// (today pass) unless its translation follows a recorded decision
// (divergence, today fail), which docs/decisions.md names with the test's
// ID; an owned test not translated says what it needs.
func TestUTSTranslationsMatchTheCatalogue(t *testing.T) {
	c := loadCatalogue(t)
	refs := translatedRefs(t)
	byRef := map[string]item{}
	for _, it := range c.Items {
		byRef[it.File+"#"+it.ID] = it
	}
	for r, where := range refs {
		it, ok := byRef[r]
		switch {
		case !ok:
			t.Errorf("%v names UTS test %s, which the catalogue does not list (file and ID as the catalogue has them)", where, r)
		case it.Owner == "out-of-scope":
			t.Errorf("%v translates %s, which the catalogue has out of scope", where, r)
		}
	}
	decisions, err := os.ReadFile("../../docs/decisions.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range c.Items {
		if it.Owner == "out-of-scope" {
			continue
		}
		ref := it.File + "#" + it.ID
		translated := len(refs[ref]) > 0
		switch {
		case translated && len(it.Divergence) == 0 && it.Today != "pass":
			t.Errorf("%s is translated and its fixture passes: today must be pass, not %q", ref, it.Today)
		case translated && len(it.Divergence) > 0 && it.Today != "fail":
			t.Errorf("%s is translated with a divergence %v: today must be fail", ref, it.Divergence)
		case translated && len(it.Divergence) > 0 && !strings.Contains(string(decisions), "`"+it.ID+"`"):
			t.Errorf("%s diverges (%v) but docs/decisions.md names no decision with its ID", ref, it.Divergence)
		case !translated && len(it.Needs) == 0:
			t.Errorf("%s is owned and not translated: translate it, or say in needs what the module lacks", ref)
		case !translated && len(it.Divergence) > 0:
			t.Errorf("%s lists a divergence but no fixture translates it", ref)
		}
	}
}

// TestUTSTableMatchesTheFixtures: docs/conformance.md's table gives, per
// UTS file, the counts the catalogue and the fixtures give, and lists the
// owned tests not translated.
func TestUTSTableMatchesTheFixtures(t *testing.T) {
	c := loadCatalogue(t)
	refs := translatedRefs(t)
	files, want, total := utsTable(t, c, refs)
	data, err := os.ReadFile(conformanceDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	why := map[string]string{}
	for _, r := range tableRows(t, doc, "uts") {
		if len(r) != 7 {
			t.Fatalf("docs/conformance.md uts row %v: want 7 cells", r)
		}
		_, w, _ := strings.Cut(r[6], " ")
		why[strings.Trim(r[0], "`")] = strings.TrimSpace(w)
	}
	var b strings.Builder
	b.WriteString("| UTS file | tests | owned | translated | pass | deliberate divergence | out of scope (why) |\n|---|---:|---:|---:|---:|---:|---|\n")
	for _, f := range files {
		n := want[f]
		out := strconv.Itoa(n.out)
		if w := why[f]; n.out > 0 && w != "" {
			out += " " + w
		}
		fmt.Fprintf(&b, "| `%s` | %d | %d | %d | %d | %d | %s |\n", f, n.tests, n.owned, n.translated, n.pass, n.divergence, out)
	}
	fmt.Fprintf(&b, "| **total** | %d | %d | %d | %d | %d | %d |\n", total.tests, total.owned, total.translated, total.pass, total.divergence, total.out)
	var missing []string
	for _, it := range c.Items {
		if it.Owner != "out-of-scope" && len(refs[it.File+"#"+it.ID]) == 0 {
			missing = append(missing, fmt.Sprintf("- `%s` (`%s`): needs %s\n", it.ID, it.File, strings.Join(it.Needs, ", ")))
		}
	}
	slices.Sort(missing)
	wantTable, wantMissing := b.String(), strings.Join(missing, "")
	gotTable, gotMissing := blockOf(t, doc, "uts"), blockOf(t, doc, "uts-missing")
	if *update {
		doc = replaceBlock(doc, "uts", "\n"+wantTable)
		doc = replaceBlock(doc, "uts-missing", "\n"+wantMissing)
		if err := os.WriteFile(conformanceDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if strings.TrimSpace(gotTable) != strings.TrimSpace(wantTable) {
		t.Errorf("docs/conformance.md's UTS table differs from the catalogue and the fixtures (go test ./conformance/uts -args -update rewrites it):\n got:\n%s\nwant:\n%s", gotTable, wantTable)
	}
	if strings.TrimSpace(gotMissing) != strings.TrimSpace(wantMissing) {
		t.Errorf("docs/conformance.md's list of owned tests not translated differs:\n got:\n%s\nwant:\n%s", gotMissing, wantMissing)
	}
	for _, f := range files {
		if want[f].out > 0 && why[f] == "" {
			t.Errorf("docs/conformance.md: the row of %s says no why for its %d tests out of scope", f, want[f].out)
		}
	}
}

// replaceBlock replaces the text between <!-- name:begin --> and
// <!-- name:end --> with text.
func replaceBlock(md, name, text string) string {
	begin, end := "<!-- "+name+":begin -->", "<!-- "+name+":end -->"
	i, j := strings.Index(md, begin), strings.Index(md, end)
	return md[:i+len(begin)] + text + md[j:]
}

// blockOf returns the text between <!-- name:begin --> and
// <!-- name:end -->.
func blockOf(t *testing.T, md, name string) string {
	t.Helper()
	begin, end := "<!-- "+name+":begin -->", "<!-- "+name+":end -->"
	i, j := strings.Index(md, begin), strings.Index(md, end)
	if i < 0 || j < i {
		t.Fatalf("docs/conformance.md has no %s … %s block", begin, end)
	}
	return md[i+len(begin) : j]
}
