package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// BenchmarkSimulatedAttempts measures the engine-driven simulator on the
// slow-mobile profile (websocket and HTTP, retries, fallbacks); the
// attempts/s metric counts transports opened per second of CPU.
func BenchmarkSimulatedAttempts(b *testing.B) {
	b.ReportAllocs()
	p, _ := Select(Builtin(), []string{"slow-mobile"})
	cfg := engine.AblyConfig()
	cl := newClient(cfg, rand.New(rand.NewPCG(1, 2)))
	attempts := 0
	for i := 0; i < b.N; i++ {
		attempts += cl.run(p[0], 5*time.Minute).Opened
	}
	b.ReportMetric(float64(attempts)/b.Elapsed().Seconds(), "attempts/s")
}

// BenchmarkStormMillionClients is the default storm: a million clients, a
// 5 s restart, 25,000 accepted a second, RTB1 jitter.
func BenchmarkStormMillionClients(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, err := Storm(StormConfig{Clients: 1_000_000, Strategy: StrategyRTB1, Timeouts: reconnect.DefaultTimeouts(),
			Downtime: 5 * time.Second, Capacity: 25000, Horizon: 10 * time.Minute, Seed: 1})
		if err != nil || r.Reconnected != 1_000_000 {
			b.Fatal(err, r.Reconnected)
		}
		b.ReportMetric(float64(r.Total), "attempts")
	}
}

// BenchmarkRecommendFourThousandProfiles is the recommendation over 4,000
// profiles × 10 timeouts (40,000 websocket-first cells): Recommend and
// BestByProfile each index the cells once.
func BenchmarkRecommendFourThousandProfiles(b *testing.B) {
	var cells []Cell
	mix := map[string]float64{}
	for p := range 4000 {
		name := fmt.Sprintf("p%d", p)
		mix[name] = 1
		for k := range 10 {
			cells = append(cells, Cell{Profile: name, Policy: "websocket-first", ShortCircuit: time.Duration(k+1) * 250 * time.Millisecond,
				Clients: 1, Connected: 1, Mean: time.Duration(p*k%977) * time.Millisecond, Wasted: float64(k) / 10})
		}
	}
	cost := Cost{PerSecond: 1, PerWasted: 0.05}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Recommend(cells, mix, cost); err != nil {
			b.Fatal(err)
		}
		BestByProfile(cells, cost)
	}
}
