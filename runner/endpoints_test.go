package runner

import (
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// The Dialer receives the endpoint exactly as configured, port included
// (lowered, as every host is), and the StateChange of CONNECTED names
// the same host.
func TestDialerReceivesTheEndpointAsConfigured(t *testing.T) {
	for _, endpoint := range []string{"realtime", "rt.example.com:8443", "[::1]:8080"} {
		synctest.Test(t, func(t *testing.T) {
			cfg := engine.Defaults()
			cfg.Endpoint = reconnect.EndpointOptions{Endpoint: endpoint}
			r, d, _, rec := newTestRunner(t, t.Context(), cfg)
			tr := connectNow(t, r, d)
			if tr.req.Host != endpoint {
				t.Errorf("Endpoint %q: OpenRequest.Host = %q", endpoint, tr.req.Host)
			}
			if cs := rec.all(); len(cs) == 0 || cs[len(cs)-1].Host != endpoint {
				t.Errorf("Endpoint %q: changes %+v, want CONNECTED naming the host", endpoint, cs)
			}
			r.Close()
			synctest.Wait()
		})
	}
}
