package runner

import (
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// The runner exposes the engine's transport preference so the SDK can
// persist it; a runner given it back starts on the remembered HTTP.
func TestPreferenceCarriesToTheNextRunner(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := engine.AblyConfig()
		cfg.RememberTransport = true
		r, d, _, _ := newTestRunner(t, t.Context(), cfg)
		if p := r.Preference(); p.Transport != reconnect.NoTransport {
			t.Fatalf("a new runner remembers %v", p)
		}
		r.Connect()
		synctest.Wait()
		d.transport(1).report.Failed(reconnect.Failure{Kind: reconnect.FailureRefused})
		synctest.Wait()
		d.transport(2).report.Connected()
		synctest.Wait()
		p := r.Preference()
		if p.Transport != reconnect.HTTP || p.Reason != reconnect.PreferenceConnected {
			t.Fatalf("preference %+v, want HTTP remembered as connected", p)
		}

		cfg.Preference = p
		next, d2, _, _ := newTestRunner(t, t.Context(), cfg)
		if next.Preference() != p {
			t.Fatalf("the next runner starts with %+v, want %+v", next.Preference(), p)
		}
		next.Connect()
		synctest.Wait()
		if tr := d2.transport(1); tr == nil || tr.req.Kind != reconnect.HTTP {
			t.Fatalf("the next runner's first transport is %+v, want HTTP", tr)
		}
	})
}
