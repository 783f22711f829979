package main

import (
	"encoding/json"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"slices"
	"strings"

	"github.com/reconnect-go/reconnect/fixtures"
	"github.com/reconnect-go/reconnect/internal/conform"
	"github.com/reconnect-go/reconnect/internal/rows"
)

const explainSynopsis = "(SCENARIO-ID | --file LOG | --list) [--fixtures DIR]\n\n" +
	"Replays a scenario of fixtures/scenarios.json, or a recorded event log in the same\n" +
	"format ({\"config\": {…}, \"draws\": […], \"steps\": [{\"atMs\": …, \"event\": \"…\"}, …]}),\n" +
	"through the engine and prints each step's actions with the rows of docs/engine.md\n" +
	"that explain them. --list prints the scenario ids, one a line."

// runExplain prints a scenario or a recorded log as an annotated timeline.
func runExplain(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("explain", explainSynopsis, stdout)
	file := fs.String("file", "", "a recorded event log in the scenario format (instead of a scenario id)")
	dir := fs.String("fixtures", "", "read scenarios.json from this folder instead of the built-in fixtures")
	list := fs.Bool("list", false, "print the scenario ids, one a line")
	if err := fs.parseFlags(args); err != nil {
		return err
	}
	scenarios := func() ([]byte, error) {
		var fsys iofs.FS = fixtures.FS
		if *dir != "" {
			fsys = os.DirFS(*dir)
		}
		data, err := iofs.ReadFile(fsys, "scenarios.json")
		if err != nil {
			return nil, usagef("--fixtures %s: %v", *dir, err)
		}
		return data, nil
	}
	var raw []byte
	var name string
	switch {
	case *list && (*file != "" || fs.NArg() > 0):
		return usagef("give a scenario id, --file or --list, one of them")
	case *list:
		data, err := scenarios()
		if err != nil {
			return err
		}
		_, ids, err := findScenario(data, "")
		if err != nil {
			return usagef("%v", err)
		}
		for _, id := range ids {
			fmt.Fprintln(stdout, id)
		}
		return nil
	case *file != "" && fs.NArg() > 0:
		return usagef("give a scenario id or --file, not both")
	case *file != "":
		data, err := os.ReadFile(*file)
		if err != nil {
			return usagef("--file: %v", err)
		}
		raw, name = data, *file
	case fs.NArg() == 1:
		data, err := scenarios()
		if err != nil {
			return err
		}
		item, ids, err := findScenario(data, fs.Arg(0))
		if err != nil {
			return usagef("%v", err)
		}
		if item == nil {
			return usagef("%s", unknownScenario(fs.Arg(0), ids))
		}
		raw, name = item, fs.Arg(0)
	case fs.NArg() == 0:
		return usagef("want a scenario id, --file LOG or --list (run 'reconnect explain -h')")
	default:
		return usagef("unexpected argument %q: give one scenario id", fs.Arg(1))
	}
	var in conform.ScenarioInput
	if err := json.Unmarshal(raw, &in); err != nil {
		return usagef("%s: %v", name, err)
	}
	return explain(stdout, name, in)
}

// findScenario returns the scenario item with id in a scenarios.json, or
// nil and every id.
func findScenario(data []byte, id string) (json.RawMessage, []string, error) {
	var f struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, nil, fmt.Errorf("scenarios.json: %v", err)
	}
	var ids []string
	for _, it := range f.Items {
		var head struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(it, &head) == nil {
			if head.ID == id {
				return it, nil, nil
			}
			ids = append(ids, head.ID)
		}
	}
	return nil, ids, nil
}

var policyShort = map[string]string{"": "wf", "websocket-first": "wf", "http-first": "hf", "websocket-check": "wc"}

// explain replays in and prints the annotated timeline.
func explain(w io.Writer, name string, in conform.ScenarioInput) error {
	pinned := len(in.Draws) > 0
	if !pinned {
		in.Draws = make([]float64, 1024) // a log without draws: every draw is 0
	}
	res, err := conform.RunScenario(in)
	if !pinned {
		err = nil
	}
	c := in.Config
	storm := c.ReconnectWindowMs != 0 || c.ImmediateShare != 0 || c.RetrySpread != 0 || c.SuspendedSpread != 0 ||
		c.RetryFamily != "" || c.ImmediateReconnect != ""
	if res == nil {
		return usagef("%s: %v", name, err)
	}
	policy := policyShort[in.Config.Policy]
	if in.Config.Policy == "" {
		in.Config.Policy = "websocket-first"
	}
	header := "policy " + in.Config.Policy
	if c.CanRenewToken {
		header += ", canRenewToken: a token error renews the token once"
	}
	if c.FirstRetryMs != 0 {
		header += fmt.Sprintf(", firstRetryMs %d: after a failed immediate reconnect, retries wait %d ms × u, then %d ms, for disconnectedRetryTimeout", c.FirstRetryMs, c.FirstRetryMs, c.FirstRetryMs)
	}
	fmt.Fprintf(w, "%s (%s)\n", name, header)
	if !pinned {
		fmt.Fprintln(w, "no draws pinned: every draw is 0 (the longest RTB1 delay, the first host in order)")
	}
	before := "initialized"
	n := &noter{canRenew: c.CanRenewToken, slackMs: c.IdleSlackMs, renewalMs: c.RenewalTimeoutMs, limitMs: c.IdleLimitMs}
	for i, st := range res {
		step := in.Steps[i]
		change := ""
		if st.State != before {
			change = fmt.Sprintf("  (%s → %s)", before, st.State)
		} else if slices.ContainsFunc(st.Actions, func(a string) bool { return strings.HasPrefix(a, "update ") }) {
			change = fmt.Sprintf("  (%s, UPDATE)", st.State) // RTN4h: the conditions changed, the state did not
		}
		fmt.Fprintf(w, "\n%8d ms  %s%s\n", step.AtMs, step.Event, change)
		for _, a := range st.Actions {
			fmt.Fprintf(w, "             %s\n", a)
		}
		for _, note := range n.notes(step.AtMs, step.Event, st.Actions, before, st.State) {
			fmt.Fprintf(w, "             · %s\n", note)
		}
		var matched []rows.Row
		for _, r := range rows.Explain(policy, before, step.Event, st.Actions) {
			if storm || !strings.HasPrefix(r.ID, "SS-") { // the storm-safe rows need their options
				matched = append(matched, r)
			}
		}
		if len(matched) == 0 {
			fmt.Fprintln(w, "             = no row of docs/engine.md explains this step")
		}
		for _, r := range matched {
			fmt.Fprintf(w, "             = %s: %s [%s]\n", r.ID, r.When, r.Spec)
		}
		before = st.State
	}
	if err != nil {
		fmt.Fprintf(w, "\nnote: %v\n", err)
	}
	return nil
}
