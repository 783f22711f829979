package peers

import (
	"sync"
	"time"
)

// startHold is how long a cell keeps the start gate after its clients
// started, unless every one has its first message sooner.
const startHold = time.Second

// startGate lets one cell at a time start, when cells run in parallel:
// from its server's start until its clients have their first message, or
// startHold after they started. Starting is what a shared 2-core machine
// measures worst: a Node server or client process booting in one cell
// took the cores from the connects another cell was timing (ours, in the
// lab's own process, start in microseconds and connected beside the
// boots: 67–98 ms on a healthy loopback where they take 2–5 ms). The
// waiting that follows (windows, settles, faults, heartbeats) overlaps
// freely. A nil gate (one cell at a time) lets every cell in.
type startGate chan struct{}

func newStartGate() startGate { return make(startGate, 1) }

// enter waits for the gate and returns the function that leaves it,
// which may be called any number of times, from any goroutine.
func (g startGate) enter() (leave func()) {
	if g == nil {
		return func() {}
	}
	g <- struct{}{}
	var once sync.Once
	return func() { once.Do(func() { <-g }) }
}
