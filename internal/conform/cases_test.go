package conform

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/reconnect-go/reconnect/fixtures"
)

// fixturesWith is the built-in fixtures with one file's items replaced.
func fixturesWith(t testing.TB, file, items string) fs.FS {
	m := fstest.MapFS{}
	for _, name := range []string{"rtb1.json", "transport.json", "hosts.json", "scenarios.json"} {
		data, err := fs.ReadFile(fixtures.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = &fstest.MapFile{Data: data}
	}
	m[file] = &fstest.MapFile{Data: []byte(`{"items":` + items + `}`)}
	return m
}

func TestMalformedFixturesAreErrorsNamingFileAndItem(t *testing.T) {
	for _, c := range []struct {
		file, items, want string
	}{
		{"hosts.json", `[1]`, "hosts.json: item 0: not a JSON object"},
		{"hosts.json", `[{"id":"a","function":"resolveHosts"},{"function":"x"}]`, `hosts.json: item 1 (id ""): "id" is missing`},
		{"hosts.json", `[{"id":"r","function":"shouldFallback","statusRange":"400-499"}]`, `hosts.json: item 0 (id "r"): "statusRange" is "400-499"; want [lo, hi]`},
		{"hosts.json", `[{"id":"r","function":"shouldFallback","statusRange":[0,2000000000]}]`, `"statusRange" is [0,2000000000]`},
		{"hosts.json", `[{"id":"r","function":"shouldFallback","statusRange":[5,1]}]`, `"statusRange" is [5,1]`},
		{"hosts.json", `[{"id":"r","function":"shouldFallback","statusRange":[1.5,3]}]`, `"statusRange" is [1.5,3]`},
		{"hosts.json", `[{"id":"e","function":"resolveHosts","expectedErrorField":7}]`, `"expectedErrorField" is not a string`},
		{"hosts.json", `[{"id":"e","function":"connectivityUp","expected":true}]`, `a key "expected" names no result`},
		{"hosts.json", `[{"id":"p","function":"preferredHost","steps":3}]`, `"steps" is missing or not a list`},
		{"scenarios.json", `[{"id":"s","steps":[1]}]`, `scenarios.json: item 0 (id "s"): step 0 is not an object`},
		{"scenarios.json", `[{"id":"s"}]`, `"steps" is missing or not a list`},
		{"rtb1.json", `{"a":1}`, "rtb1.json: json: cannot unmarshal"},
	} {
		_, err := LoadSuite(fixturesWith(t, c.file, c.items))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: err = %v, want %q", c.file, c.items, err, c.want)
		}
	}
}

func FuzzLoadSuite(f *testing.F) {
	f.Add(`[{"id":"r","function":"shouldFallback","statusRange":[400,499]}]`)
	f.Add(`[{"id":"p","function":"preferredHost","steps":[{"op":"first","expectedFirst":"a"}]}]`)
	f.Add(`[{"id":"e","function":"resolveHosts","expectedErrorField":"EndpointOptions.Endpoint"}]`)
	f.Fuzz(func(t *testing.T, items string) {
		empty := &fstest.MapFile{Data: []byte(`{"items":[]}`)}
		m := fstest.MapFS{"rtb1.json": empty, "transport.json": empty, "scenarios.json": empty,
			"hosts.json": &fstest.MapFile{Data: []byte(`{"items":` + items + `}`)}}
		s, err := LoadSuite(m)
		if err == nil && len(s.Cases) > maxCases {
			t.Fatalf("%d cases", len(s.Cases))
		}
	})
}

// TestScenarioRowsAreNotSentToAdapters: a scenario's rows (the rows of
// docs/engine.md it pins) are documentary; the protocol sends config,
// draws and steps only.
func TestScenarioRowsAreNotSentToAdapters(t *testing.T) {
	cs, err := itemCases(AreaScenarios, map[string]any{"id": "s", "rows": []any{"ALL-ANY-time-backwards-1"}, "config": map[string]any{},
		"draws": []any{}, "steps": []any{map[string]any{"atMs": 0.0, "event": "connect", "expect": []any{}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cs[0].Input["rows"]; ok || len(cs[0].Input) != 3 {
		t.Fatalf("inputs %v, want config, draws and steps only", cs[0].Input)
	}
}
