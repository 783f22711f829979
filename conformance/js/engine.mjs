// The connection engine of docs/engine.md in plain JavaScript: a sans-IO
// state machine. step(atMs, event) takes one event (in the scenario grammar)
// and returns the actions to perform (in the action grammar), in the order
// docs/engine.md gives. Written from docs/engine.md and fixtures/README.md;
// where they were silent, conformance/js/ENGINE-GUESSES.md says what was
// guessed. The RTB1, host and transport rules come from the adapter (lib).

// The defaults of docs/engine.md, "Configuration and defaults" (the same
// as the `defaults` object of fixtures/scenarios.json).
export const DEFAULTS = {
  policy: "websocket-first",
  webSocket: true,
  http: true,
  endpoint: "",
  shortCircuitMs: 2000,
  realtimeRequestTimeoutMs: 10000,
  httpRequestTimeoutMs: 10000,
  httpMaxRetryCount: 3,
  disconnectedRetryTimeoutMs: 15000,
  suspendedRetryTimeoutMs: 30000,
  connectionStateTtlMs: 120000,
  slowTimeoutMs: 4000,
  giveUpTimeoutMs: 10000,
  flapDrops: 4,
  flapWindowMs: 300000,
  flapHoldMs: 600000,
  preference: "",
  preferenceTtlMs: 86400000,
  rememberTransport: false,
  reconnectWindowMs: 0,
  immediateShare: 0,
  retrySpread: 0,
  suspendedSpread: 0,
  canRenewToken: false,
  // The jobs of realtimeRequestTimeout (0 means it) and the client-side
  // idle limit (0 means none).
  connectTimeoutMs: 0,
  idleSlackMs: 0,
  closingTimeoutMs: 0,
  renewalTimeoutMs: 0,
  idleLimitMs: 0,
  retryFamily: "rtb1",
  retryBaseMs: 0,
  retryCapMs: 0,
  retryMultiplier: 0,
  retryJitter: 0,
  immediateReconnect: "on",
  immediateReconnectIntervalMs: 0,
  adaptiveMultiple: 0,
  adaptiveFloorMs: 0,
  firstRetryMs: 0,
};

// The retry families' names in the scenarios' config, and in retry.json.
const RETRY_FAMILIES = { "full-jitter": "fullJitter", "equal-jitter": "equalJitter", grpc: "grpc", "decorrelated-jitter": "decorrelated" };

// The wall clock at atMs 0 (the scenarios' `clock`).
export const EPOCH_UNIX_MS = 1767225600000;

// Block 4: the attempt timers, in their cancelling order.
const ATTEMPT_TIMERS = ["short-circuit", "connectivity-check", "websocket-slow", "websocket-give-up", "attempt", "slow-check", "renew-token"];
// Block 5: every timer, in the order stopping everything cancels them.
const ALL_TIMERS = ["short-circuit", "retry", "state-ttl", "connectivity-check", "close", "websocket-slow", "websocket-give-up", "flap-hold", "attempt", "slow-check", "idle", "renew-token"];

const NS = 1000000n;
const msText = (ns) => {
  const whole = ns / NS;
  const frac = ns % NS;
  return frac === 0n ? String(whole) : `${whole}.${String(frac).padStart(6, "0").replace(/0+$/, "")}`;
};
const nsOfMs = (ms) => BigInt(Math.round(ms * 1e6));

// A failure `<kind>[:<status>[:<server>]]`, kept as the grammar writes it:
// the status only for http-status and disconnected (0 when the event has
// none: `disconnected` is `disconnected:0`), the server only for
// http-status.
function parseFailure(text) {
  if (!text) return null;
  const [kind, status, ...rest] = text.split(":");
  const f = { kind, status: status === undefined ? 0 : Number(status), server: rest.join(":") };
  if (kind === "http-status") f.text = [kind, status, rest.length ? rest.join(":") : undefined].filter((x) => x !== undefined).join(":");
  else if (kind === "disconnected") f.text = `${kind}:${f.status}`;
  else f.text = kind;
  return f;
}
// A draw clamped into [0, 1], NaN as 0 (docs/engine.md: every draw, as RTB1's).
const clampDraw = (u) => (Number.isNaN(u) || u < 0 ? 0 : Math.min(u, 1));
const is50x = (f) => f && f.kind === "disconnected" && f.status >= 500 && f.status <= 504;

export class Engine {
  constructor(config, draws, lib) {
    this.lib = lib;
    this.cfg = { ...DEFAULTS, ...config };
    for (const job of ["connectTimeoutMs", "idleSlackMs", "closingTimeoutMs", "renewalTimeoutMs"]) {
      if (!(this.cfg[job] > 0)) this.cfg[job] = this.cfg.realtimeRequestTimeoutMs;
    }
    const opts = { endpoint: this.cfg.endpoint };
    if (config.fallbackHosts !== undefined) opts.fallbackHosts = config.fallbackHosts;
    const hosts = lib.resolveHosts(opts);
    this.primary = hosts.primary;
    this.fallbacks = hosts.fallbacks;
    // RTN17j: every fallback host; websocket-check keeps ably-js's cap.
    this.maxFallbacks =
      this.cfg.policy === "websocket-check" ? Math.min(this.cfg.httpMaxRetryCount, this.fallbacks.length) : this.fallbacks.length;
    this.draws = draws ?? [];
    this.drawIndex = 0;
    this.state = "initialized";
    this.nowNs = 0n;
    this.nextTransport = 1;
    this.nextCheck = 1;
    this.slots = [null, null, null, null];
    this.timers = new Map(); // name -> due (ns)
    this.n = 0;
    this.stateError = null;
    this.everConnected = false;
    this.ttlPassed = false;
    this.lastImmediateNs = null;
    this.early = null; // the first-retry rule: { fromNs, n } from an immediate reconnect
    this.windowDue = false;
    this.flapDrops = [];
    this.holdEndNs = null;
    this.preference = this.cfg.preference ? lib.decodePreference(this.cfg.preference).preference ?? null : null;
    if (this.preference && this.preference.transport === "none") this.preference = null;
    this.bgCheck = 0; // the background websocket check of a remembered HTTP
    this.redirectPending = false;
    // What the server said (docs/engine.md, The server speaks; Liveness;
    // Token errors).
    this.serverTtlMs = 0; // the connection's connectionStateTtl from the server (0: the configured one)
    this.maxIdleNs = 0n; // the active transport's maxIdleInterval (0: no idle timer)
    this.lastActivityNs = 0n;
    this.renewFirst = false; // the next attempt starts with a token renewal
    this.attempt = this.newAttempt();
    this.out = [];
  }

  // ---- building blocks ----------------------------------------------------

  emit(a) {
    this.out.push(a);
  }
  draw() {
    return this.draws[this.drawIndex++] ?? 0;
  }
  get policy() {
    return this.cfg.policy;
  }
  get wc() {
    return this.policy === "websocket-check";
  }
  get both() {
    return this.cfg.webSocket && this.cfg.http;
  }
  mode() {
    return this.everConnected ? "resume" : "clean";
  }
  wallMs() {
    return EPOCH_UNIX_MS + Number(this.nowNs / NS);
  }
  holdInForce() {
    return !this.wc && this.both && this.holdEndNs !== null && this.nowNs < this.holdEndNs;
  }
  rememberedHttp() {
    const p = this.preference;
    if (!p || p.transport !== "http" || !this.cfg.http) return false;
    if (!this.wc && !this.cfg.rememberTransport) return false;
    return this.wallMs() < p.atMs + this.cfg.preferenceTtlMs;
  }

  newAttempt() {
    return {
      lastFailure: null,
      flowKind: null, // the transport kind that walks the hosts
      flowStarted: false,
      hostIndex: 0, // into hostOf's list: 0 the first host, then the drawn order
      firstHostIndex: 0,
      order: null, // drawn fallback hosts
      displacedHost: null,
      check: null, // {id, purpose: "fallback"|"redirect"}
      slowCheck: 0,
      wsCheck: { id: 0, state: "none" },
      startedOnPreference: false,
      renewal: 0, // the token renewal in flight
      renewed: false, // the attempt followed a renewal
    };
  }
  hostAt(i) {
    if (i === 0) return this.primary;
    return (this.attempt.order ?? [])[i - 1] ?? this.primary;
  }
  drawOrder() {
    if (this.attempt.order) return;
    const draws = [];
    for (let k = 0; k < this.maxFallbacks; k++) draws.push(this.draw());
    this.attempt.order = this.lib.hostOrder(this.primary, this.fallbacks, this.maxFallbacks, draws).slice(1);
  }

  startTimer(name, durationNs) {
    if (this.timers.has(name)) this.emit(`cancel ${name}`);
    const due = this.nowNs + durationNs;
    this.timers.set(name, due);
    this.emit(`timer ${name} at=${msText(due)}`);
  }
  startTimerMs(name, ms) {
    this.startTimer(name, nsOfMs(ms));
  }
  cancelTimer(name) {
    if (this.timers.delete(name)) this.emit(`cancel ${name}`);
  }
  cancelAttemptTimers() {
    for (const t of ATTEMPT_TIMERS) this.cancelTimer(t);
    this.attempt.check = null;
    this.attempt.slowCheck = 0;
  }

  live() {
    return this.slots.filter(Boolean);
  }
  find(id) {
    return this.slots.find((t) => t && t.id === id) ?? null;
  }
  pending() {
    return this.live().find((t) => t.status === "pending") ?? null;
  }
  active() {
    return this.live().find((t) => t.status === "active") ?? null;
  }
  open(kind, host, mode, role) {
    const t = { id: this.nextTransport++, kind, host, mode, role, status: "opening" };
    this.slots[this.slots.indexOf(null)] = t;
    this.emit(`open T${t.id} ${kind} ${host} ${mode}`);
    this.startTimerMs(`connect T${t.id}`, this.cfg.connectTimeoutMs);
    return t;
  }
  openFlow(kind, hostIndex) {
    this.attempt.flowKind = kind;
    this.attempt.flowStarted = true;
    this.attempt.hostIndex = hostIndex;
    return this.open(kind, this.hostAt(hostIndex), this.mode(), "flow");
  }
  dispose(t) {
    this.cancelTimer(`connect T${t.id}`);
    this.emit(`dispose T${t.id}`);
    if (t.status === "active") this.cancelTimer("idle");
    this.slots[this.slots.indexOf(t)] = null;
  }
  disposeAll(except = null) {
    for (const t of this.live()) if (t !== except) this.dispose(t);
  }
  stopEverything() {
    this.disposeAll();
    for (const t of ALL_TIMERS) this.cancelTimer(t);
    this.attempt.check = null;
    this.attempt.slowCheck = 0;
  }
  newCheck() {
    return this.nextCheck++;
  }

  setState(to, reason, { retryInNs = null, error = null } = {}) {
    let a = `state ${this.state} ${to} ${reason}`;
    if (retryInNs !== null) a += ` retryIn=${msText(retryInNs)}`;
    if (error) a += ` error=${error.text}`;
    this.emit(a);
    this.state = to;
    this.stateError = error;
  }

  // RTB1 (with retrySpread s in place of 0.2), or the configured retry
  // family (retry.json; decorrelated jitter reads the last such delay):
  // one draw, n incremented; within the first-retry rule its early retry
  // instead.
  rtb1Ns() {
    const early = this.earlyRetryNs();
    if (early !== null) return early;
    this.n++;
    const u = this.draw();
    const family = RETRY_FAMILIES[this.cfg.retryFamily];
    if (family) {
      const c = this.cfg;
      const prevMs = this.lastRetryNs === undefined ? 0 : Number(this.lastRetryNs) / 1e6;
      this.lastRetryNs = this.lib.retryFamilyNs(family, { baseMs: c.retryBaseMs, capMs: c.retryCapMs, multiplier: c.retryMultiplier, jitter: c.retryJitter, attempt: this.n, previousMs: prevMs }, u);
      return this.lastRetryNs;
    }
    const s = this.cfg.retrySpread;
    if (!(s > 0)) return this.lib.retryDelayNs(this.cfg.disconnectedRetryTimeoutMs, this.n, u);
    const uc = clampDraw(u);
    return BigInt(Math.round(Math.round(this.cfg.disconnectedRetryTimeoutMs * 1e6) * this.lib.backoffCoefficient(this.n) * (1 - s * uc)));
  }
  // The first-retry rule (firstRetryMs P > 0): within
  // disconnectedRetryTimeout of the immediate reconnect, the first retry
  // waits P × u (one draw, clamped, rounded to the nanosecond), each later
  // one P (no draw), no retry number taken; null when the rule does not
  // apply (and, past disconnectedRetryTimeout, it ends).
  earlyRetryNs() {
    if (!this.early) return null;
    if (this.nowNs - this.early.fromNs >= nsOfMs(this.cfg.disconnectedRetryTimeoutMs)) {
      this.early = null;
      return null;
    }
    this.early.n++;
    if (this.early.n > 1) return nsOfMs(this.cfg.firstRetryMs);
    const u = clampDraw(this.draw());
    return BigInt(Math.round(this.cfg.firstRetryMs * 1e6 * u));
  }
  suspendedNs() {
    this.early = null;
    this.n = 0;
    const s = this.cfg.suspendedSpread;
    if (!(s > 0)) return nsOfMs(this.cfg.suspendedRetryTimeoutMs);
    const u = clampDraw(this.draw());
    return BigInt(Math.round(Math.round(this.cfg.suspendedRetryTimeoutMs * 1e6) * (1 - s * u)));
  }

  // Block 7: the attempt ends DISCONNECTED (or SUSPENDED once
  // connectionStateTtl has passed), with the retry timer.
  endAttempt(reason, error) {
    this.bgCheck = 0; // the background websocket check ends with its attempt
    this.disposeAll();
    this.cancelAttemptTimers();
    if (reason === "connect-failed" && this.attempt.startedOnPreference) this.preference = null;
    const suspended = this.ttlPassed;
    const retryInNs = suspended ? this.suspendedNs() : this.rtb1Ns();
    // RTN14e: SUSPENDED always carries a reason, a timeout when none failed
    if (suspended && !error) error = parseFailure("timeout");
    this.setState(suspended ? "suspended" : "disconnected", reason, { retryInNs, error });
    this.startTimer("retry", retryInNs);
  }

  // Block 6: an attempt starts (the START rows).
  startAttempt(reason) {
    if (this.state !== "connecting") this.setState("connecting", reason);
    this.bgCheck = 0; // an earlier attempt's background websocket check ends
    this.attempt = this.newAttempt();
    this.windowDue = false;
    if (this.renewFirst) return this.renewBeforeAttempt();
    const redirect = this.redirectPending && this.maxFallbacks > 0;
    this.redirectPending = false;
    if (this.wc) this.startTimerMs("attempt", this.cfg.giveUpTimeoutMs + this.cfg.connectTimeoutMs);
    if (this.wc && this.cfg.webSocket) {
      if (redirect) {
        this.startWatchTimers();
        // The RTN17f1 check is the websocket walk's first fallback check:
        // a failed websocket check ends it with nothing, as any other.
        this.attempt.flowKind = "websocket";
        this.askConnectivity("redirect");
      } else if (this.rememberedHttp()) {
        this.startOnRememberedHttp();
      } else {
        this.startWatchTimers();
        this.openFlow("websocket", 0);
      }
      return;
    }
    if (redirect) return this.askConnectivity("redirect");
    this.firstTransports(0);
  }

  // The policy's first transports on the host at hostIndex (websocket-first,
  // HTTP-first, and websocket-check without websockets).
  firstTransports(hostIndex) {
    this.attempt.firstHostIndex = hostIndex;
    if (this.holdInForce()) return this.openFlow("http", hostIndex);
    if (this.rememberedHttp() && hostIndex === 0) return this.startOnRememberedHttp();
    if (this.wc) return this.openFlow(this.cfg.http ? "http" : "websocket", hostIndex);
    if (this.policy === "http-first") return this.openFlow(this.cfg.http ? "http" : "websocket", hostIndex);
    if (this.both) {
      this.attempt.flowKind = "http";
      this.open("websocket", this.hostAt(hostIndex), this.mode(), "short-circuit");
      this.startTimerMs("short-circuit", this.cfg.shortCircuitMs > 0 ? this.cfg.shortCircuitMs : 2000);
      this.attempt.scStartNs = this.nowNs; // the adaptive short circuit counts from here
      return;
    }
    if (this.cfg.webSocket || this.cfg.http) this.openFlow(this.cfg.webSocket ? "websocket" : "http", hostIndex);
  }

  startOnRememberedHttp() {
    this.attempt.startedOnPreference = true;
    if (this.cfg.webSocket) {
      this.bgCheck = this.newCheck();
      this.emit(`check-websocket C${this.bgCheck}`);
    }
    this.openFlow("http", 0);
  }

  startWatchTimers() {
    this.startTimerMs("websocket-slow", this.cfg.slowTimeoutMs);
    this.startTimerMs("websocket-give-up", this.cfg.giveUpTimeoutMs);
  }

  askConnectivity(purpose) {
    const id = this.newCheck();
    this.attempt.check = { id, purpose };
    this.emit(`check C${id}`);
    this.startTimerMs("connectivity-check", this.cfg.httpRequestTimeoutMs);
  }

  // ---- the step ---------------------------------------------------------------

  step(atMs, event) {
    this.out = [];
    const t = nsOfMs(atMs);
    if (t > this.nowNs) this.nowNs = t;
    const words = event.trim().split(/\s+/);
    const id = (w) => (w && /^[TC][0-9]+$/.test(w) ? Number(w.slice(1)) : -1);
    switch (words[0]) {
      case "connect":
        this.onConnect();
        break;
      case "close":
        this.onClose();
        break;
      case "fatal":
        this.onFatal(parseFailure(words[1]) ?? parseFailure("other"));
        break;
      case "viable":
        this.onViable(this.find(id(words[1])));
        break;
      case "connected":
        this.onConnected(this.find(id(words[1])), parseDetails(words.slice(2)));
        break;
      case "details":
      case "activity":
      case "token":
        this.onServer(words);
        break;
      case "failed":
      case "closed":
        this.onLost(this.find(id(words[1])), parseFailure(words[2]));
        break;
      case "timer":
        this.onTimer(words.slice(1).join(" "));
        break;
      case "connectivity":
        this.onConnectivity(id(words[1]), words[2] === "up");
        break;
      case "websocket-check":
        this.onWebSocketCheck(id(words[1]), words[2] === "up");
        break;
      case "network-up":
        this.onNetworkUp();
        break;
      case "network-down":
        this.onNetworkDown();
        break;
      case "authorize":
        this.onAuthorize();
        break;
      case "dialed":
        this.onDialed(this.find(id(words[1])), words[2]);
        break;
    }
    return this.out;
  }

  // The configured short circuit, the adaptive rule's ceiling.
  shortCircuitMs() {
    return this.cfg.shortCircuitMs > 0 ? this.cfg.shortCircuitMs : 2e3;
  }

  // Block 19: the adaptive short circuit. Under websocket-first with
  // adaptiveMultiple k > 0, the first report of the attempt's first
  // websocket, still opening, while the short-circuit timer runs, moves the
  // timer to its open + clamp(k × rtt, floor, shortCircuit) when earlier,
  // never before now. Anything else is ignored.
  onDialed(t, rttWord) {
    const k = this.cfg.adaptiveMultiple;
    if (this.policy !== "websocket-first" || !(k > 0) || this.state !== "connecting") return;
    if (!t || t.role !== "short-circuit" || t.status !== "opening" || !this.timers.has("short-circuit")) return;
    if (this.attempt.dialed) return;
    this.attempt.dialed = true;
    const rttMs = Math.max(0, Number((rttWord ?? "").replace(/^rtt=/, "")) || 0);
    const ceilingNs = nsOfMs(this.shortCircuitMs());
    const floorNs = nsOfMs(this.cfg.adaptiveFloorMs);
    // k × rtt in double precision on the rtt's whole nanoseconds, rounded
    // to the nearest nanosecond, halves away from zero (docs/engine.md).
    let headNs = BigInt(Math.round(k * Number(nsOfMs(rttMs))));
    if (headNs > ceilingNs) headNs = ceilingNs;
    if (headNs < floorNs) headNs = floorNs;
    if (headNs > ceilingNs) headNs = ceilingNs;
    let due = this.attempt.scStartNs + headNs;
    if (due >= this.timers.get("short-circuit")) return;
    if (due < this.nowNs) due = this.nowNs;
    this.startTimer("short-circuit", due - this.nowNs);
  }

  // ---- connect, close, fatal ------------------------------------------------------

  onConnect() {
    if (["initialized", "closed", "failed", "closing"].includes(this.state)) {
      if (this.state === "closing") this.stopEverything(); // RTN11b: a new connection
      this.early = null;
      this.n = 0;
      this.stateError = null;
      this.everConnected = false;
      this.ttlPassed = false;
      this.redirectPending = false;
      this.startAttempt("connect-requested");
      this.startTimerMs("state-ttl", this.cfg.connectionStateTtlMs);
    } else if (this.state === "disconnected" || this.state === "suspended") {
      this.cancelTimer("retry");
      this.startAttempt("connect-requested");
    }
  }

  onClose() {
    if (this.state === "connected") {
      this.disposeAll(this.active());
      this.cancelAttemptTimers();
      this.cancelTimer("flap-hold");
      this.setState("closing", "close-requested");
      this.startTimerMs("close", this.cfg.closingTimeoutMs);
    } else if (this.state === "connecting") {
      this.closeWhileConnecting();
    } else if (["initialized", "disconnected", "suspended"].includes(this.state)) {
      this.stopEverything();
      this.setState("closed", "close-requested");
    }
  }

  onFatal(f) {
    if (this.state === "closed" || this.state === "failed") return;
    this.stopEverything();
    this.setState("failed", "fatal", { error: f });
  }

  // ---- transports ----------------------------------------------------------------

  // Block 9. Returns false when the transport was discarded.
  onViable(t) {
    if (!t || t.status !== "opening") return true;
    if (this.wc) {
      this.cancelTimer(`connect T${t.id}`);
      this.cancelTimer("websocket-slow");
      this.cancelTimer("websocket-give-up");
    }
    const p = this.pending();
    const a = this.active();
    const [decision] = this.lib.decidePending(t.kind, t.mode, p ? p.kind : "none", a ? a.kind : "none");
    if (decision === "discard-candidate") {
      if (t.role === "flow" && t.kind === "http") this.attempt.displacedHost = t.host;
      this.lost(t, null);
      return false;
    }
    if (decision === "replace-pending") {
      if (p.role === "flow" && p.kind === "http") this.attempt.displacedHost = p.host;
      this.dispose(p);
    }
    t.status = "pending";
    return true;
  }

  onConnected(t, details) {
    if (!t || t.status === "active") return;
    if (t.status === "opening" && !this.onViable(t)) return;
    if (t.status !== "pending") return;
    this.activate(t, details);
  }

  // Block 8.
  activate(t, details = NO_DETAILS) {
    if (this.state === "closing") return this.activateWhileClosing(t);
    this.cancelTimer(`connect T${t.id}`);
    const old = this.active();
    if (old) this.dispose(old);
    this.emit(`activate T${t.id}`);
    t.status = "active";
    this.cancelAttemptTimers();
    if (t.kind === "websocket") this.disposeAll(t);
    // WH-CONNECTING-opening-ws-at-http-activation-1: rule 3 applied at
    // activation: a websocket not in upgrade mode still opening goes now.
    else for (const o of this.live()) if (o.kind === "websocket" && o.mode !== "upgrade" && o.status === "opening") this.dispose(o);
    if (this.wc || this.cfg.rememberTransport) {
      if (!(this.holdInForce() && t.kind === "http")) this.preference = { transport: t.kind, atMs: this.wallMs(), reason: "connected" };
    }
    if (this.state !== "connected") {
      this.cancelTimer("state-ttl");
      this.cancelTimer("retry");
      this.early = null;
      this.n = 0;
      this.ttlPassed = false;
    }
    this.announceActive(details);
    if (!this.wc && t.kind === "http" && this.cfg.webSocket) {
      if (this.holdInForce()) {
        if (!this.timers.has("flap-hold")) this.startTimer("flap-hold", this.holdEndNs - this.nowNs);
      } else {
        this.open("websocket", t.host, "upgrade", "upgrade");
      }
    }
  }

  onLost(t, f) {
    if (!t) return;
    if (f && f.kind === "token" && (this.state === "connecting" || (this.state === "connected" && t.status === "active"))) return this.onTokenError(t, f);
    if (t.status === "active") {
      if (this.state === "closing") {
        this.bgCheck = 0; // a drop while CLOSING ends the background check too
        this.disposeAll();
        this.cancelAttemptTimers();
        this.cancelTimer("close");
        this.setState("closed", "closed");
      } else if (this.state === "connected") {
        this.drop(t, f);
      }
      return;
    }
    this.lost(t, f);
  }

  // Block 10: the active transport drops while CONNECTED.
  drop(t, f) {
    this.bgCheck = 0; // a drop of the active transport ends the background check, whatever lost it
    if (t.kind === "websocket" && !this.wc && this.both) this.countFlap();
    this.disposeAll();
    this.cancelAttemptTimers();
    if (is50x(f) && this.maxFallbacks > 0) {
      this.redirectPending = true;
      this.preference = null;
    }
    this.reconnect(f);
    this.startTimerMs("state-ttl", this.stateTtlMs());
  }

  // Block 10's reconnect part: the rate limit, the reconnect window, or the
  // immediate reconnect.
  reconnect(f, reason = "dropped") {
    // immediateReconnect off: never at once; limited: at most once per
    // immediateReconnectIntervalMs (at least a second, so the rule below
    // holds too). Either way block 7, as the rate limit.
    const c = this.cfg;
    if (c.immediateReconnect === "off" || (c.immediateReconnect === "limited" && this.lastImmediateNs !== null && this.nowNs - this.lastImmediateNs < nsOfMs(c.immediateReconnectIntervalMs))) {
      return this.endAttempt(reason, f);
    }
    if (this.lastImmediateNs !== null && this.nowNs - this.lastImmediateNs < 1000n * NS) {
      // Rate limited: block 7 with reason dropped (or network-down), so
      // SUSPENDED once connectionStateTtl has passed (websocket-check's
      // RTN17f1 reconnect in CONNECTING after SUSPENDED), else DISCONNECTED
      // with an RTB1 retry.
      return this.endAttempt(reason, f);
    }
    this.lastImmediateNs = this.nowNs;
    if (this.cfg.reconnectWindowMs > 0) {
      const u = clampDraw(this.draw());
      const s = this.cfg.immediateShare;
      // u ≤ s: the wait is 0, which is the immediate reconnect.
      const retryInNs = u < s ? 0n : BigInt(Math.round(this.cfg.reconnectWindowMs * 1e6 * ((u - s) / (1 - s))));
      if (retryInNs > 0n) {
        this.armEarlyRetries();
        this.setState("disconnected", reason, { retryInNs, error: f });
        this.startTimer("retry", retryInNs);
        this.windowDue = true;
        return;
      }
    }
    this.armEarlyRetries();
    this.setState("disconnected", reason, { retryInNs: 0n, error: f });
    this.startAttempt("reconnect");
  }

  // The first-retry rule starts at an immediate reconnect (from the drop,
  // with the reconnect window too).
  armEarlyRetries() {
    this.early = this.cfg.firstRetryMs > 0 && !RETRY_FAMILIES[this.cfg.retryFamily] ? { fromNs: this.nowNs, n: 0 } : null; // RTB1's only
  }

  countFlap() {
    const window = nsOfMs(this.cfg.flapWindowMs);
    this.flapDrops = this.flapDrops.filter((d) => this.nowNs - d <= window);
    this.flapDrops.push(this.nowNs);
    if (this.flapDrops.length >= this.cfg.flapDrops) {
      this.holdEndNs = this.nowNs + nsOfMs(this.cfg.flapHoldMs);
      this.flapDrops = [];
      this.preference = { transport: "http", atMs: this.wallMs(), reason: "websocket-unstable" };
    }
  }

  // Block 11: a transport lost that is not active (f null: no failure).
  lost(t, f) {
    const wasPending = t.status === "pending";
    this.dispose(t);
    if (this.state === "closing") return this.closeIfNothingLeft(); // RTN12f
    if (this.state !== "connecting") return;
    const at = this.attempt;
    if (f) at.lastFailure = f;
    if (this.wc && wasPending) {
      this.bgCheck = 0; // the attempt ends (RTN17f1 or DISCONNECTED)
      this.disposeAll();
      if (is50x(f) && this.maxFallbacks > 0) {
        this.cancelAttemptTimers();
        this.redirectPending = true;
        this.preference = null;
        return this.reconnect(f);
      }
      return this.endAttempt("connect-failed", at.lastFailure);
    }
    const walk = this.wc && t.kind === "websocket" && t.role === "flow";
    if (walk && at.wsCheck.state === "failed") return;
    if (t.role === "short-circuit" && this.httpMayStart()) {
      if (at.displacedHost !== null) {
        const host = at.displacedHost;
        at.displacedHost = null;
        at.flowKind = "http";
        at.flowStarted = true;
        this.open("http", host, this.mode(), "flow");
      } else {
        this.cancelTimer("short-circuit");
        this.openFlow("http", at.firstHostIndex);
      }
      return;
    }
    if (t.role === "flow" && f && this.lib.shouldFallback(f.kind, f.status, f.server) && at.hostIndex < this.maxFallbacks) {
      return this.askConnectivity("fallback");
    }
    if (walk && !this.inFlight()) return this.walkOver();
    this.mayEnd();
  }

  httpMayStart() {
    const at = this.attempt;
    if (!this.cfg.http || this.pending() || this.active()) return false;
    if (this.live().some((t) => t.kind === "http")) return false;
    return !at.flowStarted || at.displacedHost !== null;
  }

  inFlight() {
    return this.live().length > 0 || this.attempt.check !== null || this.timers.has("short-circuit");
  }

  // The attempt ends when nothing is left in flight.
  mayEnd() {
    if (this.state !== "connecting" || this.inFlight()) return;
    this.endAttempt("connect-failed", this.attempt.lastFailure);
  }

  // Websocket-check: the websocket failed on every host.
  walkOver() {
    const ws = this.attempt.wsCheck;
    if (!this.cfg.http) return this.endAttempt("connect-failed", this.attempt.lastFailure);
    if (ws.state === "none") {
      ws.id = this.newCheck();
      ws.state = "pending";
      this.emit(`check-websocket C${ws.id}`);
    } else if (ws.state === "passed") {
      this.endAttempt("connect-failed", this.attempt.lastFailure);
    }
  }

  // ---- timers ----------------------------------------------------------------------

  onTimer(name) {
    if (!this.timers.has(name)) return;
    this.timers.delete(name);
    if (name.startsWith("connect T")) {
      const t = this.find(Number(name.slice("connect T".length)));
      if (t) this.lost(t, parseFailure("timeout"));
      return;
    }
    switch (name) {
      case "short-circuit":
        if (this.state !== "connecting") return;
        if (this.cfg.http && !this.attempt.flowStarted && !this.pending() && !this.active()) this.openFlow("http", this.attempt.firstHostIndex);
        else this.mayEnd();
        return;
      case "retry":
        if (this.state === "disconnected" || this.state === "suspended") this.startAttempt(this.windowDue ? "reconnect" : "retry");
        return;
      case "state-ttl":
        return this.onStateTtl();
      case "connectivity-check":
        return this.onConnectivityAnswer(this.attempt.check, false, true);
      case "close":
        if (this.state !== "closing") return;
        this.disposeAll();
        this.setState("closed", "closed");
        return;
      case "websocket-slow":
        return this.onSlow();
      case "websocket-give-up":
        return this.onGiveUp();
      case "attempt":
        if (this.state === "connecting") this.endAttempt("connect-failed", this.attempt.lastFailure);
        return;
      case "slow-check":
        this.attempt.slowCheck = 0;
        if (this.state === "connecting") this.endAttempt("connectivity-down", this.attempt.lastFailure);
        return;
      case "idle":
        return this.onIdleTimer();
      case "renew-token":
        if (this.state === "connecting" && this.attempt.renewal) this.renewalDone(false, parseFailure("timeout"));
        return;
      case "flap-hold": {
        const a = this.active();
        if (this.state === "connected" && a && a.kind === "http" && !this.live().some((t) => t.role === "upgrade")) {
          this.open("websocket", a.host, "upgrade", "upgrade");
        }
        return;
      }
    }
  }

  onStateTtl() {
    if (this.state === "disconnected") {
      this.cancelTimer("retry");
      this.windowDue = false; // SUSPENDED replaces the reconnect window's retry
      this.ttlPassed = true;
      const error = this.stateError ?? parseFailure("timeout"); // RTN14e: always a reason
      const retryInNs = this.suspendedNs();
      this.setState("suspended", "state-ttl", { retryInNs, error });
      this.startTimer("retry", retryInNs);
    } else if (this.state === "connecting") {
      const error = this.attempt.lastFailure ?? parseFailure("timeout"); // RTN14e: the attempt's failure
      this.disposeAll();
      this.cancelAttemptTimers();
      this.ttlPassed = true;
      this.bgCheck = 0; // the attempt ends at connectionStateTtl
      const retryInNs = this.suspendedNs();
      this.setState("suspended", "state-ttl", { retryInNs, error });
      this.startTimer("retry", retryInNs);
    }
  }

  onSlow() {
    if (this.state !== "connecting") return;
    const ws = this.attempt.wsCheck;
    if (ws.state === "none") {
      ws.id = this.newCheck();
      ws.state = "pending";
      this.emit(`check-websocket C${ws.id}`);
    }
    this.attempt.slowCheck = this.newCheck();
    this.emit(`check C${this.attempt.slowCheck}`);
    this.startTimerMs("slow-check", this.cfg.httpRequestTimeoutMs);
  }

  onGiveUp() {
    if (this.state !== "connecting") return;
    if (this.attempt.wsCheck.state === "passed" || !this.cfg.http) return;
    this.switchToHttp();
  }

  // Websocket-check: HTTP takes over on the primary host.
  switchToHttp() {
    this.disposeAll();
    this.cancelTimer("websocket-slow");
    this.cancelTimer("websocket-give-up");
    if (this.attempt.check) {
      this.cancelTimer("connectivity-check");
      this.attempt.check = null;
    }
    this.openFlow("http", 0);
  }

  // ---- checks ----------------------------------------------------------------------

  onConnectivity(id, up) {
    if (id <= 0) return;
    const at = this.attempt;
    if (at.slowCheck === id && this.timers.has("slow-check")) {
      this.cancelTimer("slow-check");
      at.slowCheck = 0;
      if (!up && this.state === "connecting") this.endAttempt("connectivity-down", at.lastFailure);
      return;
    }
    if (at.check && at.check.id === id && this.timers.has("connectivity-check")) {
      this.cancelTimer("connectivity-check");
      this.onConnectivityAnswer(at.check, up, false);
    }
  }

  // The answer of the fallback or RTN17f1 check (timedOut: its timer fired).
  onConnectivityAnswer(check, up, timedOut) {
    const at = this.attempt;
    at.check = null;
    if (this.state !== "connecting" || !check) return;
    // A failed websocket check stops the websocket's walk: a fallback check
    // of that walk then ends with nothing, up, down or timed out. After the
    // switch, HTTP is the flow and walks the hosts as usual.
    if (this.wc && at.flowKind === "websocket" && at.wsCheck.state === "failed") return;
    if (!up) return this.endAttempt("connectivity-down", at.lastFailure);
    if (timedOut) return;
    this.drawOrder();
    if (check.purpose === "redirect") {
      if (this.wc && this.cfg.webSocket) {
        at.firstHostIndex = 1;
        this.openFlow("websocket", 1);
      } else {
        this.firstTransports(1);
      }
      return;
    }
    this.openFlow(at.flowKind, at.hostIndex + 1);
  }

  onWebSocketCheck(id, up) {
    if (id <= 0) return;
    if (id === this.bgCheck) {
      this.bgCheck = 0;
      if (!up) return;
      if (this.preference && this.preference.transport === "http") this.preference = null;
      if (this.state !== "connecting") return;
      if (this.attempt.flowKind !== "http") return;
      if (this.wc) {
        this.disposeAll();
        this.cancelTimer("connectivity-check");
        this.attempt.check = null;
        this.attempt.order = null;
        this.attempt.startedOnPreference = false;
        this.startWatchTimers();
        this.openFlow("websocket", 0);
      } else if (!this.pending() && !this.active()) {
        // HTTP still opening, or failed with a fallback check in flight: the
        // websocket on the flow's current host.
        this.open("websocket", this.hostAt(this.attempt.hostIndex), this.mode(), "short-circuit");
      }
      return;
    }
    const ws = this.attempt.wsCheck;
    if (ws.id !== id || ws.state !== "pending" || this.state !== "connecting") return;
    ws.state = up ? "passed" : "failed";
    if (this.live().length > 0 || this.attempt.check !== null) return;
    if (this.attempt.flowKind !== "websocket") return;
    if (up) return this.endAttempt("connect-failed", this.attempt.lastFailure);
    if (this.cfg.http) this.switchToHttp();
  }

  // ---- network ---------------------------------------------------------------------

  // Block 12 (RTN20a): DISCONNECTED, then the RTN15 reconnect as after a
  // drop; SUSPENDED in CONNECTING once connectionStateTtl has passed.
  onNetworkDown() {
    const unreachable = parseFailure("unreachable");
    if (this.state === "connected") {
      this.bgCheck = 0; // the connection is lost: the background check ends
      this.disposeAll();
      this.cancelAttemptTimers();
      this.reconnect(unreachable, "network-down");
      this.startTimerMs("state-ttl", this.stateTtlMs());
    } else if (this.state === "connecting") {
      if (this.ttlPassed) return this.endAttempt("network-down", unreachable);
      this.bgCheck = 0; // the attempt ends: its background check ends with it
      this.disposeAll();
      this.cancelAttemptTimers();
      this.reconnect(unreachable, "network-down");
    }
  }

  onNetworkUp() {
    if (this.state === "disconnected" || this.state === "suspended") {
      this.cancelTimer("retry");
      this.startAttempt("network-up");
    } else if (this.state === "connecting") {
      this.disposeAll();
      this.cancelAttemptTimers();
      this.startAttempt("network-up");
    }
  }

  // Block 18: Auth#authorize (RTC8). CONNECTING: every attempt halted, a
  // renewal asked, no state change (RTC8b); INITIALIZED, DISCONNECTED,
  // SUSPENDED, CLOSED, FAILED: a connect whose attempt starts with the
  // renewal (RTC8c); CONNECTED, CLOSING: nothing. canRenewToken aside.
  onAuthorize() {
    const connecting = this.state === "connecting";
    if (!connecting && !["initialized", "disconnected", "suspended", "closed", "failed"].includes(this.state)) return;
    this.renewFirst = true;
    if (!connecting) return this.onConnect();
    this.disposeAll();
    this.cancelAttemptTimers();
    this.startAttempt("reconnect");
  }

  // ---- closing outside CONNECTED (RTN12f, RTN11b) ---------------------------------

  // Block 16: close while CONNECTING: CLOSING; the transports in flight go
  // on (websocket-check disposes them, as ably-js does); CLOSED at once
  // when none is left.
  closeWhileConnecting() {
    if (this.wc) this.disposeAll();
    for (const t of ALL_TIMERS) this.cancelTimer(t);
    this.attempt.check = null;
    this.attempt.slowCheck = 0;
    this.setState("closing", "close-requested");
    this.closeIfNothingLeft();
  }

  closeIfNothingLeft() {
    if (this.live().length === 0) this.setState("closed", "closed");
  }

  // A transport of the attempt a close interrupted connects: active, for
  // the SDK to send CLOSE on it (RTN12a), with the close timer.
  activateWhileClosing(t) {
    this.cancelTimer(`connect T${t.id}`);
    this.emit(`activate T${t.id}`);
    t.status = "active";
    this.disposeAll(t);
    this.startTimerMs("close", this.cfg.closingTimeoutMs);
  }
}

// ---- what the server says (docs/engine.md: The server speaks, Liveness,
// Token errors) ---------------------------------------------------------------

const NO_DETAILS = { ttlMs: 0, idleMs: 0, error: null };

// The options of a CONNECTED message: maxIdleInterval=<ms>,
// connectionStateTtl=<ms>, error=<failure>.
function parseDetails(words) {
  const d = { ...NO_DETAILS };
  for (const w of words) {
    const [k, v] = w.split("=", 2);
    if (k === "maxIdleInterval") d.idleMs = Number(v);
    else if (k === "connectionStateTtl") d.ttlMs = Number(v);
    else if (k === "error") d.error = parseFailure(v);
  }
  return d;
}

Object.assign(Engine.prototype, {
  // details, activity and token events.
  onServer(words) {
    const t = this.find(/^T[0-9]+$/.test(words[1] ?? "") ? Number(words[1].slice(1)) : -1);
    const c = /^C[0-9]+$/.test(words[1] ?? "") ? Number(words[1].slice(1)) : -1;
    switch (words[0]) {
      case "details":
        return this.onDetails(t, parseDetails(words.slice(2)));
      case "activity": {
        const at = words.find((w) => w.startsWith("at="));
        return this.onActivity(t, at ? nsOfMs(Number(at.slice(3))) : null);
      }
      case "token":
        return this.onTokenAnswer(c, words[2] === "renewed", parseFailure(words[3]));
    }
  },

  // The connection's connectionStateTtl: the server's, else the configured one.
  stateTtlMs() {
    return this.everConnected && this.serverTtlMs > 0 ? this.serverTtlMs : this.cfg.connectionStateTtlMs;
  },
  useDetails(d) {
    if (d.ttlMs > 0) this.serverTtlMs = d.ttlMs;
    this.maxIdleNs = d.idleMs > 0 ? nsOfMs(d.idleMs) : 0n;
    this.lastActivityNs = this.nowNs;
  },
  // Block 8's end: CONNECTED with the message's error, or the upgrade's
  // update; then the idle timer.
  announceActive(d) {
    if (!this.everConnected) this.serverTtlMs = 0; // a fresh connection
    this.useDetails(d);
    if (this.state !== "connected") {
      this.everConnected = true;
      this.setState("connected", "connected", { error: d.error });
    } else {
      this.update("transport", d.error);
    }
    this.armIdle();
  },
  update(reason, error) {
    this.emit(`update ${reason}` + (error ? ` error=${error.text}` : ""));
  },
  // The idle limit: the server's maxIdleInterval plus idleSlack, else the
  // client-side idleLimit (the server's value wins, RTN21); 0: none.
  idleLimitNs() {
    return this.maxIdleNs > 0n ? this.maxIdleNs + nsOfMs(this.cfg.idleSlackMs) : nsOfMs(this.cfg.idleLimitMs);
  },
  armIdle() {
    if (this.maxIdleNs > 0n) this.startTimer("idle", this.maxIdleNs + nsOfMs(this.cfg.idleSlackMs));
    else if (this.cfg.idleLimitMs > 0) this.startTimer("idle", nsOfMs(this.cfg.idleLimitMs));
    else this.cancelTimer("idle");
  },
  // Block 13: a later CONNECTED on the active transport.
  onDetails(t, d) {
    if (this.state !== "connected" || !t || t.status !== "active") return;
    this.useDetails(d);
    this.update("details", d.error);
    this.armIdle();
  },
  onActivity(t, atNs) {
    if (!t || t.status !== "active") return;
    const at = atNs === null || atNs > this.nowNs ? this.nowNs : atNs;
    if (at > this.lastActivityNs) this.lastActivityNs = at;
  },
  onIdleTimer() {
    const a = this.active();
    const limit = this.idleLimitNs();
    if (this.state !== "connected" || !a || limit <= 0n) return;
    const quiet = this.nowNs - this.lastActivityNs;
    if (quiet < limit) return this.startTimer("idle", limit - quiet);
    this.drop(a, parseFailure("timeout"));
  },

  // Block 14: a token error.
  onTokenError(t, f) {
    if (!this.cfg.canRenewToken) {
      this.stopEverything();
      return this.setState("failed", "fatal", { error: f });
    }
    if (this.state === "connected") {
      this.renewFirst = true;
      return this.drop(t, f);
    }
    if (this.attempt.renewed) return this.endAttempt("connect-failed", f);
    this.disposeAll();
    this.cancelAttemptTimers();
    this.bgCheck = 0;
    this.attempt = this.newAttempt();
    this.attempt.lastFailure = f; // SUSPENDED before the renewal's answer carries it (RTN14e)
    this.askRenewal();
  },
  renewBeforeAttempt() {
    this.renewFirst = false;
    this.bgCheck = 0;
    this.askRenewal();
  },
  askRenewal() {
    this.attempt.renewal = this.newCheck();
    this.emit(`renew-token C${this.attempt.renewal}`);
    this.startTimerMs("renew-token", this.cfg.renewalTimeoutMs);
  },
  // Block 15.
  onTokenAnswer(id, renewed, f) {
    if (id <= 0 || id !== this.attempt.renewal || !this.timers.has("renew-token") || this.state !== "connecting") return;
    this.cancelTimer("renew-token");
    this.renewalDone(renewed, f);
  },
  renewalDone(renewed, f) {
    this.attempt.renewal = 0;
    if (renewed) {
      this.startAttempt("reconnect");
      this.attempt.renewed = true;
      return;
    }
    if (f && f.kind === "http-status" && f.status === 403) {
      this.stopEverything();
      return this.setState("failed", "fatal", { error: f });
    }
    this.endAttempt("connect-failed", f);
  },
});

// runScenario answers one scenario of fixtures/scenarios.json: the actions
// of each step.
export function runScenario({ config = {}, draws = [], steps = [] }, lib) {
  const e = new Engine(config, draws, lib);
  return { steps: steps.map((s) => ({ actions: e.step(s.atMs, s.event) })) };
}
