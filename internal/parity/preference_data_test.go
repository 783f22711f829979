package parity

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
	"github.com/reconnect-go/reconnect/internal/sim"
)

// preferenceRows measures, with the simulator, the mean time to reconnect
// after a drop on each profile and policy, without a remembered transport
// and with HTTP remembered (the connection that dropped was HTTP): clients
// per cell, seed 1. It renders the table of docs/ably-js.md.
func preferenceRows(t *testing.T, clients int) string {
	t.Helper()
	profiles, err := sim.Select(sim.Builtin(), []string{"proxy-blackholes-websocket", "proxy-rejects-websocket", "healthy", "slow-mobile"})
	if err != nil {
		t.Fatal(err)
	}
	http := reconnect.Preference{Transport: reconnect.HTTP, At: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Hour), Reason: reconnect.PreferenceConnected}
	mean := func(p sim.Profile, cfg engine.Config, seed uint64) time.Duration {
		r := rand.New(rand.NewPCG(1, seed))
		var sum time.Duration
		for range clients {
			sum += sim.SimulateDrop(p, cfg, 5*time.Minute, r).TimeToConnect
		}
		return sum / time.Duration(clients)
	}
	var b strings.Builder
	b.WriteString("| profile | policy | reconnect, websocket remembered | reconnect, HTTP remembered |\n|---|---|---|---|\n")
	for i, p := range profiles {
		for j, pol := range []engine.Policy{engine.PolicyWebSocketCheck, engine.PolicyWebSocketFirst} {
			cfg := engine.AblyConfig()
			cfg.Policy, cfg.RememberTransport = pol, true
			seed := uint64(i*2+j) + 1
			without := mean(p, cfg, seed)
			cfg.Preference = http
			with := mean(p, cfg, seed)
			fmt.Fprintf(&b, "| %s | %s | %d ms | %d ms |\n", p.Name, pol, without.Milliseconds(), with.Milliseconds())
		}
	}
	return b.String()
}

// TestPreferenceDataInDocs recomputes the transport-preference table of
// docs/ably-js.md (2000 clients a cell, deterministic) and fails if it
// changed.
func TestPreferenceDataInDocs(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	table := preferenceRows(t, 2000)
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "ably-js.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), table) {
		t.Errorf("docs/ably-js.md lacks the current transport-preference table:\n%s", table)
	}
}
