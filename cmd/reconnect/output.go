package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// output is a file the command writes after a long run. It is created
// (as a temporary file beside the target) before the run, so that a bad
// path is reported at once, and renamed into place when finished.
type output struct {
	flag string
	path string
	tmp  *os.File
}

// createOutput checks and prepares path, given with --svg; an empty path
// gives a nil output.
func createOutput(path string) (*output, error) { return createFlagOutput("--svg", path) }

// createFlagOutput checks and prepares path, given with flag; an empty
// path gives a nil output.
func createFlagOutput(flag, path string) (*output, error) {
	if path == "" {
		return nil, nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, usagef("%s %s: is a directory; want a file path", flag, path)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("%s %s: the directory %s does not exist; want a path in an existing directory", flag, path, dir)
	case errors.Is(err, fs.ErrPermission):
		return nil, usagef("%s %s: no permission to write in %s; want a writable directory", flag, path, dir)
	case err != nil:
		return nil, usagef("%s %s: cannot write there (%v); want a writable file path", flag, path, err)
	}
	return &output{flag: flag, path: path, tmp: tmp}, nil
}

// finish writes the content and moves it into place.
func (o *output) finish(write func(io.Writer) error) error {
	err := write(o.tmp)
	if cerr := o.tmp.Chmod(0o644); err == nil {
		err = cerr
	}
	if cerr := o.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.tmp.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.tmp.Name())
		return fmt.Errorf("%s %s: %v", o.flag, o.path, err)
	}
	return nil
}

// abandon removes the temporary file; a nil output does nothing.
func (o *output) abandon() {
	if o != nil {
		o.tmp.Close()
		os.Remove(o.tmp.Name())
	}
}

// progress reports a long run's progress and estimated time left on
// stderr, once the run has taken longer than progressAfter: on a terminal
// as one line rewritten in place, elsewhere as a line every few seconds.
type progress struct {
	w        io.Writer
	what     string
	tty      bool
	start    time.Time
	last     time.Time
	printed  bool
	now      func() time.Time
	interval time.Duration
}

const progressAfter = 2 * time.Second

func newProgress(stderr io.Writer, what string) *progress {
	p := &progress{w: stderr, what: what, now: time.Now, interval: 5 * time.Second}
	if f, ok := stderr.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty, p.interval = true, 200*time.Millisecond
		}
	}
	p.start = p.now()
	return p
}

// update reports that done of total parts are finished.
func (p *progress) update(done, total int) {
	if p == nil || total <= 0 {
		return
	}
	now := p.now()
	elapsed := now.Sub(p.start)
	if done >= total {
		if p.printed && p.tty {
			fmt.Fprint(p.w, "\r\033[K")
		}
		return
	}
	if elapsed < progressAfter || (p.printed && now.Sub(p.last) < p.interval) || done == 0 {
		return
	}
	eta := time.Duration(float64(elapsed) * float64(total-done) / float64(done)).Round(time.Second)
	line := fmt.Sprintf("%s %d/%d, about %v left", p.what, done, total, eta)
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	} else {
		fmt.Fprintln(p.w, line)
	}
	p.printed, p.last = true, now
}
