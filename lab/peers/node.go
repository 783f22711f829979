package peers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// nodeProc is one Node program run as a child process in its own process
// group, with a deadline: the program ends itself at the deadline and
// when its standard input closes, and Stop (or the deadline plus a
// second) kills its whole group.
type nodeProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	done   chan struct{}
	stderr *tailBuffer
	once   sync.Once
	kill   *time.Timer
}

// startNode runs `node script args… --deadline-ms D` in dir and hands
// every line it prints on standard output to onLine, from one goroutine,
// in order.
func startNode(dir, script string, args []string, deadline time.Duration, onLine func([]byte)) (*nodeProc, error) {
	if err := CheckNode(dir); err != nil {
		return nil, err
	}
	args = append([]string{script}, args...)
	args = append(args, "--deadline-ms", strconv.FormatInt(deadline.Milliseconds(), 10))
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &nodeProc{cmd: cmd, done: make(chan struct{}), stderr: &tailBuffer{max: 4096}}
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("peers: starting node %s: %w", script, err)
	}
	p.kill = time.AfterFunc(deadline+time.Second, p.killGroup)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			onLine(sc.Bytes())
		}
		_ = cmd.Wait()
		p.kill.Stop()
		close(p.done)
	}()
	return p, nil
}

func (p *nodeProc) killGroup() { _ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }

// Stop closes the program's standard input, kills its process group and
// waits (at most 5 s) for it to end.
func (p *nodeProc) Stop() {
	p.once.Do(func() {
		_ = p.stdin.Close()
		p.killGroup()
	})
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

// Done is closed once the program has ended and its output was read.
func (p *nodeProc) Done() <-chan struct{} { return p.done }

// Stderr returns the end of what the program wrote on standard error.
func (p *nodeProc) Stderr() string { return p.stderr.String() }

// CheckNode reports whether dir holds the Node programs with their
// packages installed, and node runs.
func CheckNode(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "socket.io-client", "package.json")); err != nil {
		return fmt.Errorf("peers: the Node packages are not installed in %s (run `npm ci` there): %w", dir, err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("peers: node is not on the PATH: %w", err)
	}
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = t.b[over:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}

// errNodeEnded is returned when a Node program ended before it said it
// was ready.
var errNodeEnded = errors.New("peers: the node program ended before it was ready")
