package conform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// tailLines is how many of the adapter's last stderr lines a broken run
// shows.
const tailLines = 20

// tail keeps the last bytes written to it: an adapter may flood stderr
// without the harness holding more than this.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// lines returns the last n non-empty lines, each escaped and clipped.
func (t *tail) lines(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := strings.Split(strings.TrimRight(string(t.buf), "\r\n"), "\n")
	var out []string
	for _, l := range all {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if len(l) > 300 {
			l = l[:300]
		}
		q := Quote(l)
		out = append(out, q[1:len(q)-1])
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return out
}

// The stop sequence: after the run, the adapter gets exitGrace to exit on
// the end of its input; then its whole process group gets SIGTERM, and
// SIGKILL after killGrace more. Pipes still held by a process outside the
// group are closed pipeWait after the adapter exits.
const (
	exitGrace = 2 * time.Second
	killGrace = 2 * time.Second
	pipeWait  = time.Second
)

// RunCommand starts the adapter argv[0] with argv[1:] in a process group
// of its own, runs the suite against it and stops the whole group: it
// closes the adapter's stdin, gives it a moment to exit, then sends the
// group SIGTERM and, after a short grace, SIGKILL, so that no process the
// adapter started (a shell, "go run", "npm run", a pipeline) outlives the
// run. It does the same when ctx is done (an interrupt), returning the
// partial report. When the adapter broke the protocol, the report's Broken
// line ends with its exit status and StderrTail holds its last stderr
// lines. The error is for an adapter that cannot be started.
func RunCommand(ctx context.Context, suite Suite, argv []string, opt Options) (Report, error) {
	if len(argv) == 0 {
		return Report{}, errors.New("no adapter command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	ownGroup(cmd)
	if opt.env != nil {
		cmd.Env = append(os.Environ(), opt.env...)
	}
	cmd.WaitDelay = pipeWait
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Report{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Report{}, err
	}
	errTail := &tail{max: 16 << 10}
	cmd.Stderr = errTail
	if err := cmd.Start(); err != nil {
		return Report{}, fmt.Errorf("cannot start the adapter: %w", err)
	}
	if opt.started != nil {
		opt.started(cmd.Process.Pid)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	rep := Run(ctx, suite, stdin, stdout, opt)

	stdin.Close()
	waitErr, exited := error(nil), false
	select {
	case waitErr = <-done:
		exited = true
	case <-time.After(exitGrace):
	}
	signalled := stopGroup(cmd.Process.Pid, exited, done, &waitErr)
	if rep.Broken != "" {
		rep.Broken += "; adapter " + exitStatus(waitErr, exited, signalled)
		rep.StderrTail = errTail.lines(tailLines)
	}
	return rep, nil
}

// exitStatus describes how the adapter ended, the same way every time.
func exitStatus(err error, exited, signalled bool) string {
	var ee *exec.ExitError
	switch {
	case !exited && signalled:
		return "still running, stopped"
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		return "exited with status 0"
	case errors.As(err, &ee):
		return ee.String()
	}
	return err.Error()
}

// RunSelf runs the suite against the Go implementation through the same
// protocol, in-process over pipes.
func RunSelf(ctx context.Context, suite Suite, opt Options) Report {
	return RunHandler(ctx, suite, Self{}.Handle, opt)
}

// RunHandler runs the suite against an in-process adapter h over pipes.
func RunHandler(ctx context.Context, suite Suite, h Handler, opt Options) Report {
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	go func() {
		err := Serve(h, reqR, respW)
		respW.CloseWithError(err)
	}()
	rep := Run(ctx, suite, reqW, respR, opt)
	reqW.Close()
	respR.Close()
	return rep
}
