package runner

import (
	"fmt"
	"log"
	"runtime/debug"

	"github.com/reconnect-go/reconnect/engine"
)

// PanicError is a panic the runner recovered from in code it calls: the
// Dialer, a Transport, a check or the OnStateChange callback. The runner
// never lets such a panic kill the process from one of its own goroutines,
// where the SDK could not recover it; it turns it into the failure of what
// panicked and hands the PanicError to Options.OnPanic:
//
//   - Dialer.Open: the transport failed with reconnect.FailureOther (no
//     fallback host for it, RSC15l), as if Open had reported
//     Failed(FailureOther) and returned a Transport with nothing to close.
//   - Transport.RequestClose: the transport closed with FailureOther, so a
//     CLOSING connection goes CLOSED at once.
//   - Transport.Close, CloseFor: the transport counts as closed; nothing
//     more.
//   - Transport.Activated (Notified): the transport closed with
//     FailureOther, as for RequestClose: the connection drops and
//     reconnects.
//   - Transport.Deactivated: nothing; Close or CloseFor follows anyway.
//   - A check (Options.CheckConnectivity, Options.CheckWebSocket): the
//     check answered down.
//   - Options.OnStateChange: that change counts as delivered; the next is
//     delivered as usual.
type PanicError struct {
	// Where names what panicked: "Dialer.Open", "Transport.RequestClose",
	// "Transport.Close", "Transport.CloseFor", "Transport.Activated",
	// "Transport.Deactivated", "CheckConnectivity", "CheckWebSocket" or
	// "OnStateChange".
	Where string
	// Transport is the transport whose Open or method panicked; 0 for a
	// check or the callback.
	Transport engine.TransportID
	// Value is the value passed to panic.
	Value any
	// Stack is the panicking goroutine's stack (runtime/debug.Stack) at the
	// recovery.
	Stack []byte
}

// Error returns "runner: panic in WHERE: VALUE".
func (e *PanicError) Error() string { return fmt.Sprintf("runner: panic in %s: %v", e.Where, e.Value) }

// Unwrap returns Value when it is an error, so that errors.Is and
// errors.As see through the panic.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// recovered reports a panic recovered in where, for transport id (0 for
// none), to Options.OnPanic, or to the standard logger (with the stack) as
// net/http does for its handlers when OnPanic is nil. It is called from
// the deferred function that recovered, so that the stack still shows the
// panic. A panic in OnPanic itself is dropped.
func (r *Runner) recovered(where string, id engine.TransportID, v any) {
	pe := &PanicError{Where: where, Transport: id, Value: v, Stack: debug.Stack()}
	if r.set.onPanic == nil {
		log.Printf("%v\n%s", pe, pe.Stack)
		return
	}
	defer func() { _ = recover() }()
	r.set.onPanic(pe)
}
