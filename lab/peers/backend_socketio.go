package peers

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// socketIOBackend is socket.io's server, in Node (node/socketio-server.mjs),
// greeting every connection with an application message.
type socketIOBackend struct {
	dir      string
	hb       Heartbeat
	deadline time.Duration
	port     int
	proc     *nodeProc
}

func newSocketIOBackend(dir string, hb Heartbeat, deadline time.Duration) (*socketIOBackend, error) {
	b := &socketIOBackend{dir: dir, hb: hb, deadline: deadline}
	if err := b.start(); err != nil {
		return nil, err
	}
	return b, nil
}

// start runs the server (on b.port, or any port the first time) and
// waits until it listens.
func (b *socketIOBackend) start() error {
	args := []string{"--port", strconv.Itoa(b.port)}
	if b.hb.Interval > 0 {
		args = append(args, "--ping-interval-ms", strconv.FormatInt(b.hb.Interval.Milliseconds(), 10))
	}
	if b.hb.Timeout > 0 {
		args = append(args, "--ping-timeout-ms", strconv.FormatInt(b.hb.Timeout.Milliseconds(), 10))
	}
	var once sync.Once
	ready := make(chan struct{})
	port := 0
	proc, err := startNode(b.dir, "socketio-server.mjs", args, b.deadline, func(line []byte) {
		var l struct {
			Event string `json:"event"`
			Port  int    `json:"port"`
		}
		if json.Unmarshal(line, &l) == nil && l.Event == "listening" {
			once.Do(func() { port = l.Port; close(ready) })
		}
	})
	if err != nil {
		return err
	}
	select {
	case <-ready:
	case <-proc.Done():
		return fmt.Errorf("%w: socketio-server.mjs: %s", errNodeEnded, proc.Stderr())
	case <-time.After(30 * time.Second):
		proc.Stop()
		return fmt.Errorf("peers: socketio-server.mjs did not listen within 30 s: %s", proc.Stderr())
	}
	b.port, b.proc = port, proc
	return nil
}

func (b *socketIOBackend) hosts() []hostAddr {
	return []hostAddr{{name: peerHost, addr: "127.0.0.1:" + strconv.Itoa(b.port)}}
}

// restart kills the server's process and starts a new one on the same
// port.
func (b *socketIOBackend) restart() error {
	b.proc.Stop()
	var err error
	for try := 0; try < 5; try++ {
		if err = b.start(); err == nil {
			return nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	return err
}

func (b *socketIOBackend) close() { b.proc.Stop() }
