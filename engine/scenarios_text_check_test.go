package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reconnect-go/reconnect/internal/schemakeys"
)

// Tests of the timeline loader (scenarios_text_test.go): what it refuses,
// with the file and line, and a fuzz target that reads anything and checks
// that whatever it accepts reads back the same once written out again.

func TestLoadScenarios(t *testing.T) {
	scs, err := loadScenarios(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) == 0 {
		t.Fatal("no scenarios loaded")
	}
	if _, err := loadScenarios(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no scenario files") {
		t.Fatalf("an empty folder loaded: %v", err)
	}
	dir := t.TempDir()
	for name, src := range map[string]string{"a.txt": "scenario x\n  0 connect\n", "b.txt": "\nscenario x\n  0 connect\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := loadScenarios(dir); err == nil || !strings.Contains(err.Error(), "b.txt:2: scenario x is already defined at "+filepath.Join(dir, "a.txt")+":1") {
		t.Fatalf("a repeated ID across files: %v", err)
	}
}

func TestParseScenariosErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", "f: no scenario in the file"},
		{"# only a note\n", "f: no scenario in the file"},
		{"scenario a\n", "f:2: scenario a has no step"},
		{"scenario a\nscenario b\n  0 connect\n", "f:2: scenario a has no step"},
		{"scenario a b\n", "f:1: scenario line \"scenario a b\": want scenario and one ID"},
		{"scenario a\n  0 connect\nscenario a\n  0 connect\n", "f:3: scenario a is already defined at f:1"},
		{"spec RTN1\n", "f:1: spec before the first scenario line"},
		{"scenario a\nspec RTN1\nspec RTN2\n", "f:3: second spec line in scenario a"},
		{"scenario a\nspec\n", "f:2: spec with nothing after it"},
		{"scenario a\n  0 connect\nspec RTN1\n", "f:3: spec after the steps of scenario a"},
		{"scenario a\nsteps\n", `f:2: unknown keyword "steps"`},
		{"scenario a\nuts\n", "f:2: uts with nothing after it"},
		{"scenario a\nuts x.md#a\n", `f:2: uts "x.md#a": want <file>#<id>`},
		{"scenario a\nuts uts/x.md\n", `f:2: uts "uts/x.md": want <file>#<id>`},
		{"scenario a\nuts uts/x.md#\n", `f:2: uts "uts/x.md#": want <file>#<id>`},
		{"scenario a\nuts uts/x.md#a\n  uts/x.md#a\n", "f:3: uts uts/x.md#a given twice in scenario a"},
		{"scenario a\nuts uts/x.md#a\nuts uts/x.md#b\n", "f:3: second uts line in scenario a"},
		{"  0 connect\n", "f:1: a step before the first scenario line"},
		{"scenario a\n  1e3 connect\n", `f:2: step time "1e3"`},
		{"scenario a\n  0\n", "f:2: event missing"},
		{"scenario a\n  0 Connect\n", `f:2: event "Connect" does not start with a lowercase letter`},
		{"scenario a\n  0 connect ->\n", "f:2: action missing"},
		{"scenario a\n  0 connect -> open T1 -> x\n", "f:2: action \"open T1 -> x\" holds a second ->"},
		{"scenario a\n  0 connect\n     open T1\n", `f:3: indented line "open T1" continues nothing`},
		{"scenario a\n  0 connect -> open T1\n\n     open T2\n", `f:4: indented line "open T2" continues nothing`},
		{"  open T1\n", `f:1: indented line "open T1" continues nothing`},
		{"scenario a\n  == state connected\n", "f:2: == line that follows no step"},
		{"scenario a\n  0 connect\n  == state connected\n  == retry count 0\n", "f:4: == line that follows no step, or a second one"},
		{"scenario a\n  0 connect\n  == state Connected\n", `f:3: == "state Connected"`},
		{"scenario a\n  0 connect\n  == retry count -1\n", `f:3: retry count "-1"`},
		{"scenario a\n  0 connect\n  == state a, state b\n", `f:3: == "state b"`},
		{"scenario a\ndraws 0.5 x\n", `f:2: draws: "x" is not a finite number`},
		{"scenario a\ndraws NaN\n", `f:2: draws: "NaN" is not a finite number`},
		{"scenario a\nconfig policy\n", `f:2: config "policy": want key=value`},
		{"scenario a\nconfig colour=red\n", `f:2: config "colour=red": want key=value with a key of [shortCircuitMs endpoint`},
		{"scenario a\nconfig http=yes\n", "f:2: config: json: cannot unmarshal string into Go struct field scenarioConfig.http of type bool"},
		{"scenario a\nconfig shortCircuitMs=2s\n", "f:2: config: json: cannot unmarshal string into Go struct field scenarioConfig.shortCircuitMs of type int64"},
		{"scenario a\nconfig immediateShare=1e999\n", "f:2: config: json: cannot unmarshal number 1e999"},
		{"scenario a\nconfig fallbackHosts=[\"a\",1]\n", "f:2: config: json: cannot unmarshal number into Go struct field scenarioConfig.fallbackHosts"},
		{"scenario a\nconfig policy=a policy=b\n", "f:2: config policy given twice"},
		{"scenario a\nconfig preference=\"v1 http\n", "f:2: config preference: unexpected EOF"},
		{"scenario a\nconfig preference=\"v1\"x\n", "f:2: config preference: a space must follow its value"},
	} {
		_, err := parseScenarios("f", c.src, map[string]string{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got error %v, want one containing %q", c.src, err, c.want)
		}
	}
}

func FuzzParseScenarios(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(scenarioDir, "*.txt"))
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	f.Add("scenario a\nconfig preference=\"v1 http 1 connected\" http=false fallbackHosts=[\"a b\",\"c\"] shortCircuitMs=0\n  0 connect -> open T1\n  == state connected, retry count 0\n")
	f.Add("scenario a\nspec S\ncomment c\n  more\ndraws 0.5 1\n\n  0 connect -> open T1\n  # note\n     dispose T1\n  10 close\n")
	f.Add("scenario a\nuts uts/a.md#x/y-0 uts/a.md#x/z-1\n  uts/b.md#q-0\n  0 connect\n")
	f.Fuzz(func(t *testing.T, src string) {
		scs, err := parseScenarios("f", src, map[string]string{})
		if err != nil {
			return
		}
		var b strings.Builder
		for _, sc := range scs {
			if sc.ID == "" || len(sc.Steps) == 0 {
				t.Fatalf("accepted a scenario with no ID or no step: %+v", sc)
			}
			formatScenario(&b, sc)
		}
		again, err := parseScenarios("f", b.String(), map[string]string{})
		if err != nil {
			t.Fatalf("the written-out form does not read back: %v\n%s", err, b.String())
		}
		if !reflect.DeepEqual(again, scs) {
			t.Fatalf("read back differently:\n%+v\nwas\n%+v\nfrom\n%s", again, scs, b.String())
		}
	})
}

// formatScenario writes sc in the timeline format, a blank line after it:
// the header, then one line per step (the time right-aligned, the event,
// -> and the first action), one more line per further action, and an ==
// line for the state and retry count the step ends with.
func formatScenario(b *strings.Builder, sc scenario) {
	fmt.Fprintf(b, "scenario %s\n", sc.ID)
	if sc.Spec != "" {
		fmt.Fprintf(b, "spec     %s\n", sc.Spec)
	}
	for i, ref := range sc.UTS {
		if i == 0 {
			fmt.Fprintf(b, "uts      %s\n", ref)
		} else {
			fmt.Fprintf(b, "         %s\n", ref)
		}
	}
	if sc.Comment != "" {
		writeWrapped(b, "comment  ", sc.Comment, 100)
	}
	if cfg := formatScenarioConfig(sc.Config); cfg != "" {
		fmt.Fprintf(b, "config   %s\n", cfg)
	}
	if len(sc.Draws) > 0 {
		b.WriteString("draws   ")
		for _, u := range sc.Draws {
			b.WriteString(" " + strconv.FormatFloat(u, 'g', -1, 64))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	timeW, eventW := 0, 0
	for _, st := range sc.Steps {
		timeW = max(timeW, len(strconv.FormatInt(st.AtMs, 10)))
		eventW = max(eventW, len(st.Event))
	}
	for _, st := range sc.Steps {
		head := fmt.Sprintf("  %*d  %-*s", timeW, st.AtMs, eventW, st.Event)
		if len(st.Expect) == 0 {
			b.WriteString(strings.TrimRight(head, " ") + "\n")
		}
		for i, a := range st.Expect {
			if i == 0 {
				fmt.Fprintf(b, "%s  -> %s\n", head, a)
			} else {
				fmt.Fprintf(b, "%*s%s\n", len(head)+5, "", a)
			}
		}
		var end []string
		if st.ExpectState != "" {
			end = append(end, "state "+st.ExpectState)
		}
		if st.ExpectRetryCount != nil {
			end = append(end, "retry count "+strconv.Itoa(*st.ExpectRetryCount))
		}
		if len(end) > 0 {
			fmt.Fprintf(b, "%*s== %s\n", len(head)+2, "", strings.Join(end, ", "))
		}
	}
	b.WriteString("\n")
}

// writeWrapped writes prefix and text, wrapped before width on spaces; a
// wrapped line never starts with a digit, # or =, which would read as a
// step, a note or an == line.
func writeWrapped(b *strings.Builder, prefix, text string, width int) {
	line := prefix
	for i, w := range strings.Fields(text) {
		safe := w[0] != '#' && w[0] != '=' && (w[0] < '0' || w[0] > '9')
		if i > 0 && safe && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = strings.Repeat(" ", len(prefix)) + w
			continue
		}
		if i > 0 {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
}

// formatScenarioConfig writes the fields of c that the fixture writes, as
// key=value, the policy and endpoint first; a string value that reads as
// one bare word is written without quotes.
func formatScenarioConfig(c scenarioConfig) string {
	data, _ := json.Marshal(c)
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(data, &fields)
	keys := append([]string{"policy", "endpoint"}, scenarioConfigKeys...)
	var kv []string
	for _, k := range keys {
		v, ok := fields[k]
		if !ok {
			continue
		}
		delete(fields, k)
		var s string
		if json.Unmarshal(v, &s) == nil && s != "" && !strings.ContainsAny(s, " \t") &&
			!strings.ContainsRune(`"[{`, rune(s[0])) && !json.Valid([]byte(s)) {
			v = json.RawMessage(s)
		}
		kv = append(kv, k+"="+string(v))
	}
	return strings.Join(kv, " ")
}

// The scenario configuration is declared twice: scenarioConfig here, which
// writes fixtures/scenarios.json, and conform.ScenarioKnobs, which reads it
// for the harness (this package's tests cannot import that package, which
// imports this one). Each is held to the fixture's schema, the one list of
// config keys, so that a key added to one and not the other fails here or
// in internal/conform's TestScenarioKnobsAreTheSchemas.
func TestScenarioConfigIsTheSchemas(t *testing.T) {
	want, err := schemakeys.ScenarioConfig("../fixtures/schema/scenarios.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := schemakeys.JSONNames(reflect.TypeFor[scenarioConfig]()); !slices.Equal(got, want) {
		t.Errorf("scenarioConfig's keys %v, the schema's %v", got, want)
	}
}
