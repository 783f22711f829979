// A socket.io server on 127.0.0.1 that greets every connection with one
// application message ("hello"). Prints {"event":"listening","port":N}
// once it listens.
//
//   node socketio-server.mjs --port 0 --ping-interval-ms 25000 \
//     --ping-timeout-ms 20000 --deadline-ms 600000

import http from "node:http";
import { Server } from "socket.io";
import { emit, flags, guard } from "./common.mjs";

const f = flags(process.argv.slice(2));
guard(f["deadline-ms"]);
const opts = {};
if (f["ping-interval-ms"]) opts.pingInterval = Number(f["ping-interval-ms"]);
if (f["ping-timeout-ms"]) opts.pingTimeout = Number(f["ping-timeout-ms"]);

const httpServer = http.createServer();
const io = new Server(httpServer, opts);
io.on("connection", (socket) => {
  socket.emit("hello", "hello");
});
httpServer.listen(Number(f.port || 0), "127.0.0.1", () => {
  emit({ event: "listening", port: httpServer.address().port });
});
