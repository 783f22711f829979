package lab

import (
	"net"
	"time"
)

// ListenTCP listens on the TCP address addr ("host:port"; port 0 picks a
// free one). A restarted listener asks for its old port, which an
// outgoing connection's ephemeral port can briefly hold, so a failed
// listen is retried every 20 ms, 50 times in all (about one second),
// before the last error is returned.
func ListenTCP(addr string) (net.Listener, error) {
	var ln net.Listener
	var err error
	for try := 0; try < 50; try++ {
		if ln, err = net.Listen("tcp", addr); err == nil {
			return ln, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, err
}
