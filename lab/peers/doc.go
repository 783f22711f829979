// Package peers runs the field's own realtime clients beside this
// module's, fault by fault, on real loopback sockets: socket.io (its
// server and socket.io-client in Node, polling first by default and
// websocket first), Centrifugo's stack (a server on
// github.com/centrifugal/centrifuge here, the centrifuge JS client in
// Node, websocket then its HTTP-streaming emulation), and runner-driven
// clients on the lab's server at two short circuits. Each kind talks to
// its own server through the same fault Proxy, and the same fault is
// applied to all of them; Run measures, per kind and fault, the time to
// the first application message, what each client opened, how long a
// stall took to detect and to recover, and a restart's accept peak and
// recovery. The Node programs are under node/ (package.json and
// package-lock.json pin every version; `npm ci` there installs them).
//
// Every byte goes to 127.0.0.1. docs/peers.md has the results.
package peers
