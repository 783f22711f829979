package lab

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// FaultNames lists the named faults of NamedFault, for the demo's help.
func FaultNames() []string {
	names := make([]string, 0, len(namedFaults))
	for n := range namedFaults {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// FaultParams are the knobs of the named faults.
type FaultParams struct {
	// Status is the status reject-websocket answers (default 403).
	Status int
	// AfterConnected makes kill-websocket kill after CONNECTED instead of
	// before.
	AfterConnected bool
	// Latency, if not zero, is every connection's latency on every host
	// (added to what the fault sets).
	Latency Dist
}

var namedFaults = map[string]func(p FaultParams) (ProfileFaults, error){
	"none": func(FaultParams) (ProfileFaults, error) { return ProfileFaults{}, nil },
	"reject-websocket": func(p FaultParams) (ProfileFaults, error) {
		st := p.Status
		if st == 0 {
			st = 403
		}
		h := HostFault{WebSocket: PathFault{Reject: 1, RejectStatus: st}}
		return ProfileFaults{Primary: h, Fallback: h}, nil
	},
	"blackhole-websocket": func(FaultParams) (ProfileFaults, error) {
		h := HostFault{WebSocket: PathFault{Blackhole: 1}}
		return ProfileFaults{Primary: h, Fallback: h}, nil
	},
	"kill-websocket": func(p FaultParams) (ProfileFaults, error) {
		h := HostFault{WebSocket: PathFault{KillBeforeConnected: 1}}
		if p.AfterConnected {
			h = HostFault{WebSocket: PathFault{KillAfterConnected: 1}}
		}
		return ProfileFaults{Primary: h, Fallback: h}, nil
	},
	"primary-down": func(FaultParams) (ProfileFaults, error) {
		return ProfileFaults{Primary: HostFault{Down: true}}, nil
	},
	"offline": func(FaultParams) (ProfileFaults, error) {
		return ProfileFaults{Primary: HostFault{Down: true}, Fallback: HostFault{Down: true}, Check: CheckFault{Down: true}}, nil
	},
	"check-hangs": func(FaultParams) (ProfileFaults, error) {
		return ProfileFaults{Primary: HostFault{Down: true}, Check: CheckFault{Hang: true}}, nil
	},
	"drop": func(FaultParams) (ProfileFaults, error) {
		h := HostFault{DropAfter: 2e9}
		return ProfileFaults{Primary: h, Fallback: h}, nil
	},
	"stall": func(FaultParams) (ProfileFaults, error) {
		h := HostFault{Stall: true}
		return ProfileFaults{Primary: h, Fallback: h}, nil
	},
	"slow": func(FaultParams) (ProfileFaults, error) {
		i := slices.IndexFunc(BuiltinProfiles(), func(p Profile) bool { return p.Name == "slow-mobile" })
		return Faults(BuiltinProfiles()[i])
	},
}

// NamedFault returns the faults the demo's -fault NAME applies: none,
// reject-websocket (every host answers websocket upgrades p.Status),
// blackhole-websocket, kill-websocket (after the handshake, before
// CONNECTED or, with p.AfterConnected, right after it), primary-down,
// offline (every host down, the check says no), check-hangs (the primary
// down and the check never answers), drop (connections dropped 2 s after
// CONNECTED), stall (every connection silent right after CONNECTED, its
// socket left open: HostFault.Stall) and slow (the simulator's
// slow-mobile profile). p.Latency, if
// set, is added to every path that has no latency of its own.
func NamedFault(name string, p FaultParams) (ProfileFaults, error) {
	f := namedFaults[name]
	if f == nil {
		return ProfileFaults{}, fmt.Errorf("unknown fault %q; the faults are: %s", name, strings.Join(FaultNames(), ", "))
	}
	pf, err := f(p)
	if err != nil || p.Latency == (Dist{}) {
		return pf, err
	}
	for _, h := range []*HostFault{&pf.Primary, &pf.Fallback} {
		for _, path := range []*PathFault{&h.WebSocket, &h.HTTP} {
			if path.Connect == (Dist{}) {
				path.Connect = p.Latency
			}
		}
	}
	return pf, nil
}
