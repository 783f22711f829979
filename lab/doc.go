// Package lab drives reconnect engines over real loopback sockets.
//
// It has three parts, each usable on its own:
//
//   - Server: a loopback server speaking the lab protocol (a websocket
//     endpoint, an HTTP long-poll endpoint and a connectivity-check
//     endpoint answering "yes"), serving several host names, a primary and
//     fallbacks, each on its own 127.0.0.1 listener, with faults injected
//     per host (HostFault) and on the connectivity check (CheckFault).
//   - Network: the client side's name resolution. It maps the lab's host
//     names to their loopback listeners and refuses everything else, so no
//     byte of the lab ever leaves the machine.
//   - Transports: a websocket client on github.com/coder/websocket and an
//     HTTP long-poll client on net/http, which report viable, connected,
//     failed and closed the way engine.Engine expects its events.
//
// The protocol, what "viable" and "connected" mean on the wire, and each
// fault are described in the module's README.md.
package lab
