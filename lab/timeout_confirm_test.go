package lab

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/internal/sim"
)

// Behind a websocket blackhole both sides rank a longer short circuit
// slower by about the difference, and the table says so.
func TestConfirmTimeoutsRanksABlackholeLikeTheSimulator(t *testing.T) {
	var p Profile
	for _, b := range BuiltinProfiles() {
		if b.Name == "proxy-blackholes-websocket" {
			p = b
		}
	}
	c, err := ConfirmTimeouts(context.Background(), p, TimeoutConfirmOptions{Timeouts: []time.Duration{50 * time.Millisecond, 600 * time.Millisecond},
		SimClients: 100, LabClients: 4, Horizon: 10 * time.Second, Seed: 1, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Points) != 2 || c.Points[1].LabConn != 4 || c.Points[1].SimConn != 100 {
		t.Fatalf("%+v", c)
	}
	sd, ld := c.Points[1].SimDiff, c.Points[1].LabDiff
	if math.Abs(sd.Value-0.55) > 1e-9 || sd.Hi-sd.Lo > 1e-9 {
		t.Errorf("simulator: 600ms is %+v s slower than 50ms; want exactly 0.55 client by client", sd)
	}
	if ld.Value < 0.4 || ld.Value > 0.8 {
		t.Errorf("lab: 600ms is %+v s slower than 50ms; want about 0.55", ld)
	}
	table := Markdown([]TimeoutConfirmation{c}, 0.01)
	if !strings.Contains(table, "| proxy-blackholes-websocket | 600ms | ") || strings.Count(table, "\n") != 4 {
		t.Fatalf("table:\n%s", table)
	}
}

func TestVerdictAgainstTheThreshold(t *testing.T) {
	for _, c := range []struct {
		d    sim.Interval
		want string
	}{
		{sim.Interval{Value: 0, Lo: -0.005, Hi: 0.005}, "same"},
		{sim.Interval{Value: 0.1, Lo: 0.05, Hi: 0.15}, "slower"},
		{sim.Interval{Value: -0.1, Lo: -0.15, Hi: -0.05}, "faster"},
		{sim.Interval{Value: 0.01, Lo: -0.02, Hi: 0.04}, "no difference found"},
		{sim.Interval{Value: 0.02, Lo: 0.005, Hi: 0.04}, "unclear"},
	} {
		if got := Verdict(c.d, 0.01); got != c.want {
			t.Errorf("%+v: %s, want %s", c.d, got, c.want)
		}
	}
}
