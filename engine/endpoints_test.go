package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
)

// Outside Ably's preset the endpoint is named as the SDK names it: one
// label (a docker-compose or Kubernetes service) or a host and a port,
// and the open action carries exactly that host, port included.
func TestNewAcceptsEndpointsAsTheSDKNamesThem(t *testing.T) {
	for _, c := range []struct {
		endpoint  string
		fallbacks []string
	}{
		{"realtime", nil},
		{"localhost", nil},
		{"rt.example.com:8443", []string{"rt-b.example.com:8443"}},
		{"[::1]:8080", []string{"realtime-b", "10.0.0.8:9000"}},
	} {
		cfg := Defaults()
		cfg.Endpoint = reconnect.EndpointOptions{Endpoint: c.endpoint, FallbackHosts: c.fallbacks}
		e, err := New(cfg)
		if err != nil {
			t.Fatalf("New with Endpoint %q: %v", c.endpoint, err)
		}
		if h := e.Hosts(); h.Primary != c.endpoint || len(h.Fallbacks) != len(c.fallbacks) {
			t.Errorf("Endpoint %q: Hosts() = %+v", c.endpoint, h)
		}
		out := e.Step(time.Unix(1_700_000_000, 0), Event{Kind: EventConnect}, nil)
		opened := false
		for _, a := range out {
			if a.Kind == ActionOpenTransport {
				opened = true
				if a.Host != c.endpoint {
					t.Errorf("Endpoint %q: the first open goes to %q", c.endpoint, a.Host)
				}
			}
		}
		if !opened {
			t.Errorf("Endpoint %q: connect opened nothing: %v", c.endpoint, out)
		}
	}
}

// Ably's preset is unchanged: a single label is a routing policy id and a
// port is refused, naming the field.
func TestAblyConfigKeepsItsEndpointRules(t *testing.T) {
	cfg := AblyConfig()
	cfg.Endpoint.Endpoint = "realtime"
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if h := e.Hosts(); h.Primary != "realtime.realtime.ably.net" || len(h.Fallbacks) != 5 {
		t.Errorf("AblyConfig with Endpoint realtime: Hosts() = %+v", h)
	}
	cfg.Endpoint.Endpoint = "rt.example.com:8443"
	_, err = New(cfg)
	var fe *reconnect.FieldError
	if !errors.As(err, &fe) || fe.Field != "Config.Endpoint.Endpoint" {
		t.Errorf("AblyConfig with a port: err = %v, want a *FieldError naming Config.Endpoint.Endpoint", err)
	}
}
