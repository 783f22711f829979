// Package schemakeys reads the list of a scenario's config keys from the
// fixtures' JSON schema, for the tests that hold each declaration of that
// config (the engine's, which writes fixtures/scenarios.json, and the
// harness's, which reads it) to the one list. It imports nothing of the
// module, so that the engine's own tests can use it.
package schemakeys

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
)

// ScenarioConfig returns the properties of a scenario's config in the
// scenarios schema at path (fixtures/schema/scenarios.schema.json),
// sorted; an error when the file cannot be read or declares none.
func ScenarioConfig(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Defs struct {
			Scenario struct {
				Properties struct {
					Config struct {
						Properties map[string]json.RawMessage `json:"properties"`
					} `json:"config"`
				} `json:"properties"`
			} `json:"scenario"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	keys := slices.Sorted(maps.Keys(s.Defs.Scenario.Properties.Config.Properties))
	if len(keys) == 0 {
		return nil, errors.New(path + ": no config properties at $defs.scenario.properties.config")
	}
	return keys, nil
}

// JSONNames returns the JSON names of the fields of the struct type t (a
// field's json tag up to its first comma), sorted.
func JSONNames(t reflect.Type) []string {
	names := make([]string, t.NumField())
	for i := range names {
		names[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	slices.Sort(names)
	return names
}
