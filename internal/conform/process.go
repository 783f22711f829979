package conform

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

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

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// RunCommand starts the adapter argv[0] with argv[1:], runs the suite
// against it and stops it: it closes the adapter's stdin, gives it a moment
// to exit, and kills it otherwise. When the adapter broke the protocol, the
// report's Broken line ends with its exit status and last stderr line.
func RunCommand(suite Suite, argv []string, opt Options) (Report, error) {
	if len(argv) == 0 {
		return Report{}, errors.New("no adapter command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Report{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Report{}, err
	}
	errTail := &tail{max: 4096}
	cmd.Stderr = errTail
	if err := cmd.Start(); err != nil {
		return Report{}, fmt.Errorf("cannot start the adapter: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	rep := Run(suite, stdin, stdout, opt)

	stdin.Close()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-time.After(time.Second):
		_ = cmd.Process.Kill()
		waitErr = <-done
	}
	if rep.Broken != "" {
		status := "still running, killed"
		if waitErr == nil {
			status = "exit status 0"
		} else if ee, ok := waitErr.(*exec.ExitError); ok {
			status = ee.String()
		}
		rep.Broken += "; adapter " + status
		if t := errTail.String(); t != "" {
			rep.Broken += "; last stderr: " + clipString(t)
		}
	}
	return rep, nil
}

func clipString(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// RunSelf runs the suite against the Go implementation through the same
// protocol, in-process over pipes.
func RunSelf(suite Suite, opt Options) Report {
	return RunHandler(suite, Self{}.Handle, opt)
}

// RunHandler runs the suite against an in-process adapter h over pipes.
func RunHandler(suite Suite, h Handler, opt Options) Report {
	reqR, reqW := io.Pipe()
	respR, respW := io.Pipe()
	go func() {
		err := Serve(h, reqR, respW)
		respW.CloseWithError(err)
	}()
	rep := Run(suite, reqW, respR, opt)
	reqW.Close()
	return rep
}
