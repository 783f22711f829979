package lab

import (
	"context"
	"testing"
	"time"
)

// A short soak: one fault phase and one quiet period with 10 clients, no
// invariant violated. The CI runs the long one (cmd/lab soak).
func TestSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("a soak takes 20 s")
	}
	noLeaks(t)
	cfg := SoakConfig()
	res, err := RunSoak(context.Background(), SoakOptions{Clients: 10, Duration: SoakQuiet(cfg) + 6*time.Second, Seed: 7, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(res)
	for _, d := range res.Details {
		t.Error(d)
	}
	if res.Violated() != 0 || res.Faults == 0 || len(res.Samples) == 0 {
		t.Fatalf("%d violations, %d faults, %d samples", res.Violated(), res.Faults, len(res.Samples))
	}
}
