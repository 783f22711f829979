package runner

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/synctest"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// sdkCloseError stands for a websocket library's close error: the SDK's
// own type, found again with errors.As on what the runner reports.
type sdkCloseError struct{ code int }

func (e *sdkCloseError) Error() string { return fmt.Sprintf("websocket closed with %d", e.code) }

// The SDK's error and close code travel from the transport's report to
// the state change, to LastError and back out through errors.Is and
// errors.As.
func TestTheSDKsErrorTravelsToTheStateChangeAndLastError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, d, _, rec := newTestRunner(t, t.Context(), engine.AblyConfig())
		if f := r.LastError(); f != (reconnect.Failure{}) {
			t.Fatalf("LastError before any change = %v, want none", f)
		}
		tr := connectNow(t, r, d)
		closeErr := &sdkCloseError{code: 4008}
		sent := reconnect.Failure{Kind: reconnect.FailureOther, Code: 4008}.WithError(fmt.Errorf("sdk: read: %w", closeErr))
		tr.report.Closed(sent)
		synctest.Wait()
		var drop StateChange
		for _, c := range rec.all() {
			if c.Reason == engine.ReasonDropped {
				drop = c
			}
		}
		if drop.Failure != sent {
			t.Fatalf("the drop carries %v, want %v", drop.Failure, sent)
		}
		for name, f := range map[string]reconnect.Failure{"StateChange.Failure": drop.Failure, "LastError": r.LastError()} {
			var got *sdkCloseError
			if !errors.As(f, &got) || got != closeErr || f.Code != 4008 {
				t.Errorf("%s = %v: errors.As found %v, want the SDK's %v with Code 4008", name, f, got, closeErr)
			}
			if errors.Is(f, io.EOF) {
				t.Errorf("%s matched io.EOF", name)
			}
		}
		if s := drop.Failure.Error(); s != "other code 4008: sdk: read: websocket closed with 4008" {
			t.Errorf("Error() = %q", s)
		}
	})
}
