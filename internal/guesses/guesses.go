// Package guesses holds the list of the guesses a team porting the engine
// (or the pure functions) must make, conformance/guesses.json: each guess
// with the rule that settles it in docs/engine.md, docs/hosts.md or
// fixtures/README.md, and either the fixture cases that pin it — the
// scenarios (or cases) an implementation that guessed the other way fails
// — with that other way written as an edit of the JavaScript reference
// (conformance/js), or the reason no case can see it, also stated in
// docs/engine.md. Its tests check the list against the documents, the
// ports' guess files and the fixtures, and run every flipped reference to
// check each pin still catches its flip.
package guesses

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// File is conformance/guesses.json.
type File struct {
	Comment string  `json:"_comment"`
	Guesses []Guess `json:"guesses"`
}

// Guess is one guess a port must make.
type Guess struct {
	// ID is the guess's stable name.
	ID string `json:"id"`
	// Sources name where the guess was met: "clean-room review of docs/engine.md", "engine differential: <class>", or a guess file
	// of a port and the item in it ("conformance/js/ENGINE-GUESSES.md G5").
	Sources []string `json:"sources"`
	// Guess is the question a port must answer.
	Guess string `json:"guess"`
	// Rule is the answer: a quote of the document that states it.
	Rule Rule `json:"rule"`
	// File is the reference the flip edits: engine.mjs or adapter.mjs in
	// conformance/js (with Flip only).
	File string `json:"file,omitempty"`
	// Flip is the other answer, as edits of File, applied in order; each
	// From occurs exactly once in the file as the previous edits leave it.
	Flip []Edit `json:"flip,omitempty"`
	// Flipped says in words what the flipped reference does.
	Flipped string `json:"flipped,omitempty"`
	// Pins are the fixture case IDs (scenario IDs for the engine) that
	// the flipped reference must fail.
	Pins []string `json:"pins,omitempty"`
	// Unobservable, for a guess no case can see, says why; docs/engine.md
	// declares it too. A guess has either Pins (with Flip) or this.
	Unobservable string `json:"unobservable,omitempty"`
}

// Rule is a quote of the document that states the rule, matched with
// every run of white space read as one space.
type Rule struct {
	Doc   string `json:"doc"`
	Quote string `json:"quote"`
}

// Edit replaces From by To.
type Edit struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Load reads the list, refusing unknown fields.
func Load(path string) (File, error) {
	var f File
	data, err := os.ReadFile(path)
	if err != nil {
		return f, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Apply returns ref with g's flip applied, or an error naming the edit
// whose From does not occur exactly once.
func (g Guess) Apply(ref string) (string, error) {
	for i, e := range g.Flip {
		if n := strings.Count(ref, e.From); n != 1 {
			return "", fmt.Errorf("%s: edit %d: %q occurs %d times in %s, want once", g.ID, i+1, e.From, n, g.File)
		}
		ref = strings.Replace(ref, e.From, e.To, 1)
	}
	return ref, nil
}

// Squash reads every run of white space as one space, so that a quote
// matches a document however its lines are wrapped.
func Squash(s string) string { return strings.Join(strings.Fields(s), " ") }
