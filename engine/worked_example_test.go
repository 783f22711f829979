package engine

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWorkedExampleIsTheScenario: the table of docs/engine.md's "A
// scenario read against the rows" is the scenario it names, step by step:
// each row's time, event and actions (in order; "(none)" for a step with
// none) are those of the scenario file. A port reads the worked example
// as the rows applied; a step it leaves out is a reading the fixtures
// contradict.
func TestWorkedExampleIsTheScenario(t *testing.T) {
	src, err := os.ReadFile("../docs/engine.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(src), "\n### A scenario read against the rows\n")
	if !ok {
		t.Fatal(`docs/engine.md has no section "A scenario read against the rows"`)
	}
	section, _, _ = strings.Cut(section, "\n### ")
	id := regexp.MustCompile("`([a-z0-9-]+)`").FindStringSubmatch(section)
	if id == nil {
		t.Fatal("the worked example names no scenario")
	}
	i := slices.IndexFunc(loadScenariosT(t), func(s scenario) bool { return s.ID == id[1] })
	if i < 0 {
		t.Fatalf("the worked example names scenario %s, which no scenario file defines", id[1])
	}
	sc := loadScenariosT(t)[i]
	code := regexp.MustCompile("`([^`]+)`")
	var rows int
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			continue
		}
		at, err := strconv.ParseInt(strings.TrimSpace(cells[1]), 10, 64)
		if err != nil {
			continue // the header and its rule
		}
		if rows >= len(sc.Steps) {
			t.Fatalf("the worked example has more rows than scenario %s has steps", sc.ID)
		}
		st := sc.Steps[rows]
		rows++
		event := code.FindStringSubmatch(cells[2])
		if st.AtMs != at || event == nil || event[1] != st.Event {
			t.Errorf("row %d: %d %q, but step %d of %s is %d %q", rows, at, cells[2], rows, sc.ID, st.AtMs, st.Event)
			continue
		}
		var got []string
		for _, m := range code.FindAllStringSubmatch(cells[3], -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, st.Expect) {
			t.Errorf("row %d (%d %s): the example lists %q, the scenario expects %q", rows, at, st.Event, got, st.Expect)
		}
	}
	if rows != len(sc.Steps) {
		t.Errorf("the worked example has %d rows; scenario %s has %d steps", rows, sc.ID, len(sc.Steps))
	}
}
