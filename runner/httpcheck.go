package runner

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"io"
	"net/http"
	"strings"

	"github.com/reconnect-go/reconnect"
)

// maxCheckBody is how much of a connectivity check response is read: "yes"
// and some white space fit many times over.
const maxCheckBody = 512

// HTTPConnectivityCheck returns the default connectivity check (RTN17j):
// GET url with client and judge the response with reconnect.ConnectivityUp
// (a 2xx status and a body that, trimmed, is exactly "yes"). A failed
// request, or none before ctx is done, is down. At most 512 bytes of the
// body are read.
func HTTPConnectivityCheck(client *http.Client, url string) func(ctx context.Context) bool {
	return func(ctx context.Context) bool {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return false
		}
		resp, err := client.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxCheckBody))
		if err != nil {
			return false
		}
		return reconnect.ConnectivityUp(resp.StatusCode, body)
	}
}

// WebSocketHandshakeCheck returns the default websocket check of
// PolicyWebSocketCheck: a websocket opening handshake (RFC 6455) to url
// ("wss://…" or "ws://…") with client, up when the server answers
// 101 Switching Protocols with the right Sec-WebSocket-Accept; the
// connection is closed at once. A failed request, another answer, or none
// before ctx is done, is down.
func WebSocketHandshakeCheck(client *http.Client, url string) func(ctx context.Context) bool {
	httpURL := url
	switch {
	case strings.HasPrefix(url, "wss://"):
		httpURL = "https://" + url[len("wss://"):]
	case strings.HasPrefix(url, "ws://"):
		httpURL = "http://" + url[len("ws://"):]
	}
	return func(ctx context.Context) bool {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, httpURL, nil)
		if err != nil {
			return false
		}
		var nonce [16]byte
		_, _ = rand.Read(nonce[:])
		key := base64.StdEncoding.EncodeToString(nonce[:])
		req.Header.Set("Connection", "Upgrade")
		req.Header.Set("Upgrade", "websocket")
		req.Header.Set("Sec-WebSocket-Version", "13")
		req.Header.Set("Sec-WebSocket-Key", key)
		resp, err := client.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return resp.StatusCode == http.StatusSwitchingProtocols && resp.Header.Get("Sec-WebSocket-Accept") == acceptKey(key)
	}
}

// websocketGUID is the fixed GUID of RFC 6455 section 1.3.
const websocketGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// acceptKey is the Sec-WebSocket-Accept a server must answer for key.
func acceptKey(key string) string {
	h := sha1.Sum([]byte(key + websocketGUID))
	return base64.StdEncoding.EncodeToString(h[:])
}
