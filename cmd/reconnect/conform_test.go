//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary be the command itself, so that a test can
// signal a real reconnect process.
func TestMain(m *testing.M) {
	if os.Getenv("RECONNECT_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}

// SIGTERM to the harness stops the adapter's whole process group and still
// prints the report, with exit status 1.
func TestConformSIGTERMStopsTheAdapterAndPrintsTheReport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and signals its adapter process group; runs without -short")
	}
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	// The adapter: a shell that records its pid and a child's, then never
	// answers the hello.
	script := "sleep 3600 & echo $$ $! > " + started + ".tmp; mv " + started + ".tmp " + started + "; wait"
	cmd := exec.Command(os.Args[0], "conform", "--startup", "10m", "--", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "RECONNECT_TEST_MAIN=1")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pids []int
	for deadline := time.Now().Add(2 * time.Minute); ; {
		if b, err := os.ReadFile(started); err == nil {
			for _, f := range strings.Fields(string(b)) {
				pid, _ := strconv.Atoi(f)
				pids = append(pids, pid)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the adapter never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the harness did not stop within a minute of SIGTERM")
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1; output:\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "STOPPED: no answer to hello (stopped): interrupted") || !strings.Contains(out.String(), " not run;") {
		t.Fatalf("no partial report:\n%s", out.String())
	}
	for _, pid := range pids {
		if pid > 0 && syscall.Kill(pid, 0) == nil {
			// A zombie waiting for init is gone for every purpose.
			if b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); !strings.Contains(string(b), ") Z ") {
				t.Errorf("adapter process %d is still running", pid)
			}
		}
	}
}
