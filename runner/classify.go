package runner

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"

	"github.com/reconnect-go/reconnect"
)

// Classify maps what a transport's dial, handshake or connect request
// returned — a Go error, the HTTP response, or both — to the
// reconnect.Failure that Reporter.Failed and Reporter.Closed take, so that
// the engine's host-fallback rules (reconnect.ShouldFallback) read it. The
// first rule that matches decides:
//
//	resp with a status other than 101 or 2xx   FailureHTTPStatus, Status and the Server header
//	err nil (and resp nil or accepted)         the zero Failure: nothing failed
//	*net.DNSError                              FailureDNS
//	context.DeadlineExceeded, a net.Error
//	  whose Timeout() is true                  FailureTimeout
//	ECONNREFUSED                               FailureRefused
//	a TLS or certificate error                 FailureOther (another host would meet the same
//	                                           interceptor or the same clock; not a fallback)
//	ENETUNREACH, EHOSTUNREACH, ECONNRESET,
//	  ECONNABORTED, EPIPE, io.EOF,
//	  io.ErrUnexpectedEOF, any other *net.OpError FailureUnreachable
//	anything else (context.Canceled included) FailureOther
//
// The Failure carries err itself (reconnect.Failure.WithError): the state
// change it causes, Runner.LastError and the SDK's own error reporting
// show it, and errors.Is and errors.As on the Failure see err's chain (a
// *net.OpError, a *tls.CertificateVerificationError, the SDK's own
// wrapping). A nil err attaches nothing.
//
// A websocket that closes with a close status is classified by
// CloseStatusFailure: pass the status your websocket library reports (for
// github.com/coder/websocket, websocket.CloseStatus(err)).
func Classify(err error, resp *http.Response) reconnect.Failure {
	return classify(err, resp).WithError(err)
}

// classify is Classify without the error attached.
func classify(err error, resp *http.Response) reconnect.Failure {
	if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols && (resp.StatusCode < 200 || resp.StatusCode > 299) {
		return reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: resp.StatusCode, Server: resp.Header.Get("Server")}
	}
	if err == nil {
		return reconnect.Failure{}
	}
	var (
		dns     *net.DNSError
		netErr  net.Error
		op      *net.OpError
		record  tls.RecordHeaderError
		alert   tls.AlertError
		verify  *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
		invalid x509.CertificateInvalidError
		name    x509.HostnameError
	)
	switch {
	case errors.As(err, &dns):
		return reconnect.Failure{Kind: reconnect.FailureDNS}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return reconnect.Failure{Kind: reconnect.FailureTimeout}
	case errors.Is(err, syscall.ECONNREFUSED):
		return reconnect.Failure{Kind: reconnect.FailureRefused}
	case errors.As(err, &record), errors.As(err, &alert), errors.As(err, &verify),
		errors.As(err, &unknown), errors.As(err, &invalid), errors.As(err, &name):
		return reconnect.Failure{Kind: reconnect.FailureOther}
	case errors.Is(err, context.Canceled):
		return reconnect.Failure{Kind: reconnect.FailureOther}
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, &op):
		return reconnect.Failure{Kind: reconnect.FailureUnreachable}
	}
	return reconnect.Failure{Kind: reconnect.FailureOther}
}

// CloseStatusFailure maps a websocket close status (RFC 6455 §7.4) to the
// Failure a transport reports with Reporter.Closed or Reporter.Failed:
//
//	1000 normal closure                          the zero Failure (a clean close)
//	1001 going away, 1006 abnormal closure,
//	  1011 internal error, 1012 service restart,
//	  1013 try again later, 1014 bad gateway     FailureUnreachable: the server or the
//	                                             path to it failed; another host may work
//	any other status (protocol and policy
//	  errors, 3000–4999 application statuses,
//	  -1 for "no close frame seen" included)     FailureOther
//
// The Failure's Code is the status (none for 1000, the zero Failure, nor
// for a value beyond int32, which is no close status); a
// transport that has the close error too attaches it with
// reconnect.Failure.WithError. A status of -1 is what
// github.com/coder/websocket's CloseStatus returns for an error that is
// not a close frame: classify that error with Classify instead.
func CloseStatusFailure(status int) reconnect.Failure {
	switch status {
	case 1000:
		return reconnect.Failure{}
	case 1001, 1006, 1011, 1012, 1013, 1014:
		return reconnect.Failure{Kind: reconnect.FailureUnreachable, Code: int32(status)}
	}
	f := reconnect.Failure{Kind: reconnect.FailureOther}
	if int(int32(status)) == status { // a status beyond int32 is no close status: no code
		f.Code = int32(status)
	}
	return f
}
