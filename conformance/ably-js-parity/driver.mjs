// Runs the real, unmodified ably-js ConnectionManager (npm ably@2.28.0,
// build/ably-node.js) on the timelines of timelines.json in virtual time and
// prints one JSON document: {"ably": version, "timelines": [{"id", "trace"}]}.
//
// Nothing of ably-js is changed. The driver only fills the seams the SDK
// itself reads at run time:
//   - Platform.Config.setTimeout/clearTimeout/nextTick/now: a virtual clock;
//   - Platform.Config.WebSocket: a fake websocket (transports and the
//     websocket connectivity check both construct it);
//   - the comet transport's createRequest: fake HTTP requests;
//   - client.http.checkConnectivity: the fake connectivity check;
//   - Platform.Config.addEventListener: the OS online/offline events;
//   - client.auth.authorize(): the timeline's authorize event;
//   - the client option connectionStateTtl and the CONNECTED message's
//     connectionDetails.connectionStateTtl: the timeline's
//     connectionStateTtl, when it sets one;
//   - Platform.WebStorage: an in-memory store, so the transport preference
//     persists across clients as it does in a browser;
//   - Math.random: always 0 (jitter coefficient 1, fallback hosts in listed
//     order), which the Go side reproduces with a Source that draws 0;
//   - the client's credentials (the timeline's auth): an API key (the
//     default), a token with no means of renewal (token), or an
//     authCallback (callback) that answers its first call at once and every
//     later one (a renewal: a 'renew' line) as the timeline's 'auth' rule
//     says;
//   - the CONNECTED message's connectionDetails: connectionStateTtl (the
//     timeline's serverConnectionStateTtl, else its connectionStateTtl) and
//     maxIdleInterval (the timeline's, 0 by default).
//
// Virtual time: every callback (timer, nextTick, fake network answer,
// timeline event) is a task with a due time in whole milliseconds (delays are
// rounded to the nearest millisecond). Tasks run in order of due time; tasks
// due at the same millisecond run in the order they were scheduled (FIFO).
// Timeline events are scheduled before the client exists, so they run before
// anything else due at the same millisecond. After each task every promise
// continuation it caused runs before the next task.
//
// Usage: node driver.mjs [timelines.json] [id ...]
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const Ably = require('ably');
const ablyVersion = JSON.parse(readFileSync(path.join(path.dirname(require.resolve('ably')), '..', 'package.json'), 'utf8')).version;
const Platform = Ably.Realtime.Platform;

export const PRIMARY = 'main.realtime.ably.net';
const WSCHECK_HOST = 'ws-up.ably-realtime.com';
const HTTP_REQUEST_TIMEOUT = 10000; // what a blackholed connectivity check costs (httpRequestTimeout)

// Defaults for a (kind, host) without a matching rule: everything works.
const DEFAULTS = {
  ws: { do: 'connect', after: 20, connectedAfter: 10 },
  http: { do: 'connect', after: 20, connectedAfter: 10 },
  connectivity: { do: 'up', after: 30 },
  wscheck: { do: 'connect', after: 25 },
  auth: { do: 'up', after: 50 },
};

// ---- the virtual clock ----------------------------------------------------

class Clock {
  constructor() {
    this.now = 0;
    this.seq = 0;
    this.queue = []; // sorted by (due, id)
    this.live = new Set();
  }
  schedule(delay, fn) {
    const id = ++this.seq;
    const d = Math.max(0, Math.round(Number(delay) || 0));
    const task = { due: this.now + d, id, fn };
    let lo = 0,
      hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const q = this.queue[mid];
      if (q.due < task.due || (q.due === task.due && q.id < id)) lo = mid + 1;
      else hi = mid;
    }
    this.queue.splice(lo, 0, task);
    this.live.add(id);
    return id;
  }
  cancel(id) {
    this.live.delete(id);
  }
  async run(until, onError) {
    while (this.queue.length) {
      const task = this.queue[0];
      if (task.due > until) break;
      this.queue.shift();
      if (!this.live.has(task.id)) continue;
      this.live.delete(task.id);
      this.now = task.due;
      try {
        task.fn();
      } catch (e) {
        onError(e);
      }
      await new Promise((resolve) => setImmediate(resolve)); // drain promise continuations
    }
  }
}

// ---- one run of one timeline ------------------------------------------------

class Run {
  constructor(tl) {
    this.tl = tl;
    this.clock = new Clock();
    this.trace = [];
    this.offline = false;
    this.conns = []; // fake transport connections, in open order
    this.listeners = { online: [], offline: [] };
    this.storage = new Map();
    this.nconn = 0;
  }

  record(ev) {
    this.trace.push({ t: this.clock.now, ...ev });
  }

  // rule returns what the fake network does for kind on host now.
  rule(kind, host) {
    if (this.offline) return { do: kind === 'connectivity' || kind === 'auth' ? 'down' : 'refuse', after: 1 };
    const t = this.clock.now;
    for (const r of this.tl.network || []) {
      if (r.transport !== kind && !(r.transport === 'any' && (kind === 'ws' || kind === 'http'))) continue;
      if (r.host && r.host !== 'any') {
        if (r.host === 'primary' ? host !== PRIMARY : r.host === 'fallback' ? host === PRIMARY : r.host !== host) continue;
      }
      if (r.from !== undefined && t < r.from) continue;
      if (r.until !== undefined && t >= r.until) continue;
      const quick = r.do === 'refuse' || (r.do === 'down' && kind !== 'auth');
      return { ...DEFAULTS[kind], ...r, after: r.after ?? (quick ? 1 : DEFAULTS[kind].after) };
    }
    return DEFAULTS[kind];
  }

  // A transport connection opened through a seam.
  openConn(kind, host, mode, impl) {
    const c = { kind, host, impl, state: 'opening', n: ++this.nconn };
    this.conns.push(c);
    this.record({ ev: 'open', transport: kind, host, mode });
    const r = this.rule(kind, host);
    const at = (d, fn) => this.clock.schedule(d, () => c.state !== 'closed' && fn());
    switch (r.do) {
      case 'connect':
      case 'open':
      case 'disconnect':
      case 'error':
        if (kind === 'ws') at(r.after, () => ((c.state = 'open'), impl.opened()));
        if (r.do === 'connect') {
          at(r.after + (r.connectedAfter ?? 10), () => {
            c.state = 'connected';
            impl.message(connectedMessage(c.n, this.tl));
          });
        } else if (r.do === 'disconnect') {
          at(r.after + (r.connectedAfter ?? 10), () =>
            this.serverSays(c, disconnectedMessage(r.status ?? 503, r.code, r.error), r.error),
          );
        } else if (r.do === 'error') {
          at(r.after + (r.connectedAfter ?? 10), () => this.serverSays(c, errorMessage(r.status ?? 400, r.code, r.error), r.error));
        } else if (kind === 'http') {
          at(r.after, () => ((c.state = 'open'), impl.message(null)));
        }
        break;
      case 'refuse':
        at(r.after, () => ((c.state = 'closed'), impl.refused()));
        break;
      case 'status': // http only: an error status with a body that has no error code
        at(r.after, () => ((c.state = 'closed'), impl.status(r.status ?? 403)));
        break;
      case 'blackhole':
        break;
      default:
        throw new Error(`timeline ${this.tl.id}: unknown behaviour ${r.do}`);
    }
    return c;
  }

  // serverSays sends message m on c; with an error shaped "no-code" or
  // "none" the server then closes the websocket cleanly, as it does after a
  // DISCONNECTED or ERROR (otherwise the SDK closes it when it reads m).
  serverSays(c, m, shape) {
    c.impl.message(m);
    if (shape && c.state !== 'closed') (c.state = 'closed'), c.impl.serverClose();
  }

  closeConn(c) {
    if (c.state === 'closed') return;
    c.state = 'closed';
    this.record({ ev: 'close', transport: c.kind, host: c.host });
  }

  active() {
    for (let i = this.conns.length - 1; i >= 0; i--) if (this.conns[i].state === 'connected') return this.conns[i];
    return null;
  }

  install() {
    const run = this;
    const clock = this.clock;
    Platform.Config.setTimeout = (fn, ms) => clock.schedule(ms, fn);
    Platform.Config.clearTimeout = (id) => id && clock.cancel(id);
    Platform.Config.nextTick = (fn, ...args) => clock.schedule(0, () => fn(...args));
    Platform.Config.now = () => clock.now;
    Platform.Config.addEventListener = (name, fn) => run.listeners[name] && run.listeners[name].push(fn);
    Platform.WebStorage = {
      localSupported: true,
      sessionSupported: false,
      get: (name) => (run.storage.has(name) ? run.storage.get(name) : null),
      set: (name, value) => (run.storage.set(name, value), run.record({ ev: 'preference', value })),
      remove: (name) => (run.storage.delete(name), run.record({ ev: 'preference', value: null })),
    };
    Platform.Config.WebSocket = class FakeWebSocket {
      constructor(url) {
        const u = new URL(url);
        const host = u.hostname;
        this.check = host === WSCHECK_HOST;
        if (this.check) {
          run.record({ ev: 'wscheck' });
          const r = run.rule('wscheck', host);
          if (r.do === 'connect') clock.schedule(r.after, () => this.onopen && this.onopen());
          else if (r.do === 'refuse') clock.schedule(r.after, () => this.failed());
          return;
        }
        const ws = this;
        this.conn = run.openConn('ws', host, connectMode(u.searchParams), {
          opened: () => ws.onopen && ws.onopen(),
          message: (m) => m && ws.onmessage && ws.onmessage({ data: JSON.stringify(m) }),
          refused: () => ws.failed(),
          status: () => ws.failed(),
          drop: () => ws.onclose && ws.onclose({ code: 1006, wasClean: false }),
          serverClose: () => ws.onclose && ws.onclose({ code: 1000, wasClean: true }),
        });
      }
      failed() {
        this.onerror && this.onerror({ message: 'connect ECONNREFUSED' });
        this.onclose && this.onclose({ code: 1006, wasClean: false });
      }
      close() {
        if (this.conn) run.closeConn(this.conn);
      }
      send() {}
      on() {}
    };
    const comet = Platform.Transports.bundledImplementations.comet;
    comet.prototype.createRequest = function (uri, headers, params) {
      const req = new EventEmitter();
      req.exec = () => {
        if (!uri.endsWith('/comet/connect')) return; // recv, send, close: never answered
        const host = new URL(uri).hostname;
        req.conn = run.openConn('http', host, connectMode(new URLSearchParams(params || {})), {
          opened: () => {},
          message: (m) => req.emit('data', m ? [m] : []),
          refused: () => req.emit('complete', new Error('connect ECONNREFUSED')),
          // as NodeCometTransport's readFully reports an error status whose
          // body has no error member: a statusCode and no code
          status: (statusCode) =>
            req.emit(
              'complete',
              Object.assign(new Error('Error response received from server: ' + statusCode), { statusCode }),
            ),
          drop: () => req.emit('complete', new Error('socket hang up')),
          serverClose: () => req.emit('complete', null), // the response ends
        });
      };
      req.abort = () => req.conn && run.closeConn(req.conn);
      return req;
    };
  }

  newClient() {
    const tl = this.tl;
    const auth = tl.auth || 'key';
    let authCalls = 0;
    const credentials =
      auth === 'token'
        ? { token: 'token0' }
        : auth === 'callback'
          ? {
              authCallback: (_params, cb) => {
                if (authCalls++ === 0) return cb(null, 'token0'); // the first token: at once, not a renewal
                this.record({ ev: 'renew' });
                const r = this.rule('auth', null);
                if (r.do === 'up') this.clock.schedule(r.after, () => cb(null, 'token' + authCalls));
                else if (r.do === 'down')
                  this.clock.schedule(r.after, () =>
                    cb({ statusCode: r.status ?? 401, code: r.code ?? 40170, message: 'no token' }, null),
                  );
                // blackhole: no answer; ably-js's own timeout (realtimeRequestTimeout) ends it
              },
            }
          : { key: 'appid.keyid:secret' };
    const client = new Ably.Realtime({
      ...credentials,
      autoConnect: false,
      useBinaryProtocol: false,
      logLevel: 0,
      transports: tl.transports || ['web_socket', 'comet'],
      ...(tl.connectionStateTtl ? { connectionStateTtl: tl.connectionStateTtl } : {}),
    });
    const cm = client.connection.connectionManager;
    cm.on('connectionstate', (ch) =>
      this.record({ ev: 'state', from: ch.previous, to: ch.current, retryIn: Math.round(ch.retryIn || 0) }),
    );
    cm.on('update', () => this.record({ ev: 'update' }));
    client.http.checkConnectivity = () =>
      new Promise((resolve) => {
        this.record({ ev: 'check' });
        const r = this.rule('connectivity', null);
        if (r.do === 'blackhole') this.clock.schedule(HTTP_REQUEST_TIMEOUT, () => resolve(false));
        else this.clock.schedule(r.after, () => resolve(r.do === 'up'));
      });
    return client;
  }

  event(e) {
    switch (e.do) {
      case 'connect':
        this.client.connect();
        break;
      case 'close':
        this.client.close();
        break;
      case 'restart':
        this.client.close();
        this.listeners = { online: [], offline: [] };
        this.client = this.newClient();
        this.client.connect();
        break;
      case 'drop': {
        const c = this.active();
        if (c) (c.state = 'closed'), c.impl.drop();
        break;
      }
      case 'server-disconnected': {
        const c = this.active();
        if (c) this.serverSays(c, disconnectedMessage(e.status, e.code, e.error), e.error);
        break;
      }
      case 'server-error': {
        const c = this.active();
        if (c) this.serverSays(c, errorMessage(e.status, e.code, e.error), e.error);
        break;
      }
      case 'server-connected': {
        const c = this.active();
        if (c) c.impl.message(connectedMessage(c.n, { ...this.tl, serverConnectionStateTtl: e.ttl }));
        break;
      }
      case 'offline':
        this.offline = true;
        this.listeners.offline.forEach((f) => f());
        break;
      case 'online':
        this.offline = false;
        this.listeners.online.forEach((f) => f());
        break;
      case 'authorize': // its outcome shows in the states; the promise's rejection is expected
        this.client.auth.authorize().catch(() => {});
        break;
      default:
        throw new Error(`timeline ${this.tl.id}: unknown event ${e.do}`);
    }
  }

  async go() {
    this.install();
    for (const e of this.tl.events || []) this.clock.schedule(e.at, () => this.event(e));
    this.client = this.newClient();
    await this.clock.run(this.tl.until ?? 300000, (e) => this.record({ ev: 'error', message: String(e && e.stack) }));
    return { id: this.tl.id, trace: this.trace };
  }
}

// connectMode is the connection mode a transport's connect parameters ask
// for: resume or recover with the key, else clean.
function connectMode(params) {
  return params.has('resume') ? 'resume' : params.has('recover') ? 'recover' : 'clean';
}

// connectedMessage is the server's CONNECTED, with the timeline's
// serverConnectionStateTtl, else its connectionStateTtl (default 120 s),
// and its maxIdleInterval (default 0) in its connection details.
function connectedMessage(n, tl) {
  return {
    action: 4,
    connectionId: 'conn' + n,
    connectionDetails: {
      connectionKey: 'key' + n,
      connectionStateTtl: tl.serverConnectionStateTtl || tl.connectionStateTtl || 120000,
      maxIdleInterval: tl.maxIdleInterval || 0,
    },
  };
}

// wireError is a message's error: statusCode and code, the statusCode
// alone (shape "no-code"), or none at all (shape "none").
function wireError(status, code, message, shape) {
  if (shape === 'none') return {};
  if (shape === 'no-code') return { error: { statusCode: status, message } };
  return { error: { statusCode: status, code, message } };
}

// disconnectedMessage is the server's DISCONNECTED with an error of the
// given statusCode and code (80003 by default), shaped as wireError says.
function disconnectedMessage(status, code, shape) {
  return { action: 6, ...wireError(status, code ?? 80003, 'disconnected by the server', shape) };
}

// errorMessage is the server's connection-wide ERROR (no channel) with an
// error of the given statusCode and code (40000 by default), shaped as
// wireError says.
function errorMessage(status, code, shape) {
  return { action: 9, ...wireError(status, code ?? 40000, 'error from the server', shape) };
}

async function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const file = process.argv[2] || path.join(here, 'timelines.json');
  const only = new Set(process.argv.slice(3));
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  Math.random = () => 0;
  const out = [];
  for (const tl of doc.timelines) {
    if (only.size && !only.has(tl.id)) continue;
    out.push(await new Run(tl).go());
  }
  process.stdout.write(JSON.stringify({ ably: ablyVersion, timelines: out }, null, 1) + '\n');
}

main().catch((e) => {
  console.error(e && e.stack);
  process.exit(1);
});
