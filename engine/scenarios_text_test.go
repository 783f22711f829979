package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The scenario timelines are text files under testdata/scenarios, read in
// the order of their names; testdata/scenarios/README.md describes the
// format. This file is their loader: a parser that turns a file into
// scenario values and says file:line for anything it cannot read, and the
// formatter the fuzz target checks the parser against.

// scenarioDir holds the scenario timelines, one file per theme.
const scenarioDir = "testdata/scenarios"

// loadScenarios reads every timeline of dir/*.txt, in the order of the
// files' names and of the scenarios in each file. It fails when there is
// no file, when a file holds no scenario, and when two scenarios share an
// ID.
func loadScenarios(dir string) ([]scenario, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no scenario files (*.txt) in %s", dir)
	}
	seen := map[string]string{}
	var all []scenario
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		scs, err := parseScenarios(f, string(src), seen)
		if err != nil {
			return nil, err
		}
		all = append(all, scs...)
	}
	return all, nil
}

// loadScenariosT is loadScenarios(scenarioDir) for a test, which it stops
// at an error.
func loadScenariosT(t testing.TB) []scenario {
	t.Helper()
	scs, err := loadScenarios(scenarioDir)
	if err != nil {
		t.Fatal(err)
	}
	return scs
}

// scenarioParser is the state of reading one file: the scenario being
// read, the step being read, and what an indented line continues.
type scenarioParser struct {
	name string
	line int
	seen map[string]string // scenario ID → file:line where it is defined
	out  []scenario
	// header lists the header keywords the current scenario has used.
	header map[string]bool
	// cont is what an indented line that is not a step continues:
	// "comment", "uts", "actions" or "" (nothing: such a line is an
	// error).
	cont string
	// expected reports whether the current step has its == line.
	expected bool
}

// parseScenarios reads the scenarios of one file; name is the file's name
// in errors, seen the IDs already defined (by earlier files).
func parseScenarios(name, src string, seen map[string]string) ([]scenario, error) {
	p := &scenarioParser{name: name, seen: seen}
	for i, raw := range strings.Split(src, "\n") {
		p.line = i + 1
		if err := p.parseLine(strings.TrimRight(raw, " \t\r")); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, p.line, err)
		}
	}
	if err := p.endScenario(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, p.line, err)
	}
	if len(p.out) == 0 {
		return nil, fmt.Errorf("%s: no scenario in the file", name)
	}
	return p.out, nil
}

func (p *scenarioParser) parseLine(raw string) error {
	text := strings.TrimLeft(raw, " \t")
	switch {
	case text == "":
		p.cont = "" // a blank line ends a comment or a step's actions
		return nil
	case text[0] == '#':
		return nil
	case text[0] >= '0' && text[0] <= '9':
		return p.parseStep(text)
	case text != raw:
		return p.parseIndented(text)
	}
	key, rest := raw, ""
	if i := strings.IndexAny(raw, " \t"); i >= 0 {
		key, rest = raw[:i], raw[i:]
	}
	return p.parseHeader(key, rest)
}

// parseHeader reads a line of a scenario's header: scenario, spec, uts,
// comment, config or draws.
func (p *scenarioParser) parseHeader(key, raw string) error {
	p.cont = ""
	rest := normalizeSpace(raw) // the config line keeps its quoted values as written
	if key == "scenario" {
		return p.startScenario(rest)
	}
	switch key {
	case "spec", "uts", "comment", "config", "draws":
	default:
		return fmt.Errorf("unknown keyword %q: a line starts with scenario, spec, uts, comment, config, draws, a step's time (ms), or is indented", key)
	}
	if len(p.out) == 0 {
		return fmt.Errorf("%s before the first scenario line", key)
	}
	sc := &p.out[len(p.out)-1]
	switch {
	case len(sc.Steps) > 0:
		return fmt.Errorf("%s after the steps of scenario %s: the header comes first", key, sc.ID)
	case p.header[key]:
		return fmt.Errorf("second %s line in scenario %s", key, sc.ID)
	case rest == "":
		return fmt.Errorf("%s with nothing after it", key)
	}
	p.header[key] = true
	switch key {
	case "spec":
		sc.Spec = rest
	case "uts":
		p.cont = "uts"
		return addUTS(sc, rest)
	case "comment":
		sc.Comment, p.cont = rest, "comment"
	case "config":
		return parseScenarioConfig(strings.Trim(raw, " \t"), &sc.Config)
	case "draws":
		for _, f := range strings.Fields(rest) {
			u, err := parseFinite(f)
			if err != nil {
				return fmt.Errorf("draws: %w", err)
			}
			sc.Draws = append(sc.Draws, u)
		}
	}
	return nil
}

func (p *scenarioParser) startScenario(id string) error {
	if err := p.endScenario(); err != nil {
		return err
	}
	if id == "" || strings.Contains(id, " ") {
		return fmt.Errorf("scenario line %q: want scenario and one ID", "scenario "+id)
	}
	at := fmt.Sprintf("%s:%d", p.name, p.line)
	if prev, ok := p.seen[id]; ok {
		return fmt.Errorf("scenario %s is already defined at %s", id, prev)
	}
	p.seen[id] = at
	p.out = append(p.out, scenario{ID: id})
	p.header = map[string]bool{}
	return nil
}

// endScenario checks that the scenario just read has a step.
func (p *scenarioParser) endScenario() error {
	if n := len(p.out); n > 0 && len(p.out[n-1].Steps) == 0 {
		return fmt.Errorf("scenario %s has no step", p.out[n-1].ID)
	}
	return nil
}

// parseStep reads "<ms> <event> [-> <action>]".
func (p *scenarioParser) parseStep(text string) error {
	if len(p.out) == 0 {
		return errors.New("a step before the first scenario line")
	}
	sc := &p.out[len(p.out)-1]
	ms, rest := text, ""
	if i := strings.IndexAny(text, " \t"); i >= 0 {
		ms, rest = text[:i], text[i:]
	}
	at, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return fmt.Errorf("step time %q: want milliseconds, a whole number", ms)
	}
	event, action, arrow := strings.Cut(rest, "->")
	st := scenarioStep{AtMs: at, Event: normalizeSpace(event)}
	if err := checkWord("event", st.Event); err != nil {
		return err
	}
	p.cont, p.expected = "", false
	if arrow {
		if err := addAction(&st, action); err != nil {
			return err
		}
		p.cont = "actions"
	}
	sc.Steps = append(sc.Steps, st)
	return nil
}

// parseIndented reads an indented line: an action of the step above, the
// step's == line, or more of the comment.
func (p *scenarioParser) parseIndented(text string) error {
	if len(p.out) > 0 && strings.HasPrefix(text, "==") {
		if sc := &p.out[len(p.out)-1]; len(sc.Steps) > 0 && !p.expected {
			p.expected, p.cont = true, ""
			return parseExpected(text[2:], &sc.Steps[len(sc.Steps)-1])
		}
		return errors.New("== line that follows no step, or a second one for the same step")
	}
	switch p.cont { // set only inside a scenario, "actions" only after a step
	case "comment":
		sc := &p.out[len(p.out)-1]
		sc.Comment += " " + normalizeSpace(text)
		return nil
	case "uts":
		return addUTS(&p.out[len(p.out)-1], text)
	case "actions":
		sc := &p.out[len(p.out)-1]
		return addAction(&sc.Steps[len(sc.Steps)-1], text)
	}
	return fmt.Errorf("indented line %q continues nothing: actions follow a step with ->, and a blank line or == ends them", text)
}

// parseExpected reads what follows == : "state <state>" and/or
// "retry count <n>", separated by a comma.
func parseExpected(text string, st *scenarioStep) error {
	for part := range strings.SplitSeq(text, ",") {
		part = normalizeSpace(part)
		if s, ok := strings.CutPrefix(part, "state "); ok && st.ExpectState == "" && isLowerWord(s) {
			st.ExpectState = s
			continue
		}
		if s, ok := strings.CutPrefix(part, "retry count "); ok && st.ExpectRetryCount == nil {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return fmt.Errorf("retry count %q: want a whole number ≥ 0", s)
			}
			st.ExpectRetryCount = &n
			continue
		}
		return fmt.Errorf("== %q: want \"state <state>\" and/or \"retry count <n>\", each once, separated by a comma", part)
	}
	return nil
}

// addUTS reads the UTS tests a scenario translates: one or more
// <file>#<id> words, the file as the specification's repository names it
// (uts/…/name.md) and the test's ID as its **Test ID** line writes it.
func addUTS(sc *scenario, text string) error {
	for _, ref := range strings.Fields(text) {
		file, id, ok := strings.Cut(ref, "#")
		if !ok || !strings.HasPrefix(file, "uts/") || !strings.HasSuffix(file, ".md") || id == "" || strings.Contains(id, "#") {
			return fmt.Errorf("uts %q: want <file>#<id>, the file uts/….md", ref)
		}
		if slices.Contains(sc.UTS, ref) {
			return fmt.Errorf("uts %s given twice in scenario %s", ref, sc.ID)
		}
		sc.UTS = append(sc.UTS, ref)
	}
	return nil
}

func addAction(st *scenarioStep, text string) error {
	a := normalizeSpace(text)
	if err := checkWord("action", a); err != nil {
		return err
	}
	if strings.Contains(a, "->") {
		return fmt.Errorf("action %q holds a second ->: one action a line", a)
	}
	st.Expect = append(st.Expect, a)
	return nil
}

// checkWord checks that an event or action starts with a lowercase
// letter, as the fixtures' grammar has them, so that it cannot be read
// back as a step, a comment or an == line.
func checkWord(what, s string) error {
	if s == "" {
		return fmt.Errorf("%s missing", what)
	}
	if s[0] < 'a' || s[0] > 'z' {
		return fmt.Errorf("%s %q does not start with a lowercase letter", what, s)
	}
	return nil
}

func isLowerWord(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyz") == ""
}

// normalizeSpace trims s and writes every run of white space in it as one
// space.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func parseFinite(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a finite number", s)
	}
	return f, nil
}

// scenarioConfigKeys are the config keys, the fixture's names of
// scenarioConfig's fields, in the order the fixture writes them.
var scenarioConfigKeys = func() []string {
	t := reflect.TypeFor[scenarioConfig]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return keys
}()

// parseScenarioConfig reads "key=value …": each key a field of the
// fixture's config, each value as JSON writes it there (a bare word is a
// string).
func parseScenarioConfig(text string, c *scenarioConfig) error {
	fields := map[string]json.RawMessage{}
	for text != "" {
		key, rest, ok := strings.Cut(text, "=")
		if !ok || !slices.Contains(scenarioConfigKeys, key) {
			return fmt.Errorf("config %q: want key=value with a key of %v", text, scenarioConfigKeys)
		}
		if _, dup := fields[key]; dup {
			return fmt.Errorf("config %s given twice", key)
		}
		n := strings.IndexAny(rest, " \t")
		if n < 0 {
			n = len(rest)
		}
		if rest != "" && strings.ContainsRune(`"[{`, rune(rest[0])) {
			dec := json.NewDecoder(strings.NewReader(rest))
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return fmt.Errorf("config %s: %w", key, err)
			}
			n = int(dec.InputOffset())
		}
		val := json.RawMessage(rest[:n])
		if !json.Valid(val) {
			val, _ = json.Marshal(rest[:n]) // a bare word
		}
		fields[key], text = val, rest[n:]
		if text != "" && text[0] != ' ' && text[0] != '\t' {
			return fmt.Errorf("config %s: a space must follow its value", key)
		}
		text = strings.TrimLeft(text, " \t")
	}
	obj, _ := json.Marshal(fields)
	if err := json.Unmarshal(obj, c); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if len(c.FallbackHosts) == 0 {
		c.FallbackHosts = nil // the fixture writes no list and an empty one alike
	}
	return nil
}
