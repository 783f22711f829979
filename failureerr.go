package reconnect

import "strconv"

// failureCause holds the error a Failure carries: a pointer, so that a
// Failure stays comparable with == whatever the error's dynamic type (an
// error field would make == panic for an error type that is not
// comparable, such as a struct holding a slice).
type failureCause struct{ err error }

// WithError returns f carrying err, the SDK's own error for the failure
// (what its dial, handshake or read returned, or its protocol's error
// value), so that the state change it causes, the engine's LastError and
// the SDK's own error reporting show it; errors.Is and errors.As on the
// Failure see err and its chain (Unwrap). A nil err returns f without an
// error. The engine carries err along unread: the Kind still decides
// what happens (ShouldFallback). It allocates one small object per call
// with a non-nil err.
func (f Failure) WithError(err error) Failure {
	if err == nil {
		f.cause = nil
		return f
	}
	f.cause = &failureCause{err: err}
	return f
}

// Unwrap returns the error attached with WithError, or nil, so that
// errors.Is and errors.As see through a Failure to the SDK's error.
func (f Failure) Unwrap() error {
	if f.cause == nil {
		return nil
	}
	return f.cause.err
}

// Error renders f for people: String, then " code N" when Code is set,
// then ": " and the attached error's text when there is one; for example
// "unreachable: dial tcp 10.0.0.1:443: connect: connection refused" or
// "other code 4001: server shutting down". Without a code or an error it
// is String (and so fmt's %v of such a Failure is unchanged). A FailureNone
// renders as "none" whatever its other fields, as String does.
func (f Failure) Error() string {
	s := f.String()
	if f.Kind == FailureNone {
		return s
	}
	if f.Code != 0 {
		s += " code " + strconv.Itoa(int(f.Code))
	}
	if err := f.Unwrap(); err != nil {
		s += ": " + err.Error()
	}
	return s
}
