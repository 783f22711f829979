package lab

import (
	"fmt"

	"github.com/reconnect-go/reconnect/internal/sim"
)

// Profile is a simulator network profile (the --profile-file format of
// `reconnect simulate`); Faults turns one into lab faults.
type Profile = sim.Profile

// ParseProfiles reads a profile file, exactly as the simulator does.
func ParseProfiles(data []byte) ([]Profile, error) { return sim.ParseProfiles(data) }

// BuiltinProfiles returns the simulator's built-in profiles.
func BuiltinProfiles() []Profile { return sim.Builtin() }

// ProfileFaults is a profile as lab faults: one HostFault for the primary
// host, one for every fallback host, and the connectivity check's.
type ProfileFaults struct {
	Primary, Fallback HostFault
	Check             CheckFault
}

// Faults maps p onto the lab. A host class whose websocket and HTTP both
// reject every attempt is a host that is down (the kernel refuses the
// connection after the reject latency, a refused connection as in the
// simulator); a path that rejects some attempts answers them 503 (which,
// like the simulator's refusal, qualifies for a fallback host). The
// connectivity check is down when it answers up less than half the time
// and hangs when it hangs at least half the time. Profiles that flap, or
// whose checks answer at random, cannot be reproduced and are errors.
func Faults(p Profile) (ProfileFaults, error) {
	if p.Flap != nil {
		return ProfileFaults{}, fmt.Errorf("profile %q flaps; the lab does not reproduce flapping", p.Name)
	}
	c := p.Connectivity
	if c.Up != 0 && c.Up != 1 || c.Hang != 0 && c.Hang != 1 {
		return ProfileFaults{}, fmt.Errorf("profile %q: the lab's connectivity check is up, down or hanging, not a mix", p.Name)
	}
	return ProfileFaults{
		Primary:  hostFault(p.Primary),
		Fallback: hostFault(p.Fallback),
		Check:    CheckFault{Down: c.Up == 0 && c.Hang == 0, Hang: c.Hang == 1, Latency: c.Latency},
	}, nil
}

func hostFault(h sim.HostClass) HostFault {
	if h.WebSocket.Reject == 1 && h.HTTP.Reject == 1 {
		return HostFault{Down: true, DownLatency: h.WebSocket.RejectLatency}
	}
	path := func(p sim.Path) PathFault {
		return PathFault{Reject: p.Reject, RejectStatus: 503, RejectLatency: p.RejectLatency, Blackhole: p.Blackhole, Connect: p.Connect}
	}
	return HostFault{WebSocket: path(h.WebSocket), HTTP: path(h.HTTP)}
}

// Apply sets pf on every host of s.
func (pf ProfileFaults) Apply(s *Server) error {
	if err := s.SetFault(s.Primary(), pf.Primary); err != nil {
		return err
	}
	for _, h := range s.Fallbacks() {
		if err := s.SetFault(h, pf.Fallback); err != nil {
			return err
		}
	}
	s.SetCheck(pf.Check)
	return nil
}
