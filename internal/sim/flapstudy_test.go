package sim

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

var flapTable = flag.Bool("flapstudy", false, "print the flapping guard's sweep (docs/flapping.md)")

func flapProfile(t *testing.T, lifetimeMs, sigma float64) Profile {
	t.Helper()
	ps, err := Select(Builtin(), []string{"flapping-websocket"})
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	p.WebSocketLifetime = &Dist{MedianMs: lifetimeMs, Sigma: sigma}
	return p
}

func guarded(g engine.FlapGuard) engine.Config {
	cfg := engine.AblyConfig()
	cfg.Flap = g
	return cfg
}

// The guard's point, measured: on the flapping-websocket profile the
// default guard cuts the drops an application sees several times over;
// with websockets that live 20 minutes (median; some far less) it almost
// never moves a connection off the websocket.
func TestFlapGuardCutsDropsAndSparesLongLivedWebSockets(t *testing.T) {
	p := flapProfile(t, 5000, 1)
	off := FlapStudy(FlapStudyConfig{Profile: p, Engine: guarded(engine.FlapGuard{Drops: -1}), Horizon: time.Hour, Clients: 20, Seed: 1})
	on := FlapStudy(FlapStudyConfig{Profile: p, Engine: guarded(engine.FlapGuard{}), Horizon: time.Hour, Clients: 20, Seed: 1})
	if off.DropsPerHour < 200 || on.DropsPerHour*5 > off.DropsPerHour {
		t.Errorf("drops per hour: guard off %.0f, on %.0f; want the guard to cut them at least 5 times", off.DropsPerHour, on.DropsPerHour)
	}
	if on.Connected < off.Connected {
		t.Errorf("connected %.4f with the guard, %.4f without", on.Connected, off.Connected)
	}
	long := flapProfile(t, 20*60000, 1)
	lon := FlapStudy(FlapStudyConfig{Profile: long, Engine: guarded(engine.FlapGuard{}), Horizon: 2 * time.Hour, Clients: 20, Seed: 2})
	loff := FlapStudy(FlapStudyConfig{Profile: long, Engine: guarded(engine.FlapGuard{Drops: -1}), Horizon: 2 * time.Hour, Clients: 20, Seed: 2})
	if lon.OnWebSocket < loff.OnWebSocket-0.01 {
		t.Errorf("on a websocket %.4f of the time with the guard, %.4f without: the guard moved healthy connections to HTTP", lon.OnWebSocket, loff.OnWebSocket)
	}
}

// TestFlapStudyTable prints the sweep behind the guard's defaults; run it
// with go test ./internal/sim -run FlapStudyTable -flapstudy -v.
func TestFlapStudyTable(t *testing.T) {
	if !*flapTable {
		t.Skip("run with -flapstudy to print the sweep")
	}
	lifetimes := []struct {
		name  string
		ms    float64
		sigma float64
	}{{"5 s", 5000, 1}, {"30 s", 30000, 0.5}, {"60 s", 60000, 0.2}, {"5 min", 300000, 1}, {"20 min", 1200000, 1.5}}
	type guard struct {
		name string
		g    engine.FlapGuard
	}
	guards := []guard{{"off", engine.FlapGuard{Drops: -1}}}
	for _, k := range []int{2, 3, 4, 5} {
		for _, w := range []time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute, 5 * time.Minute, 10 * time.Minute} {
			guards = append(guards, guard{fmt.Sprintf("K=%d W=%v", k, w), engine.FlapGuard{Drops: k, Window: w, Hold: 10 * time.Minute}})
		}
	}
	for _, h := range []time.Duration{5 * time.Minute, 30 * time.Minute} {
		guards = append(guards, guard{fmt.Sprintf("K=%d W=%v hold %v", engine.DefaultFlapDrops, engine.DefaultFlapWindow, h),
			engine.FlapGuard{Hold: h}})
	}
	var b strings.Builder
	b.WriteString("Each cell: drops per client-hour / % of the time on a websocket / % of the time not CONNECTED.\n\n| guard (hold 10 min unless said) |")
	for _, l := range lifetimes {
		fmt.Fprintf(&b, " websocket lives %s |", l.name)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(lifetimes)) + "\n")
	for _, g := range guards {
		fmt.Fprintf(&b, "| %s |", g.name)
		for i, l := range lifetimes {
			p := flapProfile(t, l.ms, l.sigma)
			s := FlapStudy(FlapStudyConfig{Profile: p, Engine: guarded(g.g), Horizon: 4 * time.Hour, Clients: 100, Seed: uint64(i + 1)})
			fmt.Fprintf(&b, " %.1f / %.1f%% / %.2f%% |", s.DropsPerHour, 100*s.OnWebSocket, 100*(1-s.Connected))
		}
		b.WriteString("\n")
	}
	t.Log("\n" + b.String())
}
