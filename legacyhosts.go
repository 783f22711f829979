package reconnect

import "strconv"

// Ably's deprecated endpoint options (restHost, realtimeHost,
// fallbackHostsUseDefault and environment's conflicts with them), read
// only with EndpointOptions.Ably: REC1b1, REC1c1, REC1d, REC2a1, REC2b.

// legacyConflict returns the error for options that the spec says are
// invalid as a set, naming the deprecated option (the first in the
// order below), or nil:
//
//   - REC1b1: "If the endpoint option is specified … If any one of the
//     deprecated options environment, restHost, realtimeHost or
//     fallbackHostsUseDefault are also specified then the options as a set
//     are invalid";
//   - REC1c1: "If the deprecated environment option is specified … If any
//     one of the deprecated options restHost, realtimeHost are also
//     specified then the options as a set are invalid";
//   - REC2a1: "If the fallbackHosts client option is specified … If the
//     deprecated fallbackHostsUseDefault option is specified then the
//     options as a set are invalid" (a non-nil FallbackHosts, even empty,
//     is specified).
func legacyConflict(o EndpointOptions) error {
	conflict := func(field, value, problem string) error {
		return &FieldError{Field: field, Value: value, Problem: problem}
	}
	if o.Endpoint != "" {
		const with = "cannot be combined with Endpoint (REC1b1): give one of them; "
		switch {
		case o.Environment != "":
			return conflict(optEnvironment, strconv.Quote(o.Environment), with+"Environment is deprecated, and Endpoint takes the same routing policy id")
		case o.RestHost != "":
			return conflict(optRestHost, strconv.Quote(o.RestHost), with+"RestHost is deprecated, and Endpoint takes the same host name")
		case o.RealtimeHost != "":
			return conflict(optRealtimeHost, strconv.Quote(o.RealtimeHost), with+"RealtimeHost is deprecated, and Endpoint takes the same host name")
		case o.FallbackHostsUseDefault:
			return conflict(optUseDefault, "true", with+"FallbackHostsUseDefault is deprecated; an Endpoint that is a routing policy id has its fallback hosts already, and FallbackHosts lists others")
		}
	}
	if o.Environment != "" {
		const with = "cannot be combined with Environment (REC1c1): give one of them; both are deprecated, and Endpoint replaces them"
		switch {
		case o.RestHost != "":
			return conflict(optRestHost, strconv.Quote(o.RestHost), with)
		case o.RealtimeHost != "":
			return conflict(optRealtimeHost, strconv.Quote(o.RealtimeHost), with)
		}
	}
	if o.FallbackHostsUseDefault && o.FallbackHosts != nil {
		return conflict(optUseDefault, "true", "cannot be combined with FallbackHosts, even an empty one (REC2a1): give one of them; FallbackHostsUseDefault is deprecated, and FallbackHosts can list the default hosts")
	}
	return nil
}

// legacyHosts resolves RestHost or RealtimeHost, after legacyConflict:
// REC1d1 "If the restHost option is specified the primary domain is the
// value of the restHost option", REC1d2 "Otherwise, if the realtimeHost
// option is specified the primary domain is the value of the realtimeHost
// option", and REC2c6 no fallback hosts. Both options are validated,
// even the one REC1d1 leaves unused.
func legacyHosts(o EndpointOptions) (Hosts, error) {
	var rest, realtime string
	var err error
	if o.RestHost != "" {
		if rest, err = checkHost(optRestHost, o.RestHost, false); err != nil {
			return Hosts{}, err
		}
	}
	if o.RealtimeHost != "" {
		if realtime, err = checkHost(optRealtimeHost, o.RealtimeHost, false); err != nil {
			return Hosts{}, err
		}
	}
	primary := rest
	if primary == "" {
		primary = realtime
	}
	return Hosts{Primary: primary, Fallbacks: []string{}}, nil
}
