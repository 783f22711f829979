package enginediff

import (
	"cmp"
	"crypto/rand"
	"encoding/binary"
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	flagSeed      = flag.Uint64("seed", 0, "the differential's seed (0: ENGINEDIFF_SEED, else a fresh one)")
	flagTimelines = flag.Int("timelines", 0, "how many timelines the differential runs (0: ENGINEDIFF_TIMELINES, else 10000 with CI set, 500 otherwise and under -short)")
	flagUpdate    = flag.Bool("update", false, "write the minimised timeline of each known class the differential finds to testdata/")
)

// root is the repository's root, from this package's folder.
const root = "../.."

var (
	shared    *Differ
	sharedErr error
	once      sync.Once
)

// TestMain stops the adapters the tests shared.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	os.Exit(code)
}

// startDiffer starts the adapters, once for every test of the run;
// without an interpreter it skips the test, except with CI set, where it
// fails (as the pure functions' differential does).
func startDiffer(t *testing.T) *Differ {
	t.Helper()
	once.Do(func() { shared, sharedErr = NewDiffer(root, 10*time.Minute) })
	if sharedErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the engine differential needs node and python3: %v", sharedErr)
		}
		t.Skipf("no adapter: %v", sharedErr)
	}
	return shared
}

// runSettings are the seed and the number of timelines: the flags, else
// the environment, else a fresh seed and the default count.
func runSettings(t *testing.T) (seed uint64, n int) {
	seed = *flagSeed
	if seed == 0 {
		if s := os.Getenv("ENGINEDIFF_SEED"); s != "" {
			var err error
			if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
				t.Fatalf("ENGINEDIFF_SEED=%q: %v", s, err)
			}
		}
	}
	for seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:]) >> 1 // fits in a signed 64-bit integer too
	}
	n = *flagTimelines
	if n == 0 {
		if s := os.Getenv("ENGINEDIFF_TIMELINES"); s != "" {
			var err error
			if n, err = strconv.Atoi(s); err != nil || n < 1 {
				t.Fatalf("ENGINEDIFF_TIMELINES=%q: want a positive count", s)
			}
		}
	}
	if n == 0 {
		n = 500
		if os.Getenv("CI") != "" && !testing.Short() {
			n = 10000
		}
	}
	return seed, n
}

// TestEngineDifferential generates timelines, replays each through the
// Go, JS and Python engines, and requires the same actions, in the same
// order, at every step. A disagreement a known class explains is counted;
// any other fails the test, minimised.
func TestEngineDifferential(t *testing.T) {
	seed, n := runSettings(t)
	t.Logf("seed %d, %d timelines (replay: go test ./internal/enginediff -run '^TestEngineDifferential$' -seed %d -timelines %d, or ENGINEDIFF_SEED=%d ENGINEDIFF_TIMELINES=%d)",
		seed, n, seed, n, seed, n)
	d := startDiffer(t)
	start := time.Now()
	var found []*Disagreement
	steps := 0
	const chunk = 1000
	for lo := 0; lo < n; lo += chunk {
		var tls []Timeline
		var goSteps [][][]string
		for i := lo; i < min(lo+chunk, n); i++ {
			tl, g := Generate(seed, i)
			tls, goSteps = append(tls, tl), append(goSteps, g)
			steps += len(tl.Steps)
		}
		outs, err := d.Outcomes(tls, goSteps)
		if err != nil {
			t.Fatal(err)
		}
		for i, tl := range tls {
			if dis := Compare(tl, outs[i]); dis != nil {
				found = append(found, dis)
			}
		}
	}
	elapsed := time.Since(start)
	t.Logf("timelines: %d (%d steps) in %v, %.0f timelines/s; disagreements: %d", n, steps, elapsed.Round(time.Millisecond),
		float64(n)/elapsed.Seconds(), len(found))

	// Classify every disagreement. A known class's minimised timeline is
	// in testdata (-update minimises the shortest of this run and keeps it
	// if it is shorter); every new one is minimised and fails the test
	// (the first few of each split, and at most five: the others are
	// named, to replay from the seed).
	byKey := map[string][]*Disagreement{}
	involved := map[string]int{} // timelines each known class explains (in part)
	for _, dis := range found {
		v, err := Classify(dis, d)
		if err != nil {
			t.Fatal(err)
		}
		byKey[v.Key()] = append(byKey[v.Key()], dis)
		for _, c := range v.Classes {
			involved[c]++
		}
	}
	for _, c := range Known {
		t.Logf("known class %s: %d timelines (%d first); minimised: testdata/%s.json", c.Name, involved[c.Name], len(byKey[c.Name]), c.Name)
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	newShown := 0
	for _, key := range keys {
		list := byKey[key]
		slices.SortStableFunc(list, func(a, b *Disagreement) int { return cmp.Compare(len(a.Timeline.Steps), len(b.Timeline.Steps)) })
		isNew := strings.HasPrefix(key, "new ")
		if !isNew && !*flagUpdate {
			continue
		}
		shown := list[:1]
		if isNew {
			shown = list[:min(len(list), 3)]
			if newShown >= 5 {
				t.Errorf("NEW disagreement %s on %d timelines, e.g. %s (not minimised; replay the seed)", key, len(list), list[0].Timeline.ID)
				continue
			}
			newShown += len(shown)
		}
		for _, dis := range shown {
			m, err := minimiseAs(d, dis, key)
			if err != nil {
				t.Fatal(err)
			}
			if isNew {
				t.Errorf("NEW disagreement (%s; %d timelines) on %s, minimised:\n%s", key, len(list), dis.Timeline.ID, m)
				continue
			}
			t.Logf("known class %s, minimised from %s (%d steps):\n%s", key, dis.Timeline.ID, len(dis.Timeline.Steps), m)
			writeTestdata(t, key, m.Timeline)
		}
	}
}

// minimiseAs minimises dis while it is still classified as key.
func minimiseAs(d *Differ, dis *Disagreement, key string) (*Disagreement, error) {
	var last *Disagreement
	keep := func(tl Timeline) (bool, error) {
		nd, err := d.Disagreement(tl)
		if err != nil || nd == nil {
			return false, err
		}
		v, err := Classify(nd, d)
		if err != nil || v.Key() != key {
			return false, err
		}
		last = nd
		return true, nil
	}
	ok, err := keep(dis.Timeline)
	if err != nil || !ok {
		return dis, err // not reproducible alone: shown as found
	}
	tl, err := Minimise(dis.Timeline, keep)
	if err != nil {
		return nil, err
	}
	if _, err := keep(tl); err != nil {
		return nil, err
	}
	last.Timeline.ID = dis.Timeline.ID + "-min"
	return last, nil
}
