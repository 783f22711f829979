package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

func TestDemoPrintsTimelineAndSummary(t *testing.T) {
	var out bytes.Buffer
	if err := demo([]string{"-fault", "reject-websocket", "-clients", "3", "-short-circuit", "500ms", "-wire"}, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"initialized  → connecting", "connecting   → connected     http  main.realtime.test",
		"server      websocket", "rejected", "3/3 connected; time to CONNECTED min "} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
}

// A run in which nobody connects still completes (exit 0) and says why.
func TestDemoOfflineSaysWhy(t *testing.T) {
	var out bytes.Buffer
	if err := demo([]string{"-fault", "offline", "-clients", "2", "-horizon", "3s", "-quiet"}, &out); err != nil {
		t.Fatal(err)
	}
	if want := "0/2 connected; 2 never connected within 3s: 2 disconnected (connectivity-down)"; !strings.Contains(out.String(), want) {
		t.Fatalf("output lacks %q:\n%s", want, out.String())
	}
}

// The stall demo: every client detects the stall by its idle timer and
// reconnects, and the summary's last line says how many of N did.
func TestDemoStallReconnectsEveryClient(t *testing.T) {
	var out bytes.Buffer
	if err := demo([]string{"-fault", "stall", "-clients", "5", "-max-idle", "100ms", "-realtime-request-timeout", "300ms", "-quiet"}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if last := lines[len(lines)-1]; last != "5 of 5 reconnected" {
		t.Fatalf("last line %q, want \"5 of 5 reconnected\":\n%s", last, out.String())
	}
	if want := "stall: 5 of 5 detected it by the idle timer"; !strings.Contains(out.String(), want) {
		t.Fatalf("output lacks %q:\n%s", want, out.String())
	}
}

func TestDemoRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-clients", "0"}, {"-fault", "nonsense"}, {"-status", "200"}, {"-latency", "-1"}, {"-horizon", "0s"},
		{"-max-idle", "-1s"}, {"-realtime-request-timeout", "0s"}, {"-fault", "stall", "-max-idle", "0s"}} {
		if err := demo(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestCompareAndStormRunSmall(t *testing.T) {
	var out bytes.Buffer
	if err := compare([]string{"-profile-file", "../../profiles.json", "-profiles", "healthy", "-clients", "5", "-spread", "0s"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| healthy | 5 |") {
		t.Fatalf("compare:\n%s", out.String())
	}
	out.Reset()
	if err := storm([]string{"-clients", "5", "-scale", "0.02", "-horizon", "2m"}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| reconnected | 5 | 5 |") {
		t.Fatalf("storm:\n%s", out.String())
	}
}

// What a newcomer mistypes gets one line naming it; -h lists the
// subcommands.
func TestCommandLineEdges(t *testing.T) {
	for _, c := range []struct {
		run  func([]string, io.Writer) error
		args []string
		want string
	}{
		{demo, []string{"stray"}, `unexpected argument "stray": lab takes flags only`},
		{demo, []string{"-fault", "bogus"}, `unknown fault "bogus"; the faults are: blackhole-websocket, check-hangs, drop`},
		{demo, []string{"-bogus"}, "unknown flag -bogus (run 'lab -h' for the flags)"},
		{compare, []string{"-nope"}, "unknown flag -nope (run 'lab compare -h' for the flags)"},
		{storm, []string{"-clients", "5", "extra"}, `unexpected argument "extra": lab storm takes flags only`},
		{soak, []string{"more"}, `unexpected argument "more": lab soak takes flags only`},
		{peersCmd, []string{"-faults", "healthy,nope"}, `unknown fault "nope"; the faults are healthy, websocket-refused`},
		{peersCmd, []string{"-kinds", "ably"}, `unknown client kind "ably"`},
		{peersCmd, []string{"-clients", "0", "-kinds", "ours-2s"}, "peers: 0 clients per kind; want 1 to 1000"},
		{peersCmd, []string{"-kinds", "centrifuge", "-node-dir", "/nonexistent"}, "peers: the Node packages are not installed in /nonexistent"},
	} {
		var out bytes.Buffer
		err := c.run(c.args, &out)
		if err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.args, err, c.want)
		}
		if out.Len() != 0 {
			t.Errorf("%q: printed the help on an error:\n%s", c.args, out.String())
		}
	}
	var out bytes.Buffer
	if err := demo([]string{"-h"}, &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"lab compare [flags]", "lab storm [flags]", "lab soak [flags]", "lab peers [flags]", "-fault string"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h lacks %q:\n%s", want, out.String())
		}
	}
}

// The peers command with ours alone needs no Node: it runs, prints the
// header and a table, -check passes, and the output ends with the
// ranking's line, which with no peer to compare with ranks nothing ahead:
// -require-ahead fails then.
func TestPeersOursAlone(t *testing.T) {
	var out bytes.Buffer
	if err := peersCmd([]string{"-kinds", "ours-short,ours-defaults", "-faults", "healthy,websocket-refused", "-clients", "2",
		"-settle", "100ms", "-window", "5s", "-check"}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"lab peers: 2 clients of each kind", "### websocket-refused", "| ours-short | 2/2 |", "| ours-defaults | 2/2 |",
		"every kind reached its expected outcome under every fault (4 cells)", "| healthy | ", "behind: no peer measured"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.HasSuffix(out.String(), "\nours at defaults: ahead or level on 0 of 2 faults\n") {
		t.Errorf("output does not end with the ranking's line:\n%s", out.String())
	}
	out.Reset()
	err := peersCmd([]string{"-kinds", "ours-defaults", "-faults", "healthy", "-clients", "1", "-settle", "100ms", "-window", "5s", "-require-ahead"}, &out)
	if !errors.Is(err, errBehind) {
		t.Fatalf("-require-ahead with no peer: %v, want errBehind\n%s", err, out.String())
	}
}
