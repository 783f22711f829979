package sdk

import (
	"log/slog"
	"sync"
	"sync/atomic"
)

// shared is what a Client's transports share with it.
type shared struct {
	log       *slog.Logger
	token     string
	onMessage func(string)
	wg        sync.WaitGroup // every goroutine of every transport
	// unclean: a transport was deactivated for a requested close before
	// the server confirmed it (transport.Deactivated).
	unclean atomic.Bool

	mu      sync.Mutex
	changed chan struct{} // closed and replaced at each state change
}

// changes returns a channel closed at the next state change.
func (sh *shared) changes() <-chan struct{} {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.changed == nil {
		sh.changed = make(chan struct{})
	}
	return sh.changed
}

func (sh *shared) noteChange() {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.changed != nil {
		close(sh.changed)
	}
	sh.changed = make(chan struct{})
}
