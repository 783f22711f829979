package reconnect_test

import (
	"errors"
	"fmt"
	"io"
	"net"
	"testing"

	"github.com/reconnect-go/reconnect"
)

// sliceErr is an error type that == cannot compare: a Failure carrying
// one must still compare without panicking.
type sliceErr struct{ parts []string }

func (e sliceErr) Error() string { return fmt.Sprint(e.parts) }

func TestFailureCarriesTheSDKsErrorThroughErrorsIsAndAs(t *testing.T) {
	op := &net.OpError{Op: "read", Net: "tcp", Err: io.ErrUnexpectedEOF}
	f := reconnect.Failure{Kind: reconnect.FailureUnreachable}.WithError(fmt.Errorf("sdk: reading: %w", op))
	if !errors.Is(f, io.ErrUnexpectedEOF) {
		t.Errorf("errors.Is(%v, io.ErrUnexpectedEOF) = false", f)
	}
	var got *net.OpError
	if !errors.As(f, &got) || got != op {
		t.Errorf("errors.As found %v, want the *net.OpError attached", got)
	}
	if errors.Is(reconnect.Failure{Kind: reconnect.FailureUnreachable}, io.ErrUnexpectedEOF) {
		t.Error("a Failure without an error matched io.ErrUnexpectedEOF")
	}
	if f.Unwrap() == nil || (reconnect.Failure{}).Unwrap() != nil {
		t.Error("Unwrap: want the attached error, and nil without one")
	}
	if g := f.WithError(nil); g.Unwrap() != nil || g != (reconnect.Failure{Kind: reconnect.FailureUnreachable}) {
		t.Errorf("WithError(nil) = %#v, want the Failure without an error", g)
	}
}

func TestFailureStaysComparableWhateverItsError(t *testing.T) {
	a := reconnect.Failure{Kind: reconnect.FailureOther, Code: 4001}.WithError(sliceErr{[]string{"x"}})
	b := a // a copy carries the same attachment
	if a != b {
		t.Error("a copy of a Failure is not == to it")
	}
	c := reconnect.Failure{Kind: reconnect.FailureOther, Code: 4001}.WithError(sliceErr{[]string{"x"}})
	if a == c {
		t.Error("two attachments compared equal: == must not look into the errors")
	}
	if a == (reconnect.Failure{Kind: reconnect.FailureOther, Code: 4001}) {
		t.Error("a Failure with an error == one without")
	}
	if (reconnect.Failure{Kind: reconnect.FailureOther, Code: 1}) == (reconnect.Failure{Kind: reconnect.FailureOther, Code: 2}) {
		t.Error("Code is not compared")
	}
	m := map[reconnect.Failure]int{a: 1, c: 2} // usable as a map key
	if len(m) != 2 {
		t.Errorf("map has %d keys, want 2", len(m))
	}
}

func TestFailureErrorAddsTheCodeAndTheErrorToString(t *testing.T) {
	for _, c := range []struct {
		f    reconnect.Failure
		want string
	}{
		{reconnect.Failure{}, "none"},
		{reconnect.Failure{Code: 4000}.WithError(io.EOF), "none"}, // FailureNone: no failure, whatever else
		{reconnect.Failure{Kind: reconnect.FailureDNS}, "dns"},
		{reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 403, Server: "CloudFront"}, "http-status:403:CloudFront"},
		{reconnect.Failure{Kind: reconnect.FailureOther, Code: 4001}, "other code 4001"},
		{reconnect.Failure{Kind: reconnect.FailureUnreachable}.WithError(io.EOF), "unreachable: EOF"},
		{reconnect.Failure{Kind: reconnect.FailureDisconnected, Status: 503, Code: 80003}.WithError(errors.New("server busy")), "disconnected:503 code 80003: server busy"},
	} {
		if got := c.f.Error(); got != c.want {
			t.Errorf("%#v.Error() = %q, want %q", c.f, got, c.want)
		}
		// String is the fixtures' rendering: the code and the error never
		// change it.
		plain := reconnect.Failure{Kind: c.f.Kind, Status: c.f.Status, Server: c.f.Server}
		if c.f.String() != plain.String() {
			t.Errorf("%#v.String() = %q, want %q", c.f, c.f.String(), plain.String())
		}
	}
}

func ExampleFailure_WithError() {
	// What a transport's read returned, kept inside the Failure it reports:
	// the Kind decides what the engine does, the error is for the SDK's users.
	readErr := fmt.Errorf("sdk: websocket read: %w", io.ErrUnexpectedEOF)
	f := reconnect.Failure{Kind: reconnect.FailureUnreachable, Code: 1006}.WithError(readErr)
	fmt.Println(f.String()) // as the fixtures write it
	fmt.Println(f)          // as people read it
	fmt.Println(errors.Is(f, io.ErrUnexpectedEOF), reconnect.ShouldFallback(f))
	// Output:
	// unreachable
	// unreachable code 1006: sdk: websocket read: unexpected EOF
	// true true
}
