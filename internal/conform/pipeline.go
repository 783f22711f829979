package conform

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// pipeline writes the requests of cases to w from a goroutine of its own,
// at most window of them ahead of the answers: answered counts one answer
// (call it once per answer read), end stops the writer. The requests are
// written in batches: once window requests are waiting for their answers,
// the writer flushes them and waits until half of them are answered, so
// that an adapter reads many lines per wake-up and the harness reads many
// answers per read. Every Write to w holds whole lines. The lines are the
// ones the lock-step run writes, in the same order.
func pipeline(w io.Writer, cases []Case, window int) (answered, end func()) {
	var (
		mu          sync.Mutex
		room        = sync.NewCond(&mu)
		outstanding int
		stopped     bool
	)
	// wait blocks until at most half the window is outstanding; false
	// when the run has ended.
	wait := func() bool {
		mu.Lock()
		defer mu.Unlock()
		for outstanding > window/2 && !stopped {
			room.Wait()
		}
		return !stopped
	}
	go func() {
		bw := bufio.NewWriterSize(w, 64<<10)
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		for _, c := range cases {
			mu.Lock()
			full, ended := outstanding >= window, stopped
			if !full {
				outstanding++
			}
			mu.Unlock()
			if ended {
				return
			}
			if full {
				if bw.Flush() != nil || !wait() {
					return
				}
				mu.Lock()
				outstanding++
				mu.Unlock()
			}
			line.Reset()
			if enc.Encode(c.request()) != nil {
				return
			}
			if bw.Available() < line.Len() && bw.Flush() != nil {
				return
			}
			// A line longer than the buffer goes to w in one Write.
			if _, err := bw.Write(line.Bytes()); err != nil {
				return
			}
		}
		_ = bw.Flush()
	}()
	answered = func() {
		mu.Lock()
		outstanding--
		if outstanding <= window/2 {
			room.Signal()
		}
		mu.Unlock()
	}
	end = func() {
		mu.Lock()
		stopped = true
		room.Signal()
		mu.Unlock()
	}
	return answered, end
}
