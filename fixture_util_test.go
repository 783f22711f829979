package reconnect

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect/internal/fixturetest"
)

// The fixture helpers of this package's oracles; internal/fixturetest holds
// them for the engine's oracle too. Regenerate every fixture file with
//
//	go test -run Fixture . ./engine -args -update

func checkGolden(t *testing.T, name string, want any) {
	t.Helper()
	fixturetest.CheckGolden(t, filepath.Join("fixtures", name), want)
}

func loadFixture(t *testing.T, name string, v any) {
	t.Helper()
	fixturetest.Load(t, filepath.Join("fixtures", name), v)
}

func msFromNs(ns int64) json.Number { return fixturetest.MsFromNs(ns) }

func nsFromMs(t *testing.T, ms json.Number) time.Duration {
	t.Helper()
	return fixturetest.NsFromMs(t, ms)
}

func floatNumber(f float64) json.RawMessage { return fixturetest.FloatNumber(f) }

func parseFloatNumber(t *testing.T, raw json.RawMessage) float64 {
	t.Helper()
	return fixturetest.ParseFloatNumber(t, raw)
}
