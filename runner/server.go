package runner

// The server speaks (RTN21, RTN24, RTN4h): the UPDATE a change of the
// connection's conditions makes while it stays CONNECTED.

import (
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// update queues an UPDATE (RTN4h) for OnStateChange: the conditions of
// the CONNECTED connection changed without a state change (new details,
// a new active transport, an error). It names the active transport.
func (c *core) update(now time.Time, a *engine.Action) {
	ch := StateChange{At: now, From: engine.Connected, To: engine.Connected, Reason: a.Reason, Failure: a.Failure, Update: true}
	c.name(&ch, c.activeID)
	c.out.changes = append(c.out.changes, ch)
}
