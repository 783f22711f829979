package conform

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/internal/exhaustive"
)

// adapterHost is one Node.js process running adapters one after another,
// each in a worker thread of its own (testdata/adapterhost/host.mjs): the
// wrong-adapter suites run hundreds of adapters, and a worker costs about
// half of what a Node.js process does to start. Each adapter is driven by
// Run exactly as RunCommand drives a process: the same lines in, the same
// lines out, its end of input after the run.
type adapterHost struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string // the host's stdout, line by line; closed at its end
	stderr *hostStderr
	exits  int // the "#exit" lines read so far
	// lost is set once the host can no longer be trusted to keep
	// adapters apart (an adapter's exit never came): later runs fail.
	lost error
}

// startAdapterHost starts a host with node; it is stopped when the test
// ends.
func startAdapterHost(t *testing.T, node string) *adapterHost {
	t.Helper()
	cmd := exec.Command(node, "testdata/adapterhost/host.mjs")
	ownGroup(cmd)
	cmd.WaitDelay = pipeWait
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	h := &adapterHost{cmd: cmd, stdin: stdin, lines: make(chan string, 64), stderr: newHostStderr()}
	cmd.Stderr = h.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		br := bufio.NewReaderSize(stdout, 64<<10)
		for {
			line, err := readLine(br)
			if err != nil {
				close(h.lines)
				return
			}
			h.lines <- string(line)
		}
	}()
	t.Cleanup(func() {
		// The host exits at the end of its input; its group goes in any case.
		h.stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var waitErr error
		exited := false
		select {
		case waitErr = <-done:
			exited = true
		case <-time.After(exitGrace + 2*time.Second):
		}
		if stopGroup(cmd.Process.Pid, exited, done, &waitErr) {
			t.Errorf("the adapter host did not exit at the end of its input; stopped")
		}
		if waitErr != nil && !errors.Is(waitErr, exec.ErrWaitDelay) {
			t.Errorf("the adapter host: %v; its stderr: %q", waitErr, h.stderr.lines(tailLines))
		}
	})
	return h
}

// hostStderr keeps the host's stderr as a tail, without the mark line
// the host writes after each adapter's stderr (host.mjs), and counts
// those marks.
type hostStderr struct {
	tail
	mu      sync.Mutex
	partial []byte
	marks   int
	changed chan struct{} // closed and replaced when marks goes up
}

const stderrMark = "#stderr-end"

func newHostStderr() *hostStderr {
	return &hostStderr{tail: tail{max: 16 << 10}, changed: make(chan struct{})}
}

func (h *hostStderr) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.partial = append(h.partial, p...)
	for {
		i := bytes.IndexByte(h.partial, '\n')
		if i < 0 {
			break
		}
		line := h.partial[:i+1]
		if string(line[:i]) == stderrMark {
			h.marks++
			close(h.changed)
			h.changed = make(chan struct{})
		} else {
			h.tail.Write(line)
		}
		h.partial = h.partial[i+1:]
	}
	if len(h.partial) > h.tail.max {
		h.tail.Write(h.partial)
		h.partial = h.partial[:0]
	}
	return len(p), nil
}

// waitMarks waits until n marks have been read, at most limit; it
// reports whether they have.
func (h *hostStderr) waitMarks(n int, limit time.Duration) bool {
	deadline := time.After(limit)
	for {
		h.mu.Lock()
		marks, changed := h.marks, h.changed
		h.mu.Unlock()
		if marks >= n {
			return true
		}
		select {
		case <-changed:
		case <-deadline:
			return false
		}
	}
}

// hostWriter passes Run's lines to the host until it is closed; every
// Write holds whole lines (Run's pipeline writes them so), so that no
// control line lands inside one.
type hostWriter struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (w *hostWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return 0, errors.New("the adapter's input has ended")
	}
	return w.w.Write(p)
}

func (w *hostWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// run runs the suite against the adapter file main in a new worker, as
// RunCommand runs a process: Run over its stdin and stdout, then the end of
// its input and the wait for its exit. A broken run's report says how the
// adapter ended, as RunCommand's does.
func (h *adapterHost) run(ctx context.Context, suite Suite, main string, opt Options) (Report, error) {
	if h.lost != nil {
		return Report{}, h.lost
	}
	if strings.ContainsAny(main, "\n") {
		return Report{}, fmt.Errorf("adapter path %q holds a line break", main)
	}
	if _, err := io.WriteString(h.stdin, "#run "+main+"\n"); err != nil {
		return Report{}, fmt.Errorf("the adapter host: %w", err)
	}
	// The adapter's output goes to Run through a pipe until its "#exit"
	// line; after Run, the rest is drained.
	pr, pw := io.Pipe()
	exit := make(chan string, 1)
	go func() {
		defer pw.Close()
		deliver := true
		for line := range h.lines {
			if code, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "#exit "); ok {
				exit <- code
				return
			}
			if deliver {
				if _, err := pw.Write([]byte(line)); err != nil {
					deliver = false // Run has returned: drain
				}
			}
		}
		exit <- "" // the host itself has gone
	}()
	w := &hostWriter{w: h.stdin}
	rep := Run(ctx, suite, w, pr, opt)
	w.close()
	pr.CloseWithError(errors.New("the run has ended"))
	if _, err := io.WriteString(h.stdin, "#end\n"); err != nil {
		return rep, fmt.Errorf("the adapter host: %w", err)
	}
	var code string
	select {
	case code = <-exit:
	case <-time.After(exitGrace + killGrace + 10*time.Second):
		h.lost = errors.New("the adapter host gave no exit for an earlier adapter")
		return rep, errors.New("the adapter host gave no exit for the adapter")
	}
	if code == "" {
		h.lost = fmt.Errorf("the adapter host has gone; its stderr: %q", h.stderr.lines(tailLines))
		return rep, h.lost
	}
	h.exits++
	n, err := strconv.Atoi(code)
	if err != nil {
		return rep, fmt.Errorf("the adapter host's exit line %q", code)
	}
	// The host writes the adapter's stderr, then its stderr mark, before
	// "#exit"; stderr and stdout are read by goroutines of their own, so
	// the tail is complete once the mark has been read too.
	if !h.stderr.waitMarks(h.exits, exitGrace+10*time.Second) {
		h.lost = errors.New("the adapter host's stderr mark for the adapter never came")
		return rep, h.lost
	}
	if rep.Broken != "" {
		// As exitStatus says it of a process.
		status := "exited with status 0"
		if n != 0 {
			status = fmt.Sprintf("exit status %d", n)
		}
		rep.Broken += "; adapter " + status
		rep.StderrTail = h.stderr.lines(tailLines)
	}
	return rep, nil
}

// TestAdapterHostRunsAnAdapterAsAProcessRunsIt checks the adapter host
// against RunCommand: the reference adapter passes the same cases, an
// adapter that crashes or exits mid-run breaks the run with the same
// message, and one that hangs is stopped without stopping the host, which
// then runs the next adapter as before.
func TestAdapterHostRunsAnAdapterAsAProcessRunsIt(t *testing.T) {
	t.Parallel()
	node := mutantRunner(t)
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	reference, err := filepath.Abs("../../conformance/js/adapter.mjs")
	if err != nil {
		t.Fatal(err)
	}
	const hello = `import { createInterface } from "node:readline";
let n = 0;
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line);
  if (req.type === "hello") {
    process.stdout.write(JSON.stringify({ type: "hello", protocol: 1, implements: ["rtb1"], name: "x" }) + "\n");
    return;
  }
  if (++n === 3) BEHAVIOUR;
  process.stdout.write(JSON.stringify({ id: req.id, result: {} }) + "\n");
});
`
	adapters := map[string]string{
		"reference": reference,
		"crash":     write("crash.mjs", "console.error(\"fell over\");\nprocess.exitCode = 3;\nthrow new Error(\"at the start\");\n"),
		"exit":      write("exit.mjs", strings.Replace(hello, "BEHAVIOUR", "process.exit(0)", 1)),
		"exit-2":    write("exit2.mjs", strings.Replace(hello, "BEHAVIOUR", "process.exit(2)", 1)),
		"hang":      write("hang.mjs", strings.Replace(hello, "BEHAVIOUR", "for (;;) {}", 1)),
	}
	s := suite(t)
	if !exhaustive.On() {
		// The default mode compares the two ways of running an adapter
		// on every fourth case (the reference runs three times over
		// them); the exhaustive mode on all.
		kept := s.Cases[:0] // suite's own copy
		for i, c := range s.Cases {
			if exhaustive.Sampled(i, 4) {
				kept = append(kept, c)
			}
		}
		s.Cases = kept
	}
	host := startAdapterHost(t, node)
	// What each adapter gives as a process, run once: the reference runs
	// through the host twice (before the others and after the one that
	// hangs), and as a process the same each time.
	asProcess := map[string]Report{}
	for _, name := range []string{"reference", "crash", "exit", "exit-2", "hang", "reference"} {
		// The answer limit is short only for the adapter that hangs: on a
		// loaded machine a working adapter may pause longer than a second.
		limit := 30 * time.Second
		if name == "hang" {
			limit = time.Second
		}
		opt := Options{Timeout: limit, window: wrongWindow}
		got, err := host.run(context.Background(), s, adapters[name], opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, ok := asProcess[name]
		if !ok {
			want, err = RunCommand(context.Background(), s, []string{node, adapters[name]}, Options{Timeout: limit})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			asProcess[name] = want
		}
		summary := func(r Report) string {
			return fmt.Sprintf("%s; %d failures; broken %q", r.Summary(), len(r.Failures), r.Broken)
		}
		switch name {
		case "reference":
			if got.Failed != 0 || got.Broken != "" || got.Passed < 1000 || summary(got) != summary(want) {
				t.Errorf("reference: through the host %s, as a process %s", summary(got), summary(want))
			}
		case "hang":
			// Both runs break waiting for an answer. A process that hangs
			// is still running when stopped; a worker is terminated 2 s
			// after the end of its input. A worker's stdout is written
			// for it by the host, so the answers it wrote just before it
			// hung can be lost with it: its run breaks at the same case or
			// earlier.
			if !strings.HasPrefix(got.Broken, "no answer to case rtb1") || !strings.HasSuffix(got.Broken, "; adapter exit status 1") ||
				!strings.HasPrefix(want.Broken, "no answer to case rtb1") || got.Passed+got.Failed > want.Passed+want.Failed {
				t.Errorf("hang: through the host %s, as a process %s", summary(got), summary(want))
			}
		default:
			if summary(got) != summary(want) || got.Broken == "" {
				t.Errorf("%s: through the host %s, as a process %s", name, summary(got), summary(want))
			}
		}
		if name == "crash" && !slices.Contains(got.StderrTail, "fell over") {
			t.Errorf("crash: the stderr tail %q does not hold the adapter's line", got.StderrTail)
		}
	}
}
