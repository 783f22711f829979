// Package uts holds the catalogue of the Ably specification's Universal
// Test Specifications that concern this module (catalogue.json) and the
// tests that keep it and its README consistent.
package uts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// catalogue is catalogue.json.
type catalogue struct {
	SpecRepo   string `json:"spec_repo"`
	SpecCommit string `json:"spec_commit"`
	Counted    string `json:"counted"`
	Items      []item `json:"items"`
}

// item is one UTS test.
type item struct {
	File       string   `json:"file"`
	ID         string   `json:"id"`
	Tier       string   `json:"tier"`
	SpecPoints []string `json:"spec_points"`
	Summary    string   `json:"summary"`
	Owner      string   `json:"owner"`
	Reason     string   `json:"reason"`
	Needs      []string `json:"needs"`
	Today      string   `json:"today"`
	Divergence []string `json:"divergence"`
	Expected   string   `json:"expected"`
}

var (
	owners = map[string]bool{"root": true, "engine": true, "runner": true, "out-of-scope": true}
	// needTags are the engine inputs or actions an item may need. The
	// first three are named in the task that set up this catalogue and
	// no test needs them yet; they stay allowed for the fixtures to come.
	needTags = map[string]bool{
		"close-while-connecting": true, "connect-while-closing": true, "online-offline": true,
		"connection-details": true, "idle-timer": true, "token-renewal": true, "update-event": true,
		"restart-attempt": true, "legacy-host-options": true,
	}
	specPoint = regexp.MustCompile(`^[A-Z]{2,4}[0-9]+[a-z0-9]*$`)
	utsFile   = regexp.MustCompile(`^uts/[a-z0-9_/]+\.md$`)
	hex40     = regexp.MustCompile(`^[0-9a-f]{40}$`)
)

// loadCatalogue reads catalogue.json strictly: an unknown field is an
// error, so a misspelt field cannot pass unchecked.
func loadCatalogue(t *testing.T) catalogue {
	t.Helper()
	b, err := os.ReadFile("catalogue.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var c catalogue
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("catalogue.json: %v", err)
	}
	if len(c.Items) == 0 {
		t.Fatal("catalogue.json has no items")
	}
	return c
}

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCatalogueItemsAreComplete(t *testing.T) {
	c := loadCatalogue(t)
	if c.SpecRepo != "ably/specification" {
		t.Errorf("spec_repo = %q, want ably/specification", c.SpecRepo)
	}
	if !hex40.MatchString(c.SpecCommit) {
		t.Errorf("spec_commit = %q, want 40 lower-case hex digits", c.SpecCommit)
	}
	if !strings.Contains(readme(t), c.SpecCommit) {
		t.Errorf("README.md does not name the spec commit %s", c.SpecCommit)
	}
	if c.Counted == "" {
		t.Error("counted is empty: say how items are counted")
	}
	seen := map[string]bool{}
	for i, it := range c.Items {
		where := fmt.Sprintf("item %d (%s %s)", i, it.File, it.ID)
		for _, e := range it.problems() {
			t.Errorf("%s: %s", where, e)
		}
		key := it.File + "\x00" + it.ID
		if seen[key] {
			t.Errorf("%s: ID repeated in its file", where)
		}
		seen[key] = true
	}
}

// problems lists what is wrong with one item.
func (it item) problems() []string {
	var p []string
	bad := func(format string, a ...any) { p = append(p, fmt.Sprintf(format, a...)) }
	if !utsFile.MatchString(it.File) {
		bad("file %q is not a uts/….md path", it.File)
	}
	if strings.TrimSpace(it.ID) == "" {
		bad("empty id")
	}
	wantTier := "unit"
	if strings.Contains(it.File, "/integration/") {
		wantTier = "integration"
	}
	if it.Tier != wantTier {
		bad("tier %q, want %q for its path", it.Tier, wantTier)
	}
	if len(it.SpecPoints) == 0 {
		bad("no spec_points")
	}
	for _, s := range it.SpecPoints {
		if !specPoint.MatchString(s) {
			bad("spec point %q is not a point ID", s)
		}
	}
	if strings.TrimSpace(it.Summary) == "" {
		bad("empty summary")
	}
	if strings.TrimSpace(it.Expected) == "" {
		bad("empty expected")
	}
	if !owners[it.Owner] {
		bad("owner %q is not one of root, engine, runner, out-of-scope", it.Owner)
	}
	outOfScope := it.Owner == "out-of-scope"
	switch {
	case outOfScope && strings.TrimSpace(it.Reason) == "":
		bad("out of scope without a reason")
	case !outOfScope && it.Reason != "":
		bad("owned but has a reason %q", it.Reason)
	}
	if it.Needs == nil {
		bad("needs missing (use [] for none)")
	}
	dup := map[string]bool{}
	for _, n := range it.Needs {
		if !needTags[n] {
			bad("need %q is not an allowed tag", n)
		}
		if dup[n] {
			bad("need %q listed twice", n)
		}
		dup[n] = true
	}
	if outOfScope && len(it.Needs) > 0 {
		bad("out of scope but needs %v", it.Needs)
	}
	switch {
	case outOfScope && it.Today != "n/a":
		bad("out of scope: today must be n/a, not %q", it.Today)
	case !outOfScope && it.Today != "pass" && it.Today != "fail":
		bad("owned: today must be pass or fail, not %q", it.Today)
	}
	if outOfScope && len(it.Divergence) > 0 {
		bad("out of scope but lists a divergence")
	}
	for _, d := range it.Divergence {
		if !specPoint.MatchString(d) {
			bad("divergence %q is not a point ID", d)
		}
	}
	return p
}

// tableRows returns the cells of the table rows between the
// <!-- name:begin --> and <!-- name:end --> markers of the README,
// without the header and separator rows.
func tableRows(t *testing.T, md, name string) [][]string {
	t.Helper()
	begin, end := "<!-- "+name+":begin -->", "<!-- "+name+":end -->"
	i, j := strings.Index(md, begin), strings.Index(md, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %s … %s block", begin, end)
	}
	var rows [][]string
	for _, line := range strings.Split(md[i+len(begin):j], "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 2 {
		t.Fatalf("README.md's %s table has no rows", name)
	}
	return rows[2:] // header and separator
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("README.md: %q is not a count", s)
	}
	return n
}

// counts is one row of the counts table.
type counts struct{ tests, owned, out, passing int }

func TestCatalogueCountsMatchTheReadme(t *testing.T) {
	c := loadCatalogue(t)
	want := map[string]*counts{}
	var total counts
	for _, it := range c.Items {
		n := want[it.File]
		if n == nil {
			n = &counts{}
			want[it.File] = n
		}
		n.tests++
		total.tests++
		if it.Owner == "out-of-scope" {
			n.out++
			total.out++
			continue
		}
		n.owned++
		total.owned++
		if it.Today == "pass" {
			n.passing++
			total.passing++
		}
	}
	got := map[string]bool{}
	sawTotal := false
	for _, r := range tableRows(t, readme(t), "counts") {
		if len(r) != 5 {
			t.Fatalf("README.md counts row %v: want 5 cells", r)
		}
		row := counts{atoi(t, r[1]), atoi(t, r[2]), atoi(t, r[3]), atoi(t, r[4])}
		if r[0] == "**total**" {
			sawTotal = true
			if row != total {
				t.Errorf("README.md total row %+v, catalogue %+v", row, total)
			}
			continue
		}
		file := strings.Trim(r[0], "`")
		if got[file] {
			t.Errorf("README.md lists %s twice", file)
		}
		got[file] = true
		n := want[file]
		if n == nil {
			t.Errorf("README.md lists %s, which the catalogue does not", file)
			continue
		}
		if row != *n {
			t.Errorf("README.md row for %s is %+v, catalogue %+v", file, row, *n)
		}
	}
	if !sawTotal {
		t.Error("README.md counts table has no **total** row")
	}
	for file := range want {
		if !got[file] {
			t.Errorf("README.md counts table misses %s", file)
		}
	}
}

func TestCatalogueNeedsMatchTheReadme(t *testing.T) {
	c := loadCatalogue(t)
	want := map[string]int{}
	for _, it := range c.Items {
		for _, n := range it.Needs {
			want[n]++
		}
	}
	got := map[string]int{}
	for _, r := range tableRows(t, readme(t), "needs") {
		if len(r) != 3 {
			t.Fatalf("README.md needs row %v: want 3 cells", r)
		}
		got[strings.Trim(r[0], "`")] = atoi(t, r[1])
	}
	for tag, n := range want {
		if got[tag] != n {
			t.Errorf("README.md needs %s: %d, catalogue %d", tag, got[tag], n)
		}
	}
	for tag, n := range got {
		if want[tag] == 0 {
			t.Errorf("README.md lists need %s (%d) that no item has", tag, n)
		}
	}
}

// TestCatalogueOwnerSentenceMatches keeps the README's sentence on owners
// and failures in step with the catalogue.
func TestCatalogueOwnerSentenceMatches(t *testing.T) {
	c := loadCatalogue(t)
	var root, engine, runner, failing int
	for _, it := range c.Items {
		switch it.Owner {
		case "root":
			root++
		case "engine":
			engine++
		case "runner":
			runner++
		}
		if it.Today == "fail" {
			failing++
		}
	}
	want := fmt.Sprintf("Of the owned tests, %d are the root's, %d the engine's and %d the runner's; %d would fail today.", root, engine, runner, failing)
	md := strings.Join(strings.Fields(readme(t)), " ")
	if !strings.Contains(md, want) {
		t.Errorf("README.md should say: %s", want)
	}
}
