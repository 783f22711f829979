package peers

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// Expected is what each design promises, written here from the designs,
// not from a run: the peers have no fallback host, socket.io
// websocket-first never leaves a websocket that hangs, and every kind
// notices a stall (the peers by heartbeats, ours by the idle timer).
func TestExpected(t *testing.T) {
	never := map[[2]string]bool{
		{"websocket-blackholed", "socketio-websocket"}: true,
		{"primary-down", "socketio-polling"}:           true,
		{"primary-down", "socketio-websocket"}:         true,
		{"primary-down", "centrifuge"}:                 true,
		{"primary-down", "ours-centrifuge"}:            true,
	}
	for _, f := range Faults() {
		for _, k := range Kinds() {
			e := Expected(f, k)
			if e.Reach == never[[2]string{f.String(), k.String()}] {
				t.Errorf("%s under %s: reach %v", k, f, e.Reach)
			}
			if want := e.Reach && (f == Drop || f == Stall || f == Restart); e.Detect != want {
				t.Errorf("%s under %s: detect %v, want %v", k, f, e.Detect, want)
			}
		}
	}
}

func TestCheckNamesEveryDifference(t *testing.T) {
	ms := func(v ...time.Duration) []time.Duration { return v }
	rep := &Report{Cells: []Cell{
		{Fault: Healthy, Kind: Centrifuge, Clients: 2, Window: time.Second, Result: Result{Times: ms(time.Millisecond, Never)}},
		{Fault: PrimaryDown, Kind: Centrifuge, Clients: 1, Window: time.Second, Result: Result{Times: ms(Never)}},
		{Fault: PrimaryDown, Kind: SocketIOPolling, Clients: 1, Window: time.Second, Result: Result{Times: ms(time.Millisecond)}},
		{Fault: Stall, Kind: Ours, Clients: 1, Window: time.Second, Result: Result{Times: ms(Never), Detect: ms(Never)}},
		{Fault: Drop, Kind: Ours, Clients: 1, Err: errTest},
	}}
	bad := strings.Join(rep.Check(), "\n")
	for _, want := range []string{"centrifuge under healthy: 1 of 2", "socketio-polling under primary-down: 1 of 1 clients had their first message within 1s; want none",
		"ours-2s under stall: 0 of 1 clients had their first message within 1s; want all",
		"ours-2s under stall: 0 of 1 clients saw the connection lost; want all", "ours-2s under drop: test"} {
		if !strings.Contains(bad, want) {
			t.Errorf("Check lacks %q:\n%s", want, bad)
		}
	}
	if strings.Contains(bad, "centrifuge under primary-down") {
		t.Errorf("a cell at its expected outcome reported:\n%s", bad)
	}
}

type testError struct{}

func (testError) Error() string { return "test" }

var errTest = testError{}

func TestParseNames(t *testing.T) {
	if ks, err := ParseKinds("ours-2s, centrifuge"); err != nil || len(ks) != 2 || ks[0] != Ours || ks[1] != Centrifuge {
		t.Fatalf("%v %v", ks, err)
	}
	if fs, err := ParseFaults("all"); err != nil || len(fs) != int(numFaults) {
		t.Fatalf("%v %v", fs, err)
	}
	if _, err := ParseFaults("healthy,nope"); err == nil || !strings.Contains(err.Error(), `unknown fault "nope"`) {
		t.Fatalf("%v", err)
	}
	if _, err := ParseKinds("ably"); err == nil {
		t.Fatal("an unknown kind parsed")
	}
}

// A saved report reads back with its tables unchanged.
func TestReportRoundTrip(t *testing.T) {
	o := Options{Clients: 2, Faults: []Fault{Healthy, Restart}, Kinds: []Kind{Centrifuge}}.Defaults()
	t0 := time.Unix(3000, 0)
	rep := &Report{Options: o, Cells: []Cell{
		{Fault: Healthy, Kind: Centrifuge, Clients: 2, Window: o.Window, Start: t0,
			Result: Result{Times: []time.Duration{20 * time.Millisecond, Never}, Transports: map[string]int{"websocket": 1}, Usage: []Usage{{1, 1, 600}, {0, 0, 0}}}},
		{Fault: Restart, Kind: Centrifuge, Clients: 2, Window: o.Window, Start: t0, FaultAt: t0.Add(time.Second), BackAt: t0.Add(6 * time.Second), ErrText: "x",
			Result: Result{Times: []time.Duration{6 * time.Second, 7 * time.Second}, Detect: []time.Duration{time.Millisecond, time.Millisecond},
				AcceptPeak: 2, Accepts: []time.Duration{5 * time.Second}}},
	}}
	var a, saved bytes.Buffer
	rep.WriteTables(&a)
	if err := rep.WriteJSON(&saved); err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(&saved)
	if err != nil {
		t.Fatal(err)
	}
	if back.Cells[1].Err == nil || back.Cells[1].Err.Error() != "x" {
		t.Fatalf("error not restored: %v", back.Cells[1].Err)
	}
	back.Cells[1].Err = nil
	var b bytes.Buffer
	back.WriteTables(&b)
	if a.String() != b.String() {
		t.Fatalf("tables differ after a round trip:\n%s\n---\n%s", a.String(), b.String())
	}
	if !strings.Contains(a.String(), "| centrifuge | 1/2 | 20 ms") {
		t.Fatalf("table:\n%s", a.String())
	}
	for _, write := range []func(*bytes.Buffer) error{
		func(w *bytes.Buffer) error { return back.WriteFirstMessageSVG(w) },
		func(w *bytes.Buffer) error { return back.WriteRestartSVG(w) },
	} {
		var svg bytes.Buffer
		if err := write(&svg); err != nil || !strings.HasPrefix(svg.String(), "<svg") {
			t.Fatalf("chart: %v\n%.200s", err, svg.String())
		}
	}
}

func TestShortOptions(t *testing.T) {
	o := ShortOptions(Options{Clients: 20}.Defaults())
	if o.Clients != 3 || o.Window != 20*time.Second || o.Downtime != (Options{}).Defaults().Downtime || o.Parallel != ShortParallel ||
		o.SlowHTTP.MedianMs != 1200 || o.SlowHTTP.Sigma != 0.25 || o.Heartbeat.Timeout >= o.Heartbeat.Interval {
		t.Fatalf("%+v", o)
	}
	if o.ClientsUnder(Restart) != ShortRestartClients || o.WindowUnder(Restart) != ShortRestartWindow ||
		o.ClientsUnder(Drop) != 3 || o.WindowUnder(Drop) != 20*time.Second || o.WindowUnder(Stall) != o.StallWindow {
		t.Fatalf("restart: %d clients, window %v; drop: %d clients, window %v", o.ClientsUnder(Restart), o.WindowUnder(Restart),
			o.ClientsUnder(Drop), o.WindowUnder(Drop))
	}
	full := Options{Clients: 20}.Defaults()
	if full.ClientsUnder(Restart) != 20 || full.WindowUnder(Restart) != 30*time.Second {
		t.Fatalf("the full run's restart: %d clients, window %v; want 20 and 30s", full.ClientsUnder(Restart), full.WindowUnder(Restart))
	}
}

func TestMerge(t *testing.T) {
	mk := func(k Kind) *Report {
		o := Options{Clients: 1, Faults: []Fault{Healthy, Drop}, Kinds: []Kind{k}}
		return &Report{Options: o, Cells: []Cell{{Fault: Healthy, Kind: k}, {Fault: Drop, Kind: k}}}
	}
	a := mk(Ours)
	if err := a.Merge(mk(OursCentrifuge)); err != nil {
		t.Fatal(err)
	}
	if len(a.Cells) != 4 || a.Cells[1].Kind != OursCentrifuge || a.Cells[2].Fault != Drop || len(a.Options.Kinds) != 2 {
		t.Fatalf("merged %+v", a)
	}
	if err := a.Merge(mk(Ours)); err == nil {
		t.Fatal("merged a kind twice")
	}
	b := mk(Centrifuge)
	b.Options.Clients = 2
	if err := a.Merge(b); err == nil {
		t.Fatal("merged runs of different sizes")
	}
}
