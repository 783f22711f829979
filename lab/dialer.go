package lab

import (
	"context"
	"sync"

	"github.com/reconnect-go/reconnect/runner"
)

// Dialer is a runner.Dialer that opens lab transports through a Client
// and keeps count of them, so that Wait can tell when every transport's
// goroutines have ended. Its zero value is not usable; make one with
// NewDialer.
type Dialer struct {
	c    *Client
	mu   sync.Mutex
	live map[Conn]struct{}
}

// NewDialer returns a Dialer opening transports with c.
func NewDialer(c *Client) *Dialer { return &Dialer{c: c, live: map[Conn]struct{}{}} }

// Open implements runner.Dialer.
func (d *Dialer) Open(_ context.Context, req runner.OpenRequest, rep runner.Reporter) runner.Transport {
	return d.open(req, rep)
}

// open opens the transport req asks for, reporting to rep.
func (d *Dialer) open(req runner.OpenRequest, rep Reporter) Conn {
	conn := d.c.Open(req.Kind, req.Host, req.Mode, rep)
	d.mu.Lock()
	d.live[conn] = struct{}{}
	d.mu.Unlock()
	go func() {
		<-conn.Done()
		d.mu.Lock()
		delete(d.live, conn)
		d.mu.Unlock()
	}()
	return conn
}

// Wait closes every transport still open and waits until the goroutines
// of all of them have ended, or ctx is done.
func (d *Dialer) Wait(ctx context.Context) error {
	d.mu.Lock()
	conns := make([]Conn, 0, len(d.live))
	for c := range d.live {
		conns = append(conns, c)
	}
	d.mu.Unlock()
	for _, c := range conns {
		c.Close()
		select {
		case <-c.Done():
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
