package runner

import (
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// A cancel for a timer the runner does not hold (the engine never sends
// one today: it cancels only timers it set and that have not fired)
// leaves every held timer as it is.
func TestCancelOfAnUnheldTimerKeepsTheOthers(t *testing.T) {
	due := time.Unix(100, 0)
	c := &core{timers: []liveTimer{
		{id: 1, kind: engine.TimerRetry, due: due},
		{id: 2, kind: engine.TimerConnect, due: due.Add(time.Second)},
	}}
	if got := c.timerIndex(3); got != -1 {
		t.Fatalf("timerIndex(3) = %d, want -1", got)
	}
	c.perform(due, &engine.Action{Kind: engine.ActionCancelTimer, Timer: 3})
	if len(c.timers) != 2 || c.timers[0].id != 1 || c.timers[1].id != 2 {
		t.Fatalf("timers after cancelling an unheld one: %+v", c.timers)
	}
	c.perform(due, &engine.Action{Kind: engine.ActionCancelTimer, Timer: 2})
	if len(c.timers) != 1 || c.timers[0].id != 1 {
		t.Fatalf("timers after cancelling timer 2: %+v", c.timers)
	}
}
