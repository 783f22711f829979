package enginediff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTestdata saves the minimised timeline of class name, unless the
// one saved is shorter: one step a line.
func writeTestdata(t *testing.T, name string, tl Timeline) {
	t.Helper()
	path := filepath.Join("testdata", name+".json")
	if old, err := readTimeline(path); err == nil && len(old.Steps) <= len(tl.Steps) {
		return
	}
	i := slices.IndexFunc(Known, func(c Class) bool { return c.Name == name })
	head, _ := json.Marshal(struct {
		ID      string    `json:"id"`
		Comment string    `json:"_comment"`
		Config  Config    `json:"config"`
		Draws   []float64 `json:"draws"`
	}{name, Known[i].Doc, tl.Config, tl.Draws})
	var b strings.Builder
	b.Write(head[:len(head)-1])
	b.WriteString(`,"steps":[`)
	for k, st := range tl.Steps {
		line, _ := json.Marshal(st)
		b.WriteString("\n  " + string(line))
		if k < len(tl.Steps)-1 {
			b.WriteString(",")
		}
	}
	b.WriteString("\n]}\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTimeline(path string) (Timeline, error) {
	var tl Timeline
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &tl)
	}
	return tl, err
}

// TestKnownClassesStillDisagree replays the minimised timeline of every
// known class (testdata/<name>.json): each must still disagree, explained
// by its own class. When an engine is fixed, this fails: delete the class
// from Known and its file.
func TestKnownClassesStillDisagree(t *testing.T) {
	d := startDiffer(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	if len(files) != len(Known) {
		t.Errorf("%d files in testdata for %d known classes", len(files), len(Known))
	}
	for _, c := range Known {
		tl, err := readTimeline(filepath.Join("testdata", c.Name+".json"))
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		dis, err := d.Disagreement(tl)
		if err != nil {
			t.Fatal(err)
		}
		if dis == nil {
			t.Errorf("%s: the engines agree on its timeline now: remove the class from Known and testdata/%s.json", c.Name, c.Name)
			continue
		}
		v, err := Classify(dis, d)
		if err != nil {
			t.Fatal(err)
		}
		if v.Key() != c.Name {
			t.Errorf("%s: its timeline is classified %s:\n%s", c.Name, v, dis)
		}
		t.Logf("%s:\n%s", c.Name, dis)
	}
}

// TestClassifyNew checks that a disagreement no class explains is new:
// the JS answer at one step changed by hand.
func TestClassifyNew(t *testing.T) {
	d := startDiffer(t)
	for i := 0; ; i++ {
		tl, goSteps := Generate(1, i)
		o, err := d.Outcomes([]Timeline{tl}, [][][]string{goSteps})
		if err != nil {
			t.Fatal(err)
		}
		if Compare(tl, o[0]) != nil || len(goSteps[0]) < 2 || strings.Contains(tl.JSON(), "websocket-check") {
			continue // a timeline on which the engines agree, with no class's trigger
		}
		o[0][1].Steps[0] = slices.Clone(o[0][1].Steps[0])
		slices.Reverse(o[0][1].Steps[0]) // another order: a disagreement
		dis := Compare(tl, o[0])
		if dis == nil || dis.Step != 0 || dis.Split() != "go+python|js" {
			t.Fatalf("the reordered step is not a disagreement at step 0: %v", dis)
		}
		v, err := Classify(dis, d)
		if err != nil {
			t.Fatal(err)
		}
		if v.New == nil || len(v.Classes) != 0 {
			t.Fatalf("classified %s, want new", v)
		}
		return
	}
}

// TestClassifyTwoCausesAtOneStep: a step where two known classes differ
// at once (the JS engine acted on a stale background check, and writes a
// bare disconnected its own way) is explained by both, though neither
// alone makes the engines agree there.
func TestClassifyTwoCausesAtOneStep(t *testing.T) {
	d := startDiffer(t)
	var tl Timeline
	err := json.Unmarshal([]byte(`{"config":{"policy":"http-first","connectionStateTtlMs":10000,"rememberTransport":true},"draws":[],"steps":[
		{"atMs":60000,"event":"connect"},{"atMs":70500,"event":"timer state-ttl"},{"atMs":100500,"event":"timer retry"},
		{"atMs":100500,"event":"connected T2"},{"atMs":100500,"event":"closed T2"},{"atMs":100500,"event":"connected T4"},
		{"atMs":100500,"event":"connected T5"},{"atMs":102997,"event":"closed T5"},{"atMs":104766,"event":"connected T6"},
		{"atMs":114767,"event":"websocket-check C1 up"},{"atMs":114768,"event":"closed T6 disconnected"}]}`), &tl)
	if err != nil {
		t.Fatal(err)
	}
	dis, err := d.Disagreement(tl)
	if err != nil || dis == nil || dis.Step != 10 {
		t.Fatalf("want a disagreement at step 10, got %v (%v)", dis, err)
	}
	v, err := Classify(dis, d)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(v.Classes)
	if v.New != nil || !slices.Equal(v.Classes, []string{"background-check-outlives-attempt", "bare-disconnected-text"}) {
		t.Errorf("classified %s", v)
	}
}
