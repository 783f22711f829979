package runner

// Token renewal (RTN14b, RTN15h): the engine asks for one renewal after a
// token error (engine.ActionRenewToken); the runner calls
// Options.RenewToken and feeds the answer (engine.EventTokenRenewal).

import (
	"context"
	"errors"
	"strconv"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/engine"
)

// StatusError is an error that carries the HTTP status an auth server
// (an authUrl, an authCallback's request) answered with. Options.RenewToken
// returns one, or an error wrapping one, when the token request was
// rejected: with Status 403 the connection goes FAILED (RSA4d); any other
// status is a renewal that failed, and the connection retries later.
type StatusError struct {
	// Status is the HTTP response status, for example 403.
	Status int
	// Err is the underlying error, if any.
	Err error
}

// Error says the status, and the underlying error when there is one.
func (e *StatusError) Error() string {
	s := "token request: HTTP status " + strconv.Itoa(e.Status)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *StatusError) Unwrap() error { return e.Err }

// RenewalFailure is the reconnect.Failure the runner feeds the engine for
// an error Options.RenewToken returned: FailureHTTPStatus with its Status
// for a *StatusError anywhere in err's chain, else Classify(err, nil)
// (FailureTimeout when the renewal's context ran out, FailureDNS,
// FailureRefused or FailureUnreachable for a request that could not reach
// the auth server, FailureOther for anything else), carrying err
// (reconnect.Failure.WithError: errors.Is and errors.As see its chain).
// nil is the zero Failure: the token was renewed.
func RenewalFailure(err error) reconnect.Failure {
	if err == nil {
		return reconnect.Failure{}
	}
	var se *StatusError
	if errors.As(err, &se) {
		return reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: se.Status}.WithError(err)
	}
	f := Classify(err, nil)
	if f.Kind == reconnect.FailureNone {
		f.Kind = reconnect.FailureOther
	}
	return f
}

// startRenewal runs Options.RenewToken for renewal c on a goroutine of its
// own, with a context done after Timeouts.Renewal (the engine's
// renew-token timer, RSA4c) or when the runner stops and carrying c's ID
// (CheckIDFrom), and feeds its answer with c's ID: Up for nil, else the
// error's RenewalFailure. r.mu is held (see publish).
func (r *Runner) startRenewal(c check) {
	fn := r.set.renew
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		ctx, cancel := context.WithTimeout(context.WithValue(r.set.ctx, checkIDKey{}, c.id), r.set.timeouts.Renewal)
		err := r.runRenewal(fn, ctx)
		cancel()
		ev := engine.Event{Kind: engine.EventTokenRenewal, Check: c.id, Up: err == nil, Failure: RenewalFailure(err)}
		r.mu.Lock()
		r.feed(ownCaller, ev)
	}()
}

// ErrNoRenewToken is the renewal's answer when Config.CanRenewToken is
// set but Options.RenewToken is nil: the renewal fails at once with
// FailureOther, and the connection retries later (RTN15h2).
var ErrNoRenewToken = errors.New("runner: Config.CanRenewToken is set but Options.RenewToken is nil")

func noRenewToken(context.Context) error { return ErrNoRenewToken }

// errRenewalPanicked is the answer of a RenewToken that panicked.
var errRenewalPanicked = errors.New("runner: Options.RenewToken panicked")

// runRenewal calls fn; one that panics failed.
func (r *Runner) runRenewal(fn func(context.Context) error, ctx context.Context) (err error) {
	defer func() {
		if v := recover(); v != nil {
			r.recovered("RenewToken", 0, v)
			err = errRenewalPanicked
		}
	}()
	return fn(ctx)
}
