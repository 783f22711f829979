//go:build unix

package conform

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hostile runs the suite's rtb1 cases against argv with CONFORM_FAKE=b and
// checks that the run ends within limit plus the stop sequence and a
// margin for a loaded machine, and that no process of the adapter's group
// is left.
func hostile(t tb, b string, argv []string, opt Options, limit time.Duration) Report {
	t.Helper()
	opt.env = []string{"CONFORM_FAKE=" + b}
	var pgid int
	opt.started = func(pid int) { pgid = pid }
	if opt.Only == nil {
		opt.Only = []string{AreaRTB1}
	}
	start := time.Now()
	s, err := loadedSuite()
	if err != nil {
		t.Errorf("%v", err)
		return Report{}
	}
	s.Cases = slices.Clone(s.Cases)
	rep, err := RunCommand(context.Background(), s, argv, opt)
	if err != nil {
		t.Errorf("%v", err)
		return rep
	}
	// The limit runs from the harness's last wait (for the hello, or for
	// the answer that never came); the stop sequence and a margin for a
	// loaded machine come on top.
	from := rep.waitFrom
	if from.IsZero() {
		from = start
	}
	bound := limit + exitGrace + 2*killGrace + pipeWait + 10*time.Second
	if elapsed := time.Since(from); elapsed > bound {
		t.Errorf("the run took %v after its last wait began, more than %v", elapsed, bound)
	}
	if pgid == 0 {
		t.Errorf("the adapter did not start")
		return rep
	}
	if groupAlive(pgid) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		t.Errorf("a process of the adapter's group %d was left running", pgid)
	}
	return rep
}

func self(t *testing.T) []string {
	t.Helper()
	return []string{os.Args[0], "-test.run=^$"}
}

// The shapes a team starts its adapter in: directly, through sh -c, in a
// pipeline.
func launchers(t *testing.T) map[string][]string {
	bin := strings.Join(self(t), " ")
	return map[string][]string{
		"direct":   self(t),
		"sh -c":    {"sh", "-c", bin + "; true"},
		"pipeline": {"sh", "-c", bin + " | cat"},
	}
}

var (
	// roomy limits: no answer of a working adapter comes near them
	roomy = Options{Startup: 60 * time.Second, Timeout: 30 * time.Second}
	// answerLimit is the per-answer limit of the runs that hang mid-run;
	// the two answers before the hang come from a process already running.
	answerLimit = 5 * time.Second
)

func TestHostileAdaptersEndWithinTheirLimitAndLeaveNoProcess(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts many adapter processes; runs without -short")
	}
	type hcase struct {
		behaviour string
		opt       Options
		limit     time.Duration
		want      string // in Report.Broken or Stopped
	}
	cases := []hcase{
		{"no-hello", Options{Startup: 2 * time.Second, Timeout: 30 * time.Second}, 2 * time.Second, "no answer to hello (nothing within 2s)"},
		{"hang", Options{Startup: 60 * time.Second, Timeout: answerLimit}, answerLimit, "no answer to case rtb1"},
		{"ignore-term", Options{Startup: 60 * time.Second, Timeout: answerLimit}, answerLimit, "no answer to case rtb1"},
		{"fork-hang", Options{Startup: 60 * time.Second, Timeout: answerLimit}, answerLimit, "no answer to case rtb1"},
		// In a pipeline the forked child keeps the pipe into cat open, so
		// the harness sees no end of output and the limit decides.
		{"fork-exit", Options{Startup: 60 * time.Second, Timeout: answerLimit}, answerLimit, "no answer to case rtb1"},
		{"fork-exit-at-hello", Options{Startup: 10 * time.Second, Timeout: answerLimit}, 10 * time.Second, "no answer to hello ("},
		{"crash", roomy, 0, "no answer to case rtb1"},
		{"deadline", Options{Startup: 60 * time.Second, Timeout: 30 * time.Second, Deadline: 3 * time.Second}, 3 * time.Second, "the whole-run deadline passed (3s)"},
	}
	// Every run mostly waits: run them all at once (24 runs, each of a
	// few processes), beyond -test.parallel.
	type outcome struct {
		name string
		rep  Report
		errs []string
	}
	var wg sync.WaitGroup
	results := make(chan outcome, 64)
	sem := make(chan struct{}, 24)
	for name, argv := range launchers(t) {
		for _, c := range cases {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				b := c.behaviour
				if b == "deadline" {
					b = "hang"
				}
				rec := &recorder{}
				rep := hostile(rec, b, argv, c.opt, c.limit)
				results <- outcome{name + "/" + c.behaviour, rep, rec.errs}
				_ = c
			}()
		}
	}
	wg.Wait()
	close(results)
	want := map[string]string{}
	for _, c := range cases {
		want[c.behaviour] = c.want
	}
	for o := range results {
		for _, e := range o.errs {
			t.Errorf("%s: %s", o.name, e)
		}
		w := want[o.name[strings.LastIndexByte(o.name, '/')+1:]]
		got := o.rep.Broken + o.rep.Stopped
		if !strings.Contains(got, w) || strings.Contains(got, "\n") {
			t.Errorf("%s: Broken+Stopped = %q, want one line containing %q", o.name, got, w)
		}
		if o.rep.ExitCode() == ExitPass {
			t.Errorf("%s: a broken run passed", o.name)
		}
	}
}

// recorder collects a helper's complaints from another goroutine.
type recorder struct {
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// tb is what hostile needs of a test.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
}

func TestAdapterStartedWithGoRunIsStoppedWithItsChildren(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a program")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	// go run builds first: the start-up limit is generous, the answer
	// limit short.
	opt := Options{Startup: 5 * time.Minute, Timeout: answerLimit}
	start := time.Now()
	var pgid int
	opt.started = func(pid int) { pgid = pid }
	opt.Only = []string{AreaRTB1}
	rep, err := RunCommand(context.Background(), suite(t), []string{"go", "run", "./testdata/hangadapter"}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Broken, "no answer to case rtb1") {
		t.Fatalf("Broken = %q", rep.Broken)
	}
	if groupAlive(pgid) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		t.Fatal("a process of the adapter's group was left running")
	}
	t.Logf("go run adapter stopped after %v", time.Since(start))
}

func TestInterruptStopsTheAdapterAndKeepsThePartialReport(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts many adapter processes; runs without -short")
	}
	ctx, cancel := context.WithCancel(context.Background())
	var pgid int
	var mu sync.Mutex
	opt := roomy
	opt.Only = []string{AreaRTB1}
	opt.env = []string{"CONFORM_FAKE=hang"}
	opt.started = func(pid int) {
		mu.Lock()
		pgid = pid
		mu.Unlock()
		// The adapter hangs at the third case; interrupt well after.
		time.AfterFunc(2*time.Second, cancel)
	}
	rep, err := RunCommand(ctx, suite(t), self(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	// However slow the machine, the adapter hangs at the third case: the
	// interrupt finds at most two cases answered and the rest not run.
	if !strings.Contains(rep.Stopped, "interrupted") || rep.Passed > 2 || rep.Failed != 0 || rep.NotRun == 0 {
		t.Fatalf("Stopped = %q, %s", rep.Stopped, rep.Summary())
	}
	if groupAlive(pgid) {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		t.Fatal("the adapter's group was left running")
	}
	if rep.ExitCode() != ExitFail {
		t.Fatalf("exit code %d", rep.ExitCode())
	}
}

func TestCrashShowsTheLastTwentyStderrLinesAndTheSameMessageEveryRun(t *testing.T) {
	var first string
	for i := range 5 {
		rep := hostile(t, "crash", self(t), roomy, 0)
		if i == 0 {
			first = rep.Broken
			if len(rep.StderrTail) != tailLines || rep.StderrTail[tailLines-1] != "panic: adapter fell over" || rep.StderrTail[0] != "stderr line 6" {
				t.Fatalf("stderr tail = %q", rep.StderrTail)
			}
			if !strings.HasSuffix(first, "adapter exit status 3") {
				t.Fatalf("Broken = %q", first)
			}
		} else if rep.Broken != first {
			t.Fatalf("run %d said %q, run 0 said %q", i, rep.Broken, first)
		}
	}
}

func TestFloodOfStderrIsHarmless(t *testing.T) {
	rep := hostile(t, "flood-stderr", self(t), roomy, 0)
	if rep.ExitCode() != ExitPass {
		t.Fatalf("%s %s", rep.Broken, rep.Summary())
	}
}
