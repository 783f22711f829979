//go:build unix

package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ablyVersion is the ably-js release the engine's PolicyWebSocketCheck is
// compared with; package.json pins it.
const ablyVersion = "2.28.0"

const minTimelines = 25

// Differences is differences.json: every way the engine's trace may differ
// from ably-js's, and, per timeline, exactly how it does.
type Differences struct {
	Differences map[string]struct {
		// Kept is true for a difference the engine keeps on purpose (a
		// decision), false for one it does not match yet.
		Kept  bool   `json:"kept"`
		Cause string `json:"cause"`
	} `json:"differences"`
	Timelines map[string]Listed `json:"timelines"`
}

// Listed is one timeline's listed difference: the compared trace lines
// only ably-js prints and those only the engine prints.
type Listed struct {
	Because    []string `json:"because"`
	AblyOnly   []string `json:"ablyOnly"`
	EngineOnly []string `json:"engineOnly"`
}

// runDriver runs the Node driver in its own process group with a deadline
// and returns its traces by timeline id.
func runDriver(t *testing.T) map[string][]Entry {
	t.Helper()
	if _, err := os.Stat(filepath.Join(driverDir, "node_modules", "ably", "package.json")); err != nil {
		msg := "ably-js is not installed: run `npm ci` in conformance/ably-js-parity"
		if os.Getenv("RECONNECT_SKIP_ABLYJS") != "" || os.Getenv("CI") == "" {
			t.Skip(msg + " (skipped: set CI or unset RECONNECT_SKIP_ABLYJS to make this fail)")
		}
		t.Fatal(msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "driver.mjs", "timelines.json")
	cmd.Dir = driverDir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // nothing of the group outlives the test
	}
	if err != nil {
		t.Fatalf("node driver.mjs: %v\n%s", err, stderr.String())
	}
	var doc struct {
		Ably      string `json:"ably"`
		Timelines []struct {
			ID    string  `json:"id"`
			Trace []Entry `json:"trace"`
		} `json:"timelines"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("driver output: %v", err)
	}
	if doc.Ably != ablyVersion {
		t.Fatalf("the driver ran ably-js %s, want %s", doc.Ably, ablyVersion)
	}
	out := map[string][]Entry{}
	for _, tl := range doc.Timelines {
		out[tl.ID] = tl.Trace
	}
	return out
}

func loadDifferences(t *testing.T) Differences {
	t.Helper()
	var d Differences
	b, err := os.ReadFile(filepath.Join(driverDir, "differences.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("differences.json: %v", err)
	}
	return d
}

// TestAblyJSParity runs every timeline through the real ably-js and through
// the engine and fails on any difference in the compared trace lines that
// differences.json does not list exactly.
func TestAblyJSParity(t *testing.T) {
	doc, err := Load(filepath.Join(driverDir, "timelines.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Timelines) < minTimelines {
		t.Fatalf("%d timelines, want at least %d", len(doc.Timelines), minTimelines)
	}
	diffs := loadDifferences(t)
	ably := runDriver(t)
	used := map[string]bool{}
	same := 0
	update := os.Getenv("PARITY_UPDATE") != ""
	var mu sync.Mutex
	if update {
		// A maintenance aid: rewrite the per-timeline lines from the current
		// run, keeping each timeline's because list, for a person to check.
		defer func() {
			mu.Lock()
			defer mu.Unlock()
			b, _ := json.MarshalIndent(diffs, "", "  ")
			if err := os.WriteFile(filepath.Join(driverDir, "differences.json"), append(b, '\n'), 0o644); err != nil {
				t.Error(err)
			}
		}()
	}
	for _, tl := range doc.Timelines {
		t.Run(tl.ID, func(t *testing.T) {
			at, ok := ably[tl.ID]
			if !ok {
				t.Fatal("the driver printed no trace")
			}
			et, err := Run(tl)
			if err != nil {
				t.Fatal(err)
			}
			onlyA, onlyE := Diff(Lines(at), Lines(et))
			listed, isListed := diffs.Timelines[tl.ID]
			if update {
				mu.Lock()
				if len(onlyA)+len(onlyE) == 0 {
					delete(diffs.Timelines, tl.ID)
				} else {
					if diffs.Timelines == nil {
						diffs.Timelines = map[string]Listed{}
					}
					diffs.Timelines[tl.ID] = Listed{Because: listed.Because, AblyOnly: onlyA, EngineOnly: onlyE}
				}
				mu.Unlock()
				return
			}
			for _, b := range listed.Because {
				used[b] = true
				if _, ok := diffs.Differences[b]; !ok {
					t.Errorf("differences.json: timeline lists difference %q, which is not defined", b)
				}
			}
			if isListed && len(listed.Because) == 0 {
				t.Error("differences.json: a listed timeline must name its differences in because")
			}
			if len(onlyA) == 0 && len(onlyE) == 0 {
				same++
				if isListed {
					t.Error("differences.json lists a difference, but the traces agree: remove the entry")
				}
				return
			}
			if !isListed || !slices.Equal(onlyA, listed.AblyOnly) || !slices.Equal(onlyE, listed.EngineOnly) {
				got, _ := json.MarshalIndent(Listed{Because: listed.Because, AblyOnly: onlyA, EngineOnly: onlyE}, "    ", "  ")
				t.Errorf("the engine differs from ably-js %s in a way differences.json does not list:\n"+
					"  ably-js:\n    %s\n  engine:\n    %s\n  as listed it would read:\n    %s",
					ablyVersion, strings.Join(Lines(at), "\n    "), strings.Join(Lines(et), "\n    "), got)
			}
		})
	}
	for id := range diffs.Timelines {
		if _, ok := ably[id]; !ok {
			t.Errorf("differences.json lists timeline %q, which does not exist", id)
		}
	}
	for id := range diffs.Differences {
		if !used[id] {
			t.Errorf("differences.json defines difference %q, which no timeline shows", id)
		}
	}
	t.Logf("%d timelines: %d agree line for line, %d differ as listed", len(doc.Timelines), same, len(doc.Timelines)-same)
	if !update {
		checkDoc(t, len(doc.Timelines), same)
	}
}

// checkDoc checks that docs/ably-js.md, the page that compares the engine
// with ably-js, states the current counts.
func checkDoc(t *testing.T, timelines, same int) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "ably-js.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{
		fmt.Sprintf("on %d timelines", timelines),
		fmt.Sprintf("%d timelines agree line for line", same),
		"ably-js **" + ablyVersion + "**",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("docs/ably-js.md does not say %q", want)
		}
	}
}
