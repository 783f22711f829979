package conform

import (
	"reflect"
	"slices"
	"testing"

	"github.com/reconnect-go/reconnect/internal/schemakeys"
)

// TestScenarioKnobsAreTheSchemas holds ScenarioKnobs, which reads a
// scenario's config for the harness, to the fixture's schema, the one
// list of config keys; the engine's tests hold the declaration that
// writes fixtures/scenarios.json to the same list
// (TestScenarioConfigIsTheSchemas), so the two cannot drift apart.
func TestScenarioKnobsAreTheSchemas(t *testing.T) {
	want, err := schemakeys.ScenarioConfig("../../fixtures/schema/scenarios.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := schemakeys.JSONNames(reflect.TypeFor[ScenarioKnobs]()); !slices.Equal(got, want) {
		t.Errorf("ScenarioKnobs' keys %v, the schema's %v", got, want)
	}
}
