package runner_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/runner"
)

// Every row of Classify's table, from real errors on loopback sockets.
func TestClassifyRealLoopbackErrors(t *testing.T) {
	kind := func(t *testing.T, err error, resp *http.Response, want reconnect.FailureKind) {
		t.Helper()
		if err == nil && resp == nil {
			t.Fatal("the setup produced no error")
		}
		got := runner.Classify(err, resp)
		if got.Kind != want {
			t.Errorf("Classify(%v) = %v, want %v", err, got, want)
		}
		// The chain is kept: errors.Is finds err itself, and errors.As
		// each error of its chain.
		if err != nil && (!errors.Is(got, err) || got.Unwrap() != err) {
			t.Errorf("Classify(%v) lost the error: Unwrap() = %v", err, got.Unwrap())
		}
		var op *net.OpError
		if errors.As(err, &op) {
			var again *net.OpError
			if !errors.As(got, &again) || again != op {
				t.Errorf("errors.As on Classify(%v) found %v, want %v", err, again, op)
			}
		}
	}
	t.Run("refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		_, err = net.Dial("tcp", addr)
		kind(t, err, nil, reconnect.FailureRefused)
	})
	t.Run("read timeout", func(t *testing.T) {
		c := pair(t, func(net.Conn) {})
		c.SetReadDeadline(time.Now())
		_, err := c.Read(make([]byte, 1))
		kind(t, err, nil, reconnect.FailureTimeout)
	})
	t.Run("context deadline", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		defer srv.Close()
		ctx, cancel := context.WithDeadline(context.Background(), time.Now())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		_, err := srv.Client().Do(req)
		kind(t, err, nil, reconnect.FailureTimeout)
	})
	t.Run("dns", func(t *testing.T) {
		r := &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
			return nil, errors.New("no name server")
		}}
		d := net.Dialer{Resolver: r}
		_, err := d.Dial("tcp", "realtime.example.test:443")
		kind(t, err, nil, reconnect.FailureDNS)
	})
	t.Run("tls", func(t *testing.T) {
		srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		defer srv.Close()
		client := &http.Client{Transport: &http.Transport{}} // does not trust the test certificate
		_, err := client.Get(srv.URL)
		kind(t, err, nil, reconnect.FailureOther)
	})
	t.Run("http status with Server", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Server", "CloudFront")
			w.WriteHeader(http.StatusForbidden)
		}))
		defer srv.Close()
		resp, err := srv.Client().Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		f := runner.Classify(nil, resp)
		if f != (reconnect.Failure{Kind: reconnect.FailureHTTPStatus, Status: 403, Server: "CloudFront"}) || !reconnect.ShouldFallback(f) {
			t.Errorf("got %v (fallback %v)", f, reconnect.ShouldFallback(f))
		}
		resp.StatusCode = http.StatusOK
		if f := runner.Classify(nil, resp); f != (reconnect.Failure{}) {
			t.Errorf("a 200 gave %v", f)
		}
		resp.StatusCode = http.StatusSwitchingProtocols
		if f := runner.Classify(nil, resp); f != (reconnect.Failure{}) {
			t.Errorf("a 101 gave %v", f)
		}
	})
	t.Run("reset", func(t *testing.T) {
		c := pair(t, func(s net.Conn) {
			s.(*net.TCPConn).SetLinger(0)
			s.Close()
		})
		_, err := c.Read(make([]byte, 1))
		kind(t, err, nil, reconnect.FailureUnreachable)
	})
	t.Run("eof", func(t *testing.T) {
		c := pair(t, func(s net.Conn) { s.Close() })
		_, err := c.Read(make([]byte, 1))
		kind(t, err, nil, reconnect.FailureUnreachable)
	})
	t.Run("cancelled", func(t *testing.T) {
		kind(t, context.Canceled, nil, reconnect.FailureOther)
		wrapped := fmt.Errorf("sdk: dial: %w", context.Canceled)
		kind(t, wrapped, nil, reconnect.FailureOther)
		if f := runner.Classify(wrapped, nil); !errors.Is(f, context.Canceled) {
			t.Errorf("errors.Is(%v, context.Canceled) = false", f)
		}
		kind(t, errors.New("not a network error"), nil, reconnect.FailureOther)
	})
	if f := runner.Classify(nil, nil); f != (reconnect.Failure{}) {
		t.Errorf("no error gave %v", f)
	}
}

// pair dials a loopback listener and hands the server's side to server;
// it returns the client's side.
func pair(t *testing.T, server func(net.Conn)) net.Conn {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	server(s)
	return c
}

func TestCloseStatusFailureBeyondInt32HasNoCode(t *testing.T) {
	if got := runner.CloseStatusFailure(1 << 40); got != (reconnect.Failure{Kind: reconnect.FailureOther}) {
		t.Errorf("CloseStatusFailure(1<<40) = %#v, want FailureOther without a code", got)
	}
}

func TestCloseStatusFailure(t *testing.T) {
	for status, want := range map[int]reconnect.FailureKind{
		1000: reconnect.FailureNone, 1001: reconnect.FailureUnreachable, 1006: reconnect.FailureUnreachable,
		1011: reconnect.FailureUnreachable, 1012: reconnect.FailureUnreachable, 1013: reconnect.FailureUnreachable,
		1014: reconnect.FailureUnreachable, 1002: reconnect.FailureOther, 1008: reconnect.FailureOther,
		4000: reconnect.FailureOther, -1: reconnect.FailureOther, 0: reconnect.FailureOther,
	} {
		got := runner.CloseStatusFailure(status)
		if got.Kind != want {
			t.Errorf("CloseStatusFailure(%d) = %v, want %v", status, got, want)
		}
		// The status is the Failure's Code; a clean close is the zero Failure.
		if wantCode := int32(status); status == 1000 && got != (reconnect.Failure{}) || status != 1000 && got.Code != wantCode {
			t.Errorf("CloseStatusFailure(%d) = %#v, want Code %d", status, got, wantCode)
		}
	}
}
