// Reference conformance adapter in plain Node.js (no dependencies): an SDK
// written in JavaScript would implement these functions; this file shows the
// protocol end to end. Run it under the harness:
//
//   go run ./cmd/reconnect conform -- node conformance/js/adapter.mjs
//
// Protocol (version 1): one JSON object per line on stdin, one answer per
// line on stdout. The first request is {"type":"hello",...}; the answer
// names the areas implemented and declares exactNs: the RTB1 delays and
// bounds are also answered in whole nanoseconds (delayNs, lowerNs, upperNs,
// decimal strings compared exactly). Every other request is
// {"id","area","function","input"} and is answered {"id","result"} or
// {"id","error":{"field","message"}}. Anything for humans goes to stderr.
//
// The scenarios area runs the connection engine of docs/engine.md, written
// from that document alone in engine.mjs (its guesses: ENGINE-GUESSES.md);
// it uses the RTB1, transport and host functions below.
import { createInterface } from "node:readline";

// The engine lives next to this file. A copy of this file alone (the
// one-line-wrong variants of conformance/wrong/ are run that way) has no
// engine: it then does not declare the scenarios area.
const engine = await import(new URL("./engine.mjs", import.meta.url)).catch((e) => {
  if (e?.code === "ERR_MODULE_NOT_FOUND") return null;
  throw e;
});

// ---- RTB1 -------------------------------------------------------------------

const MAX_NS = 2 ** 63; // the first value a signed 64-bit nanosecond count cannot hold
const SATURATED_NS = 9223372036854775807n; // the largest one

const num = (v) => (typeof v === "string" ? Number(v) : v); // "NaN", "Infinity", "-Infinity"

export function backoffCoefficient(n) {
  if (!(n >= 1)) n = 1; // 1-indexed; below 1 counts as 1
  return n >= 4 ? 2 : [0, 1, 4 / 3, 5 / 3][n];
}

function clampU(u) {
  if (!(u > 0)) return 0; // negative, zero, -Infinity and NaN
  return Math.min(u, 1);
}

export function jitterCoefficient(u) {
  return 1 - 0.2 * clampU(u);
}

// roundNs rounds a non-negative number of nanoseconds to the nearest
// integer, halves away from zero. Math.round is exact at every magnitude
// (unlike Math.floor(x + 0.5), which is wrong at 0.49999999999999994 and
// for odd integers from 2^52 on).
const roundNs = (ns) => Math.round(ns);

// retryDelayNs follows the arithmetic the fixtures fix: double precision,
// initial (in whole nanoseconds) × backoff × jitter, rounded to the nearest
// nanosecond, saturating. It returns a BigInt: above 2^53 a double cannot
// be printed digit for digit with String().
export function retryDelayNs(initialMs, n, u) {
  if (!(initialMs > 0)) return 0n;
  const ns = Math.round(initialMs * 1e6) * backoffCoefficient(n) * jitterCoefficient(u);
  if (ns >= MAX_NS) return SATURATED_NS;
  return BigInt(roundNs(ns));
}

// msOf writes whole nanoseconds as milliseconds: the whole milliseconds and
// the remainder are each exact doubles, so only the sum rounds.
const msOf = (ns) => Number(ns / 1000000n) + Number(ns % 1000000n) / 1e6;

export const retryDelayMs = (initialMs, n, u) => msOf(retryDelayNs(initialMs, n, u));

// ---- Retry families other protocols use (retry.json) -----------------------------

// A parameter in milliseconds as a double of whole nanoseconds, a negative
// one counting as 0 and one beyond 2^63 − 1 ns as 2^63 − 1 (a double 2^63).
const paramNs = (ms) => Math.min(Math.max(Math.round(num(ms ?? 0) * 1e6), 0), MAX_NS);

// The attempt number: truncated toward zero, below 1 counting as 1.
const attemptOf = (x) => (x.attempt >= 1 ? Math.trunc(x.attempt) : 1);

// roundedNs rounds a delay in nanoseconds, saturating, as a BigInt.
const roundedNs = (ns) => (ns >= MAX_NS ? SATURATED_NS : BigInt(roundNs(ns)));

// ceiling is min(cap, base × 2^(n−1)); 2 ** k is exact, Infinity from 1024.
function ceiling(x) {
  const n = attemptOf(x);
  const base = paramNs(x.baseMs);
  const e = base > 0 ? base * 2 ** Math.min(n - 1, 1100) : 0;
  return Math.min(paramNs(x.capMs), e);
}

function clampMultiplier(m) {
  if (!(m > 1)) return 1;
  if (m < 1.01) return 1.01;
  return Math.min(m, 100);
}

export function retryFamilyNs(family, x, u) {
  u = clampU(u);
  switch (family) {
    case "fullJitter":
      return roundedNs(ceiling(x) * u);
    case "equalJitter": {
      const h = ceiling(x) * 0.5;
      return roundedNs(h + h * u);
    }
    case "grpc": {
      const max = paramNs(x.capMs);
      let b = Math.min(paramNs(x.baseMs), max);
      const m = clampMultiplier(num(x.multiplier));
      const n = attemptOf(x);
      for (let k = n; k > 1 && b < max; k--) {
        const next = Math.min(b * m, max);
        if (next === b) break;
        b = next;
      }
      if (n <= 1) return roundedNs(b);
      return roundedNs(b * (1 + clampU(num(x.jitter)) * (2 * u - 1)));
    }
    case "decorrelated": {
      const base = paramNs(x.baseMs);
      const prev = attemptOf(x) > 1 ? Math.max(paramNs(x.previousMs), base) : base;
      return roundedNs(Math.min(paramNs(x.capMs), base + (3 * prev - base) * u));
    }
  }
  throw new Error(`unknown retry family ${family}`);
}

// ---- Transport fallback ---------------------------------------------------------

// The setTransportPending rules, in order.
export function decidePending(candidate, mode, pending, active) {
  if (candidate !== "websocket" && candidate !== "http") return ["discard-candidate", 0];
  if (candidate === "http" && (pending === "websocket" || active === "websocket")) return ["discard-candidate", 1];
  if (candidate === "websocket" && pending === "http") return ["replace-pending", 2];
  if (candidate === "websocket" && mode !== "upgrade" && active === "http") return ["discard-candidate", 3];
  return ["proceed", 4];
}

export function chooseTransport(ws, http, shortCircuitMs) {
  if (ws && http) return ["websocket", shortCircuitMs > 0 ? shortCircuitMs : 2000];
  if (ws) return ["websocket", 0];
  if (http) return ["http", 0];
  return ["none", 0];
}

const startHttp = ({ httpAvailable, httpStarted, pending, active }) =>
  httpAvailable && !httpStarted && pending === "none" && active === "none";

// ---- Host fallback -------------------------------------------------------------

const LETTERS = ["a", "b", "c", "d", "e"];
const policyHosts = (id, primary, fallback) => ({
  primary: `${id}${primary}`,
  fallbacks: LETTERS.map((l) => `${id}.${l}${fallback}`),
});

// A bad option: the error names the input field, as the protocol asks.
class OptionError extends Error {
  constructor(field, message) {
    super(message);
    this.field = field;
  }
}

// A label: 1–63 ASCII letters, digits, '-' or '_', not '-' first or last.
// Being ASCII, its length in UTF-16 units is its length in bytes.
const LABEL = /^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$/;
const IPV4 = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;

// isIPv6 accepts an IPv6 address without brackets or zone: eight groups of
// one to four hex digits, or fewer around one "::", the last two groups
// possibly written as an IPv4 address.
function isIPv6(s) {
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return false;
  const hex = /^[0-9A-Fa-f]{1,4}$/;
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  let head = s;
  let want = 8;
  if (tail.includes(".")) {
    if (!IPV4.test(tail)) return false;
    want = 6;
    head = s.slice(0, lastColon + 1);
    if (!head.endsWith("::")) head = head.slice(0, -1);
  }
  const d = head.indexOf("::");
  if (d < 0) {
    const groups = head.split(":");
    return groups.length === want && groups.every((g) => hex.test(g));
  }
  if (d !== head.lastIndexOf("::")) return false;
  const [a, b] = [head.slice(0, d), head.slice(d + 2)];
  const parts = [...(a ? a.split(":") : []), ...(b ? b.split(":") : [])];
  return parts.length < want && parts.every((g) => hex.test(g));
}

// Lower ASCII letters only: toLowerCase would turn U+212A KELVIN SIGN into
// "k" before validation could reject it.
const asciiLower = (s) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

// checkHost returns the host in lower case, or throws naming field.
function checkHost(field, h) {
  const fail = (why) => {
    throw new OptionError(field, `${JSON.stringify(h)} ${why}`);
  };
  if (h === "") fail("is an empty host name");
  if (h.length > 253) fail("is longer than 253 bytes");
  if (h.includes(":")) {
    if (!isIPv6(h)) fail("holds ':' but is not an IPv6 address; a port is not part of a host name");
    return asciiLower(h);
  }
  const labels = h.split(".");
  if (!labels.every((l) => LABEL.test(l))) fail("is not a host name");
  if (/^[0-9]+$/.test(labels[labels.length - 1]) && !IPV4.test(h)) fail("ends in an all-digit label but is not an IPv4 address");
  return asciiLower(h);
}

function checkPolicyId(field, value, id) {
  if (!LABEL.test(id)) throw new OptionError(field, `${JSON.stringify(value)} is not a routing policy id`);
}

// The option sets the spec calls invalid, naming the deprecated option:
// REC1b1 (endpoint with environment, restHost, realtimeHost or
// fallbackHostsUseDefault, in that order), REC1c1 (environment with
// restHost or realtimeHost), REC2a1 (fallbackHosts, even [], with
// fallbackHostsUseDefault).
function invalidAsASet(endpoint, environment, restHost, realtimeHost, useDefault, fallbackHosts) {
  if (endpoint && environment) throw new OptionError("environment", "endpoint and environment cannot be combined");
  if (endpoint && restHost) throw new OptionError("restHost", "endpoint and restHost cannot be combined");
  if (endpoint && realtimeHost) throw new OptionError("realtimeHost", "endpoint and realtimeHost cannot be combined");
  if (endpoint && useDefault) throw new OptionError("fallbackHostsUseDefault", "endpoint and fallbackHostsUseDefault cannot be combined");
  if (environment && restHost) throw new OptionError("restHost", "environment and restHost cannot be combined");
  if (environment && realtimeHost) throw new OptionError("realtimeHost", "environment and realtimeHost cannot be combined");
  if (fallbackHosts !== undefined && useDefault) throw new OptionError("fallbackHostsUseDefault", "fallbackHosts and fallbackHostsUseDefault cannot be combined");
}

// A port: a decimal number from 1 to 65535 without leading zeros.
const validPort = (p) => /^[1-9][0-9]{0,4}$/.test(p) && Number(p) <= 65535;

// checkOwnHost: without Ably's preset a host may be followed by ":port",
// an IPv6 address then in brackets ("[::1]:8080"); anything else is a host
// as checkHost says (one label included).
function checkOwnHost(field, h) {
  const bracketed = /^\[([^\]]*)\]:([0-9]+)$/.exec(h);
  const named = /^([^:[\]]+):([0-9]+)$/.exec(h);
  const m = bracketed ?? named;
  if (!m) return checkHost(field, h);
  if (!validPort(m[2])) throw new OptionError(field, `${JSON.stringify(h)} has a port outside 1–65535 or with a leading zero`);
  if (bracketed && !isIPv6(m[1])) throw new OptionError(field, `${JSON.stringify(h)} holds brackets around no IPv6 address`);
  if (named) checkHost(field, m[1]);
  return asciiLower(h);
}

// The service's own hosts (ably false): endpoint is the primary host and
// fallbackHosts the fallback hosts; Ably's options are refused, naming the
// first given (environment, restHost, realtimeHost, fallbackHostsUseDefault).
function resolveOwnHosts({ endpoint = "", environment = "", restHost = "", realtimeHost = "", fallbackHostsUseDefault = false, fallbackHosts }) {
  for (const [field, given] of [["environment", environment], ["restHost", restHost], ["realtimeHost", realtimeHost], ["fallbackHostsUseDefault", fallbackHostsUseDefault]]) {
    if (given) throw new OptionError(field, `${field} is Ably's option and needs Ably's preset`);
  }
  if (!endpoint) throw new OptionError("endpoint", "endpoint is required");
  if (asciiLower(endpoint).startsWith("nonprod:") && !/^[^:]+:[0-9]+$/.test(endpoint)) throw new OptionError("endpoint", "a routing policy needs Ably's preset");
  const primary = checkOwnHost("endpoint", endpoint);
  const listed = new Set(); // lowered: a host listed twice in any case is refused
  const fallbacks = (fallbackHosts ?? []).map((h, i) => {
    const host = checkOwnHost(`fallbackHosts[${i}]`, h);
    if (listed.has(host)) throw new OptionError(`fallbackHosts[${i}]`, `${JSON.stringify(h)} is listed twice`);
    listed.add(host);
    return host;
  });
  return { primary, fallbacks };
}

// resolveHosts: Ably's rules (REC1, REC2), or the service's own hosts
// when ably is false.
export function resolveHosts({ endpoint = "", environment = "", restHost = "", realtimeHost = "", fallbackHostsUseDefault = false, fallbackHosts }) {
  if (arguments[0].ably === false) return resolveOwnHosts(arguments[0]);
  let hosts;
  const ep = asciiLower(endpoint);
  invalidAsASet(endpoint, environment, restHost, realtimeHost, fallbackHostsUseDefault, fallbackHosts);
  if (restHost || realtimeHost) {
    // REC1d1, REC1d2: restHost, else realtimeHost (both validated); REC2c6: no fallbacks.
    const rest = restHost ? checkHost("restHost", restHost) : "";
    const realtime = realtimeHost ? checkHost("realtimeHost", realtimeHost) : "";
    hosts = { primary: rest || realtime, fallbacks: [] };
  } else if (environment) {
    let id = asciiLower(environment);
    if (id === "production") id = "main";
    checkPolicyId("environment", environment, id);
    hosts = policyHosts(id, ".realtime.ably.net", ".fallback.ably-realtime.com");
  } else if (!endpoint) {
    hosts = policyHosts("main", ".realtime.ably.net", ".fallback.ably-realtime.com");
  } else if (ep.startsWith("nonprod:")) {
    const id = ep.slice("nonprod:".length);
    checkPolicyId("endpoint", endpoint, id);
    hosts = policyHosts(id, ".realtime.ably-nonprod.net", ".fallback.ably-realtime-nonprod.com");
  } else if (ep.includes(".") || ep.includes(":") || ep === "localhost") {
    hosts = { primary: checkHost("endpoint", endpoint), fallbacks: [] };
  } else {
    checkPolicyId("endpoint", endpoint, ep);
    hosts = policyHosts(ep, ".realtime.ably.net", ".fallback.ably-realtime.com");
  }
  // REC2b: the default fallback hosts, whatever names the primary.
  if (fallbackHostsUseDefault) hosts.fallbacks = policyHosts("main", ".realtime.ably.net", ".fallback.ably-realtime.com").fallbacks;
  if (fallbackHosts !== undefined) {
    // REC2a2: the option's value; a fallback host may be the primary.
    const seen = new Set();
    hosts.fallbacks = fallbackHosts.map((h, i) => {
      const host = checkHost(`fallbackHosts[${i}]`, h);
      if (seen.has(host)) throw new OptionError(`fallbackHosts[${i}]`, `${JSON.stringify(h)} is listed twice`);
      seen.add(host);
      return host;
    });
  }
  return hosts;
}

// HTTP's optional white space around a header value: spaces and tabs.
const isCloudFront = (server) => asciiLower((server ?? "").replace(/^[ \t]+|[ \t]+$/g, "")) === "cloudfront";

export function shouldFallback(kind, status, server) {
  switch (kind) {
    case "dns":
    case "unreachable":
    case "refused":
    case "timeout":
      return true;
    case "http-status":
      return (status >= 500 && status <= 504) || (status >= 400 && isCloudFront(server));
    case "disconnected":
      return status >= 500 && status <= 504;
    default:
      return false;
  }
}

// Only ASCII white space is trimmed (String.prototype.trim would also trim
// a BOM, NBSP and other Unicode spaces).
export const connectivityUp = (status, body) => status >= 200 && status <= 299 && body.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "") === "yes";

export function hostOrder(primary, fallbacks, maxFallbacks, draws) {
  const left = [...fallbacks];
  const order = [primary];
  for (let k = 0; k < maxFallbacks && left.length > 0; k++) {
    const u = Math.min(clampU(draws[k] ?? 0), 1);
    const i = Math.min(Math.floor(u * left.length), left.length - 1);
    order.push(left.splice(i, 1)[0]);
  }
  return order;
}

export function preferredHost(primary, steps) {
  let host = "";
  let until = 0;
  const first = [];
  for (const s of steps) {
    if (s.op === "fallbackSucceeded") {
      [host, until] = s.ttlMs > 0 && s.host ? [s.host, s.atMs + s.ttlMs] : ["", 0];
    } else if (s.op === "failed") {
      if (s.host === host && shouldFallback(s.failureKind, s.status ?? 0, "")) host = "";
    } else if (s.op === "first") {
      first.push(host && s.atMs < until ? host : primary);
    } else throw new Error(`unknown op ${s.op}`);
  }
  return first;
}

// ---- Transport preference (fixtures/preference.json) ---------------------------

const PREFERENCE_TTL_MS = 24 * 3600 * 1000;
const NO_PREFERENCE = { transport: "none" };

export function applyPreference(p, event, transport, atMs) {
  switch (event) {
    case "connected":
      return transport === "websocket" || transport === "http" ? { transport, atMs, reason: "connected" } : p;
    case "websocket-unstable":
      return { transport: "http", atMs, reason: "websocket-unstable" };
    case "attempt-failed":
      return p.transport !== "none" && transport === p.transport ? NO_PREFERENCE : p;
    case "websocket-check-passed":
      return p.transport === "http" ? NO_PREFERENCE : p;
    case "server-fallback":
      return NO_PREFERENCE;
  }
  return p;
}

export function preferenceStart(p, nowMs, ttlMs, websocket, http) {
  const ttl = ttlMs > 0 ? ttlMs : PREFERENCE_TTL_MS;
  const current = p.transport !== "none" && nowMs < p.atMs + ttl ? p.transport : "none";
  if (current === "websocket" && websocket) return { transport: "websocket", checkWebSocket: false };
  if (current === "http" && http) return { transport: "http", checkWebSocket: websocket };
  return { transport: "none", checkWebSocket: false };
}

export function decodePreference(text) {
  if (Buffer.byteLength(text) > 64) return { errorField: "Preference" }; // bytes of UTF-8, not UTF-16 units
  if (text === "") return { preference: NO_PREFERENCE, encoded: "" };
  const parts = text.split(" ");
  if (parts.length !== 4 || parts[0] !== "v1") return { errorField: "Preference" };
  if (parts[1] !== "websocket" && parts[1] !== "http") return { errorField: "Preference.Transport" };
  if (!/^[0-9]+$/.test(parts[2]) || !Number.isSafeInteger(Number(parts[2]))) return { errorField: "Preference.At" };
  if (parts[3] !== "connected" && parts[3] !== "websocket-unstable") return { errorField: "Preference.Reason" };
  const atMs = Number(parts[2]);
  return { preference: { transport: parts[1], atMs, reason: parts[3] }, encoded: `v1 ${parts[1]} ${atMs} ${parts[3]}` };
}

// ---- The protocol ---------------------------------------------------------------

// The engine's functions: the RTB1, transport and host rules above.
const engineLib = { backoffCoefficient, retryDelayNs, retryFamilyNs, decidePending, resolveHosts, shouldFallback, hostOrder, decodePreference };

function answer({ area, function: fn, input: x }) {
  if (area === "scenarios" && engine) return engine.runScenario(x, engineLib);
  switch (fn) {
    case "backoffCoefficient":
      return { coefficient: backoffCoefficient(x.attempt) };
    case "jitterCoefficient":
      return { jitter: jitterCoefficient(num(x.u)) };
    case "retryDelay": {
      const ns = retryDelayNs(x.initialMs, x.attempt, num(x.u));
      return { delayMs: msOf(ns), delayNs: String(ns) };
    }
    case "retryBounds": {
      const [lower, upper] = [retryDelayNs(x.initialMs, x.attempt, 1), retryDelayNs(x.initialMs, x.attempt, 0)];
      return { lowerMs: msOf(lower), upperMs: msOf(upper), lowerNs: String(lower), upperNs: String(upper) };
    }
    case "fullJitterDelay":
    case "equalJitterDelay":
    case "grpcDelay":
    case "decorrelatedDelay": {
      const ns = retryFamilyNs(fn.slice(0, -"Delay".length), x, num(x.u));
      return { delayMs: msOf(ns), delayNs: String(ns) };
    }
    case "fullJitterBounds":
    case "equalJitterBounds":
    case "grpcBounds":
    case "decorrelatedBounds": {
      const family = fn.slice(0, -"Bounds".length);
      const [lower, upper] = [retryFamilyNs(family, x, 0), retryFamilyNs(family, x, 1)];
      return { lowerMs: msOf(lower), upperMs: msOf(upper), lowerNs: String(lower), upperNs: String(upper) };
    }
    case "decidePending": {
      const [decision, rule] = decidePending(x.candidate, x.mode, x.pending, x.active);
      return { decision, rule };
    }
    case "chooseTransport": {
      const [transport, shortCircuitMs] = chooseTransport(x.webSocketAvailable, x.httpAvailable, x.shortCircuitMs);
      return { transport, shortCircuitMs };
    }
    case "httpOnWebSocketFailure":
    case "httpOnShortCircuit":
      return { startHttp: startHttp(x) };
    case "upgradeAfterActivation":
      return x.activated === "http" && x.webSocketAvailable ? { transport: "websocket", mode: "upgrade" } : { transport: "none", mode: "clean" };
    case "resolveHosts":
      return resolveHosts(x);
    case "shouldFallback":
      return { fallback: shouldFallback(x.failureKind, x.status, x.server) };
    case "connectivityUp":
      return { up: connectivityUp(x.status, x.body ?? "") };
    case "hostOrder":
      return { order: hostOrder(x.primary, x.fallbacks ?? [], x.maxFallbacks, x.draws ?? []) };
    case "preferredHost":
      return { first: preferredHost(x.primary, x.steps) };
    case "preference": {
      let p = x.start.transport === "none" ? NO_PREFERENCE : x.start;
      const results = x.steps.map((s) =>
        s.op === "apply" ? (p = applyPreference(p, s.event, s.transport, s.atMs)) : preferenceStart(p, s.nowMs, x.ttlMs, s.websocket, s.http),
      );
      return { results };
    }
    case "preferenceDecode":
      return decodePreference(x.text);
  }
  throw new Error(`unknown function ${fn}`);
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  if (!line.trim()) return;
  const req = JSON.parse(line);
  let resp;
  if (req.type === "hello") {
    resp = { type: "hello", protocol: 1, implements: ["rtb1", "transport", "hosts", ...(engine ? ["scenarios"] : []), "preference", "retry"], name: "reconnect-js-reference", exactNs: true };
  } else {
    try {
      resp = { id: req.id, result: answer(req) };
    } catch (e) {
      resp = { id: req.id, error: { field: e.field, message: String(e.message ?? e) } };
    }
  }
  process.stdout.write(JSON.stringify(resp) + "\n");
});
