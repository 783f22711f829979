package lab

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/engine"
)

// The lab's profile file parses as the simulator's does, and every profile
// in it maps onto lab faults.
func TestProfileFileDrivesTheLab(t *testing.T) {
	data, err := os.ReadFile("profiles.json")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := ParseProfiles(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 5 {
		t.Fatalf("%d profiles, want at least 5", len(ps))
	}
	for _, p := range ps {
		if _, err := Faults(p); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
}

func TestFaultsMapping(t *testing.T) {
	byName := map[string]Profile{}
	for _, p := range BuiltinProfiles() {
		byName[p.Name] = p
	}
	pf, err := Faults(byName["primary-down"])
	if err != nil {
		t.Fatal(err)
	}
	if !pf.Primary.Down || pf.Primary.DownLatency.MedianMs != 40 || pf.Fallback.Down {
		t.Fatalf("primary-down: %+v", pf)
	}
	pf, _ = Faults(byName["proxy-rejects-websocket"])
	if pf.Primary.Down || pf.Primary.WebSocket.Reject != 1 || pf.Primary.HTTP.Reject != 0 {
		t.Fatalf("proxy-rejects-websocket: %+v", pf)
	}
	if pf, _ := Faults(byName["offline"]); !pf.Check.Down || !pf.Fallback.Down {
		t.Fatalf("offline: %+v", pf)
	}
	if _, err := Faults(byName["flapping"]); err == nil {
		t.Fatal("flapping mapped, want an error")
	}
}

func TestNamedFaults(t *testing.T) {
	for _, n := range FaultNames() {
		if _, err := NamedFault(n, FaultParams{Latency: ms(5)}); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
	if _, err := NamedFault("nonsense", FaultParams{}); err == nil {
		t.Fatal("unknown fault accepted")
	}
	pf, _ := NamedFault("reject-websocket", FaultParams{Status: 502, Latency: ms(7)})
	if pf.Primary.WebSocket.rejectStatus() != 502 || pf.Fallback.HTTP.Connect != ms(7) {
		t.Fatalf("reject-websocket: %+v", pf)
	}
}

// Compare runs both sides to the end; how close they come is the
// README's table (measured with many more clients), not asserted here.
func TestCompareRunsBothSides(t *testing.T) {
	noLeaks(t)
	cfg := engine.AblyConfig()
	cfg.ShortCircuit = 200 * time.Millisecond
	for _, p := range BuiltinProfiles() {
		if p.Name != "proxy-blackholes-websocket" {
			continue
		}
		c, err := Compare(context.Background(), p, CompareOptions{Config: cfg, Clients: 10, Horizon: 10 * time.Second, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if c.SimConn != 10 || c.LabConn != 10 || c.LabHTTP != 10 {
			t.Fatalf("%+v", c)
		}
		if c.LabMean < cfg.ShortCircuit || c.SimMean < cfg.ShortCircuit {
			t.Fatalf("connected before the short circuit on a blackholed websocket: %+v", c)
		}
	}
}
