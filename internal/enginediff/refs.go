package enginediff

// The other engines: one adapter process each (conformance/js/adapter.mjs
// under node, conformance/python/adapter.py under python3), spoken to
// through the conformance protocol's scenarios area, many timelines in
// flight at once.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Adapter is an engine beside Go: a conformance adapter that implements
// the scenarios area.
type Adapter struct {
	// Name is the engine's name in Engines.
	Name string
	// Interpreter runs Script, a path from the repository's root.
	Interpreter, Script string
}

// Adapters are the engines beside Go.
var Adapters = []Adapter{
	{"js", "node", "conformance/js/adapter.mjs"},
	{"python", "python3", "conformance/python/adapter.py"},
}

// Ref is a running adapter.
type Ref struct {
	Name string
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	mu   sync.Mutex // one exchange at a time
	next int        // the next request number
	done chan error
	log  *lockedWriter // its stderr, for errors
	stop context.CancelFunc
}

type request struct {
	ID       string   `json:"id"`
	Area     string   `json:"area"`
	Function string   `json:"function"`
	Input    Timeline `json:"input"`
}

type response struct {
	ID     string `json:"id"`
	Result *struct {
		Steps []struct {
			Actions []string `json:"actions"`
		} `json:"steps"`
	} `json:"result"`
	Error *struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"error"`
	Implements []string `json:"implements"`
}

// Outcome is what one engine answered for one timeline: the actions of
// every step, or an error (the engine refused the timeline or failed).
type Outcome struct {
	Steps [][]string
	Err   string
}

// Start runs adapter name from the repository root and says hello; the
// process is stopped by Close, or by the deadline at the latest. It fails
// when the interpreter is missing or the adapter does not implement the
// scenarios area.
func Start(root, name string, deadline time.Duration) (*Ref, error) {
	i := slices.IndexFunc(Adapters, func(a Adapter) bool { return a.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("no adapter %q", name)
	}
	a := Adapters[i]
	path, err := exec.LookPath(a.Interpreter)
	if err != nil {
		return nil, err
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	cmd := exec.CommandContext(ctx, path, filepath.Join(root, a.Script))
	cmd.Dir = root
	ownGroup(cmd)
	ref := &Ref{Name: name, cmd: cmd, done: make(chan error, 1), log: &lockedWriter{}, stop: cancel}
	cmd.Stderr = ref.log
	if ref.in, err = cmd.StdinPipe(); err != nil {
		cancel()
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	ref.out = bufio.NewReaderSize(out, 1<<20)
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, err
	}
	go func() { ref.done <- cmd.Wait() }()
	hello := map[string]any{"type": "hello", "protocol": 1, "areas": []string{"rtb1", "transport", "hosts", "preference", "scenarios"},
		"domains": []string{"all", "spec"}}
	b, _ := json.Marshal(hello)
	var resp response
	if _, err := ref.in.Write(append(b, '\n')); err != nil {
		ref.Close()
		return nil, fmt.Errorf("%s: hello: %v", name, err)
	}
	line, err := ref.out.ReadBytes('\n')
	if err == nil {
		err = json.Unmarshal(line, &resp)
	}
	if err != nil {
		ref.Close()
		return nil, fmt.Errorf("%s: hello: %v (stderr: %s)", name, err, ref.log)
	}
	if !slices.Contains(resp.Implements, "scenarios") {
		ref.Close()
		return nil, fmt.Errorf("%s does not implement the scenarios area (hello %s)", name, strings.TrimSpace(string(line)))
	}
	return ref, nil
}

// Close ends the adapter's input, waits a moment for it to exit, and
// stops its process group if it has not.
func (r *Ref) Close() {
	_ = r.in.Close()
	select {
	case <-r.done:
	case <-time.After(2 * time.Second):
		killGroup(r.cmd)
		<-r.done
	}
	r.stop()
}

// Run replays the timelines through the adapter, all of them in flight at
// once (a writer feeds the requests while the answers are read), and
// returns the outcome of each, in order.
func (r *Ref) Run(tls []Timeline) ([]Outcome, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	base := r.next
	r.next += len(tls)
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(r.in, 1<<20)
		enc := json.NewEncoder(w)
		for i, tl := range tls {
			tl.ID, tl.Comment = "", ""
			if err := enc.Encode(request{ID: fmt.Sprintf("t%d", base+i), Area: "scenarios", Function: "scenario", Input: tl}); err != nil {
				werr <- err
				return
			}
		}
		werr <- w.Flush()
	}()
	outs := make([]Outcome, len(tls))
	for i := range tls {
		line, err := r.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: reading the answer to timeline %s: %v (stderr: %s)", r.Name, tls[i].ID, err, r.log)
		}
		var resp response
		if err := json.Unmarshal(line, &resp); err != nil {
			return nil, fmt.Errorf("%s: the answer to timeline %s is not JSON: %v", r.Name, tls[i].ID, err)
		}
		if want := fmt.Sprintf("t%d", base+i); resp.ID != want {
			return nil, fmt.Errorf("%s: answer %q where %q was due", r.Name, resp.ID, want)
		}
		switch {
		case resp.Error != nil:
			outs[i].Err = "error: " + resp.Error.Message
		case resp.Result == nil:
			outs[i].Err = "no result"
		default:
			for _, st := range resp.Result.Steps {
				outs[i].Steps = append(outs[i].Steps, append([]string{}, st.Actions...))
			}
		}
	}
	if err := <-werr; err != nil {
		return nil, fmt.Errorf("%s: writing: %v", r.Name, err)
	}
	return outs, nil
}

// lockedWriter keeps the process's stderr (its last 4 KiB) for the
// errors: written by the process's copier, read by the reporter.
type lockedWriter struct {
	mu sync.Mutex
	b  []byte
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	if len(l.b) > 4096 {
		l.b = append(l.b[:0], l.b[len(l.b)-4096:]...)
	}
	return len(p), nil
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.TrimSpace(string(l.b))
}
