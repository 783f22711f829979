package engine

import (
	"path/filepath"
	"testing"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/internal/fixturetest"
)

// constSource is a Source that always draws the same u.
type constSource float64

func (c constSource) Float64() float64 { return float64(c) }

// numFailureKinds is one past the last FailureKind.
const numFailureKinds = reconnect.FailureToken + 1

// checkGolden compares the committed ../fixtures/name with want, or
// rewrites it under -update.
func checkGolden(t *testing.T, name string, want any) {
	t.Helper()
	fixturetest.CheckGolden(t, filepath.Join("..", "fixtures", name), want)
}
