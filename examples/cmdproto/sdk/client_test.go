package sdk

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/reconnect-go/reconnect"
	"github.com/reconnect-go/reconnect/runner"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestNewRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{{}, {Endpoints: []string{"localhost:1"}, IdleLimit: -1}} {
		var fe *reconnect.FieldError
		if _, err := New(o); !errors.As(err, &fe) {
			t.Errorf("New(%+v) = %v, want a *reconnect.FieldError", o, err)
		}
	}
}

func TestConnectPublishClose(t *testing.T) {
	s := startServer(t)
	got := make(chan string, 4)
	c, err := New(Options{Endpoints: []string{s.Addr()}, Token: "t1", Logger: quiet(), OnMessage: func(d string) { got <- d }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if err := c.Publish("hello"); err != nil {
		t.Fatalf("Publish: %v", err)
	}
	select {
	case d := <-got:
		if d != "hello" {
			t.Errorf("echo %q", d)
		}
	case <-ctx.Done():
		t.Fatal("no echo")
	}
	if err := c.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := c.Publish("late"); !errors.Is(err, ErrNotConnected) {
		t.Errorf("Publish after Close: %v, want ErrNotConnected", err)
	}
}

func TestConnectReturnsTheFirstAttemptsFailure(t *testing.T) {
	s := startServer(t)
	s.Refuse.Store(true)
	c, err := New(Options{Endpoints: []string{s.Addr()}, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = c.Connect(ctx)
	var ce *runner.ConnectError
	if !errors.As(err, &ce) || ce.Failure.Kind != reconnect.FailureHTTPStatus || ce.Failure.Status != 503 || ce.RetryIn <= 0 {
		t.Fatalf("Connect: %v, want a *runner.ConnectError with http-status:503 and a retry", err)
	}
	if err := c.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
}
