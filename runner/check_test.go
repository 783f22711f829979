package runner

import (
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// TestLateCheckAnswerFromAnEndedAttemptChangesNothing: the runner feeds a
// check's answer whenever it comes, with the check's ID (CheckIDFrom); a
// "down" from an attempt that ended (here by the OS network-down, whose
// reconnect starts the next attempt, RTN20a) while the check hung reaches
// the engine during the next attempt's own check and changes nothing.
func TestLateCheckAnswerFromAnEndedAttemptChangesNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, net, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		refused := reconnect.Failure{Kind: reconnect.FailureRefused}
		failBoth := func(ws, http engine.TransportID) {
			t.Helper()
			d.transport(ws).report.Failed(refused)
			synctest.Wait()
			d.transport(http).report.Failed(refused)
			synctest.Wait()
		}
		r.Connect()
		synctest.Wait()
		failBoth(1, 2)  // check C1 asked; it hangs
		r.NetworkDown() // DISCONNECTED, then the reconnect at once: T3
		synctest.Wait()
		failBoth(3, 4) // check C2 asked
		net.mu.Lock()
		_, has1 := net.byID[1]
		_, has2 := net.byID[2]
		net.mu.Unlock()
		if !has1 || !has2 {
			t.Fatalf("the check calls carried IDs %v, want C1 and C2", net.byID)
		}
		net.answerID(1, false) // the ended attempt's check answers late: down
		synctest.Wait()
		if s := r.State(); s != engine.Connecting {
			t.Fatalf("state %v after the stale answer, want connecting", s)
		}
		net.answerID(2, true)
		synctest.Wait()
		tr := d.transport(5)
		if tr == nil || tr.req.Host == d.transport(4).req.Host {
			t.Fatal("the current check's up opened no fallback host")
		}
		for _, c := range rec.all() {
			if c.Reason == engine.ReasonConnectivityDown {
				t.Fatalf("state change %+v: the stale down was taken", c)
			}
		}
	})
}
