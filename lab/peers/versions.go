package peers

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// Versions names what ran: the peers' packages as installed, the
// centrifuge Go module as built in, Node and Go.
func Versions(nodeDir string) []string {
	var out []string
	for _, p := range []string{"socket.io", "socket.io-client", "engine.io", "engine.io-client", "centrifuge", "ws"} {
		v := "not installed"
		if b, err := os.ReadFile(filepath.Join(nodeDir, "node_modules", p, "package.json")); err == nil {
			var pj struct {
				Version string `json:"version"`
			}
			if json.Unmarshal(b, &pj) == nil {
				v = pj.Version
			}
		}
		out = append(out, fmt.Sprintf("%s %s (npm)", p, v))
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/centrifugal/centrifuge" {
				out = append(out, fmt.Sprintf("%s %s (Go)", d.Path, d.Version))
			}
		}
	}
	node := "node not found"
	if b, err := exec.Command("node", "--version").Output(); err == nil {
		node = "Node " + strings.TrimSpace(string(b))
	}
	return append(out, node, runtime.Version())
}

// Machine describes the machine: OS, architecture, CPUs, and the load
// average when asked.
func Machine() string {
	s := fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU())
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			s += ", load average " + strings.Join(f[:3], " ")
		}
	}
	return s
}

// WriteHeader writes what the run was: its parameters, versions and
// machine.
func (r *Report) WriteHeader(w io.Writer) {
	o := r.Options
	clients := fmt.Sprint(o.Clients)
	if n := o.ClientsUnder(Restart); n != o.Clients && slices.Contains(o.Faults, Restart) {
		clients = fmt.Sprintf("%d (%d under the restart, window %v)", o.Clients, n, o.WindowUnder(Restart))
	}
	fmt.Fprintf(w, "lab peers: %s clients of each kind under each fault, each kind with its own server behind its own fault proxy on 127.0.0.1\n", clients)
	hb := "the libraries' defaults (25 s pings)"
	if o.Heartbeat != (Heartbeat{}) {
		hb = fmt.Sprintf("ping interval %v, timeout %v", o.Heartbeat.Interval, o.Heartbeat.Timeout)
	}
	fmt.Fprintf(w, "window %v (stall %v), restart downtime %v, settle %v, heartbeats: %s; ours-short's short circuit %v; slow: websocket %v ms σ %v, HTTP %v ms σ %v\n",
		o.Window, o.StallWindow, o.Downtime, o.Settle, hb, o.ShortCircuit,
		o.SlowWebSocket.MedianMs, o.SlowWebSocket.Sigma, o.SlowHTTP.MedianMs, o.SlowHTTP.Sigma)
	fmt.Fprintf(w, "versions: %s\n", strings.Join(r.Versions, ", "))
	fmt.Fprintf(w, "machine: %s at the start, %s at the end; the run took %v\n", r.Machine, r.MachineAt, r.Duration.Round(100_000_000))
}
