// N clients of one kind against one server, each reporting what happens
// to it as JSON lines on stdout: {"t": ms, "c": client, "e": event, ...}.
// Events: start (the client was created and asked to connect), connect
// (the library says connected; tr is the transport), message (the
// server's application message arrived; tr is the transport), upgrade
// (socket.io moved to another transport), disconnect (the library saw
// the connection lost; reason), error (a failed attempt or transport;
// msg).
//
//   node clients.mjs --kind socketio-polling|socketio-websocket|centrifuge \
//     --url http://127.0.0.1:PORT --clients N --deadline-ms MS \
//     [--max-server-ping-delay-ms MS]

import { io } from "socket.io-client";
import { Centrifuge } from "centrifuge";
import WebSocket from "ws";
import { emit, fail, flags, guard } from "./common.mjs";

const f = flags(process.argv.slice(2));
guard(f["deadline-ms"]);
const n = Number(f.clients);
if (!(n >= 1 && n <= 10000)) fail("--clients must be 1 to 10000");
const base = f.url;
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base || "")) fail("--url must be http://127.0.0.1:PORT");

function socketio(c, websocketFirst) {
  const opts = { query: { client: String(c) }, forceNew: true };
  if (websocketFirst) {
    opts.transports = ["websocket", "polling"];
    opts.tryAllTransports = true;
  }
  const socket = io(base, opts);
  const transport = () => socket.io.engine?.transport?.name;
  socket.on("connect", () => emit({ c, e: "connect", tr: transport() }));
  socket.on("hello", () => emit({ c, e: "message", tr: transport() }));
  socket.on("disconnect", (reason) => emit({ c, e: "disconnect", reason }));
  socket.on("connect_error", (err) => emit({ c, e: "error", msg: String(err?.message || err) }));
  socket.io.on("open", () => {
    socket.io.engine.on("upgrade", (t) => emit({ c, e: "upgrade", tr: t.name }));
  });
}

function centrifuge(c) {
  const ws = base.replace(/^http/, "ws");
  const q = `?client=${c}`;
  const opts = { websocket: WebSocket, emulationEndpoint: `${base}/emulation${q}` };
  if (f["max-server-ping-delay-ms"]) opts.maxServerPingDelay = Number(f["max-server-ping-delay-ms"]);
  const client = new Centrifuge(
    [
      { transport: "websocket", endpoint: `${ws}/connection/websocket${q}` },
      { transport: "http_stream", endpoint: `${base}/connection/http_stream${q}` },
    ],
    opts,
  );
  client.on("connected", (ctx) => emit({ c, e: "connect", tr: ctx.transport }));
  client.on("message", () => emit({ c, e: "message", tr: client._transport?.name?.() }));
  client.on("connecting", (ctx) => {
    if (ctx.code !== 0) emit({ c, e: "disconnect", reason: `${ctx.code} ${ctx.reason}` });
  });
  client.on("error", (ctx) => emit({ c, e: "error", msg: `${ctx.type} ${ctx.error?.message || ""}`.trim() }));
  client.connect();
}

for (let c = 0; c < n; c++) {
  emit({ c, e: "start" });
  switch (f.kind) {
    case "socketio-polling":
      socketio(c, false);
      break;
    case "socketio-websocket":
      socketio(c, true);
      break;
    case "centrifuge":
      centrifuge(c);
      break;
    default:
      fail(`unknown --kind ${JSON.stringify(f.kind)}`);
  }
}
