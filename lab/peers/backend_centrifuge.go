package peers

import (
	"context"
	"net/http"
	"time"

	"github.com/centrifugal/centrifuge"
	"github.com/reconnect-go/reconnect/lab"
)

// centrifugeBackend is a server built on github.com/centrifugal/centrifuge
// (the library Centrifugo is built on) with its websocket endpoint
// (/connection/websocket), its HTTP-streaming endpoint
// (/connection/http_stream) and the emulation endpoint (/emulation) that
// makes HTTP streaming bidirectional, greeting every connection with an
// asynchronous application message.
type centrifugeBackend struct {
	hb   Heartbeat
	addr string
	node *centrifuge.Node
	srv  *http.Server
}

func newCentrifugeBackend(hb Heartbeat) (*centrifugeBackend, error) {
	b := &centrifugeBackend{hb: hb, addr: "127.0.0.1:0"}
	if err := b.start(); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *centrifugeBackend) start() error {
	node, err := centrifuge.New(centrifuge.Config{Name: "lab-peers"})
	if err != nil {
		return err
	}
	node.OnConnecting(func(ctx context.Context, e centrifuge.ConnectEvent) (centrifuge.ConnectReply, error) {
		return centrifuge.ConnectReply{Credentials: &centrifuge.Credentials{UserID: ""}}, nil
	})
	node.OnConnect(func(c *centrifuge.Client) {
		_ = c.Send([]byte(`{"greeting":"` + greeting + `"}`))
	})
	if err := node.Run(); err != nil {
		return err
	}
	ping := centrifuge.PingPongConfig{PingInterval: b.hb.Interval, PongTimeout: b.hb.Timeout}
	mux := http.NewServeMux()
	mux.Handle("/connection/websocket", centrifuge.NewWebsocketHandler(node, centrifuge.WebsocketConfig{
		CheckOrigin: func(*http.Request) bool { return true }, PingPongConfig: ping}))
	mux.Handle("/connection/http_stream", centrifuge.NewHTTPStreamHandler(node, centrifuge.HTTPStreamConfig{PingPongConfig: ping}))
	mux.Handle("/emulation", centrifuge.NewEmulationHandler(node, centrifuge.EmulationConfig{}))
	ln, err := lab.ListenTCP(b.addr)
	if err != nil {
		_ = node.Shutdown(context.Background())
		return err
	}
	b.addr, b.node = ln.Addr().String(), node
	b.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = b.srv.Serve(ln) }()
	return nil
}

func (b *centrifugeBackend) hosts() []hostAddr { return []hostAddr{{name: peerHost, addr: b.addr}} }

// restart stops the node and its HTTP server and starts fresh ones on the
// same address.
func (b *centrifugeBackend) restart() error {
	b.close()
	return b.start()
}

func (b *centrifugeBackend) close() {
	_ = b.srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = b.node.Shutdown(ctx)
}
