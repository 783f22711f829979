package parity

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// driverDir holds the Node driver, its timelines and the listed differences.
var driverDir = filepath.Join("..", "..", "conformance", "ably-js-parity")

// FuzzParseTimelines: any document either fails to parse with an error or
// parses into timelines that the engine runs to their end without
// panicking.
func FuzzParseTimelines(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join(driverDir, "timelines.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"timelines":[{"id":"x","events":[{"at":0,"do":"connect"},{"at":5,"do":"drop"}],"network":[{"transport":"any","do":"refuse","after":0}],"until":60000}]}`))
	f.Add([]byte(`{"timelines":[{"id":"x","until":-1}]}`))
	f.Add([]byte(`{"timelines":[{"id":"x","auth":"callback","events":[{"at":0,"do":"connect"},{"at":5,"do":"authorize"},{"at":90,"do":"server-error","error":"none"}],"network":[{"transport":"http","do":"status","status":403},{"transport":"ws","do":"disconnect","status":503,"error":"no-code"}],"until":60000}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := Parse("fuzz", b)
		if err != nil {
			return
		}
		for i, tl := range doc.Timelines {
			if i >= 3 || len(tl.Events) > 50 {
				break // keep each input cheap
			}
			if _, err := Run(tl); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestParseRejectsWhatTheDriverCannotRun: a rule, event or error shape the
// Node driver has no seam for is an error naming the timeline, not a run.
func TestParseRejectsWhatTheDriverCannotRun(t *testing.T) {
	for name, doc := range map[string]string{
		"status on a websocket": `{"timelines":[{"id":"x","network":[{"transport":"ws","do":"status"}],"events":[]}]}`,
		"status on any":         `{"timelines":[{"id":"x","network":[{"transport":"any","do":"status"}],"events":[]}]}`,
		"unknown rule error":    `{"timelines":[{"id":"x","network":[{"transport":"ws","do":"disconnect","error":"empty"}],"events":[]}]}`,
		"unknown event error":   `{"timelines":[{"id":"x","events":[{"at":0,"do":"server-error","error":"nil"}]}]}`,
		"authorize with a key":  `{"timelines":[{"id":"x","events":[{"at":0,"do":"authorize"}]}]}`,
		"authorize with token":  `{"timelines":[{"id":"x","auth":"token","events":[{"at":0,"do":"authorize"}]}]}`,
	} {
		if _, err := Parse("t", []byte(doc)); err == nil || !strings.Contains(err.Error(), "timeline x") {
			t.Errorf("%s: Parse returned %v, want an error naming timeline x", name, err)
		}
	}
	ok := `{"timelines":[{"id":"x","auth":"callback","network":[{"transport":"http","do":"status"},{"transport":"any","do":"error","error":"none"}],"events":[{"at":0,"do":"authorize"},{"at":1,"do":"server-disconnected","error":"no-code"}]}]}`
	if _, err := Parse("t", []byte(ok)); err != nil {
		t.Errorf("Parse(%s): %v", ok, err)
	}
}
