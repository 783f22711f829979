package sim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// BenchmarkSimulatedAttempts measures the engine-driven simulator on the
// slow-mobile profile (websocket and HTTP, retries, fallbacks); the
// attempts/s metric counts transports opened per second of CPU.
func BenchmarkSimulatedAttempts(b *testing.B) {
	b.ReportAllocs()
	p, _ := Select(Builtin(), []string{"slow-mobile"})
	cfg := reconnect.DefaultConfig()
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
