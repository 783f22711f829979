package parity

import (
	"os"
	"path/filepath"
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
