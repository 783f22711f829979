package runner

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHTTPConnectivityCheckJudgesTheAnswer(t *testing.T) {
	cases := []struct {
		status int
		body   string
		up     bool
	}{
		{200, "yes", true},
		{200, "yes\n", true},
		{204, "", false},
		{200, "no", false},
		{503, "yes", false},
		{200, strings.Repeat("yes ", 1000), false},
	}
	for _, c := range cases {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(c.status)
			_, _ = w.Write([]byte(c.body))
		}))
		got := HTTPConnectivityCheck(srv.Client(), srv.URL)(context.Background())
		srv.Close()
		if got != c.up {
			t.Errorf("status %d body %.20q: up=%v, want %v", c.status, c.body, got, c.up)
		}
	}
}

func TestHTTPConnectivityCheckIsDownWithoutAnswer(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-hang }))
	defer srv.Close()
	defer close(hang)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if HTTPConnectivityCheck(srv.Client(), srv.URL)(ctx) {
		t.Fatal("up without an answer")
	}
	if HTTPConnectivityCheck(srv.Client(), "http://127.0.0.1:0/")(context.Background()) {
		t.Fatal("up for a refused connection")
	}
	if HTTPConnectivityCheck(srv.Client(), "::bad url")(context.Background()) {
		t.Fatal("up for a malformed URL")
	}
}

func TestWebSocketHandshakeCheck(t *testing.T) {
	upgrade := func(accept func(string) string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Upgrade") != "websocket" {
				http.Error(w, "not a websocket", http.StatusBadRequest)
				return
			}
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			_, _ = buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
				"Sec-WebSocket-Accept: " + accept(r.Header.Get("Sec-WebSocket-Key")) + "\r\n\r\n")
			_ = buf.Flush()
		}
	}
	cases := []struct {
		name    string
		handler http.HandlerFunc
		up      bool
	}{
		{"handshake", upgrade(acceptKey), true},
		{"wrong accept", upgrade(func(string) string { return "x" }), false},
		{"rejected", func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusForbidden) }, false},
	}
	for _, c := range cases {
		srv := httptest.NewServer(c.handler)
		url := "ws://" + strings.TrimPrefix(srv.URL, "http://")
		got := WebSocketHandshakeCheck(srv.Client(), url)(context.Background())
		srv.Close()
		if got != c.up {
			t.Errorf("%s: up=%v, want %v", c.name, got, c.up)
		}
	}
}

// TestAcceptKeyMatchesRFC6455 checks the example of RFC 6455 section 1.3.
func TestAcceptKeyMatchesRFC6455(t *testing.T) {
	if got := acceptKey("dGhlIHNhbXBsZSBub25jZQ=="); got != "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=" {
		t.Fatalf("acceptKey = %q", got)
	}
}
