package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// conform -h names the protocol document and shows a minimal adapter.
func TestConformHelpNamesTheProtocolAndAMinimalAdapter(t *testing.T) {
	out, _, status := runCLI("conform", "-h")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	for _, want := range []string{`fixtures/README.md, section "Conformance protocol"`, "conformance/js/adapter.mjs", minimalAdapter, "--max-failures"} {
		if !strings.Contains(out, want) {
			t.Errorf("conform -h lacks %q:\n%s", want, out)
		}
	}
	for _, path := range []string{"../../fixtures/README.md", "../../conformance/js/adapter.mjs"} {
		if _, err := os.Stat(path); err != nil {
			t.Errorf("the help names %s: %v", path, err)
		}
	}
	// The protocol document shows the same minimal adapter.
	doc, err := os.ReadFile("../../fixtures/README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```python\n"+unindent(minimalAdapter)+"\n```") {
		t.Errorf("fixtures/README.md does not show the help's minimal adapter")
	}
}

func unindent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "  ")
	}
	return strings.Join(lines, "\n")
}

// minimalScript writes the help's minimal adapter to a file, unindented.
func minimalScript(t *testing.T) (python, path string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	path = filepath.Join(t.TempDir(), "minimal.py")
	if err := os.WriteFile(path, []byte(unindent(minimalAdapter)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return python, path
}

// The help's minimal adapter speaks the protocol: every backoffCoefficient
// case passes, every other RTB1 case fails (an error where a result is
// expected), and nothing breaks.
func TestTheHelpsMinimalAdapterPassesItsCases(t *testing.T) {
	python, path := minimalScript(t)
	out, _, status := runCLI("conform", "--only", "rtb1", "--format", "json", "--", python, path)
	var rep struct {
		Passed   int    `json:"passed"`
		Failed   int    `json:"failed"`
		Broken   string `json:"broken"`
		Failures []struct {
			Function string `json:"function"`
		} `json:"failures"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if status != 1 || rep.Broken != "" || rep.Passed < 20 || rep.Failed == 0 {
		t.Fatalf("status %d, %d passed, %d failed, broken %q", status, rep.Passed, rep.Failed, rep.Broken)
	}
	for _, f := range rep.Failures {
		if f.Function == "backoffCoefficient" {
			t.Errorf("a backoffCoefficient case failed")
		}
	}
}

// --max-failures N stops after N failed cases with a partial report and
// exit status 1; the verdict and summary come first as well as last once
// the failures are many.
func TestConformMaxFailuresStopsEarly(t *testing.T) {
	if _, _, status := runCLI("conform", "--self", "--max-failures", "-1"); status != 2 {
		t.Errorf("--max-failures -1: status %d, want 2", status)
	}
	python, path := minimalScript(t)
	out, _, status := runCLI("conform", "--only", "rtb1", "--max-failures", "12", "--", python, path)
	if status != 1 || !strings.Contains(out, "STOPPED: after 12 failed cases (--max-failures 12)") || !strings.Contains(out, " 12 failed, ") {
		t.Fatalf("status %d:\n%s", status, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[1], "STOPPED:") || lines[2] != lines[len(lines)-1] || strings.Contains(lines[2], " 0 not run") {
		t.Fatalf("want the verdict and the summary first and last:\n%s", out)
	}
}
