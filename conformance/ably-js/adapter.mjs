// Conformance adapter over the published ably npm package (the version
// pinned in package-lock.json): every answer comes from a function of the
// real package, with its randomness pinned by replacing Math.random for
// the length of one call. Nothing here reimplements a decision.
//
//   npm ci --prefix conformance/ably-js
//   reconnect conform -- node conformance/ably-js/adapter.mjs            # RTB1
//   reconnect conform -- node conformance/ably-js/adapter.mjs --hosts    # RTB1 and hosts
//
// It declares the spec's domain: cases whose inputs ably-js's own code
// never produces (an attempt below 1, a draw outside [0, 1), …) are
// reported as outside the domain, by decision, not asked.
//
// RTB1: Utils.getBackoffCoefficient(n), Utils.getJitterCoefficient() and
// Utils.getRetryTime(initialMs, n), with Math.random() returning the
// case's u (ably-js computes 1 − Math.random()·0.2).
//
// Hosts (--hosts): resolveHosts is the primaryDomain and fallbackHosts of
// new Rest(options).options; hostOrder is Utils.arrChooseN(fallbacks, n)
// after the primary, with Math.random() returning the pinned draws in
// turn; shouldFallback is the Node platform's Http.shouldFallback on the
// error ably-js's HTTP client builds for that failure; connectivityUp is
// the Node platform's Http.checkConnectivity with its one HTTP request
// (doUri) answered by the platform's own response handler for the case's
// status and body. ably-js exposes no function for the preferred-host
// cache; those cases are answered with an error saying so.
//
// --ably DIR runs another copy of the package (its directory, usually
// node_modules/<name>), as conformance/ably-js-versions/run.mjs does for every
// published version it installs. Older versions lack some of these
// functions: an area whose functions are missing is not declared in the
// hello (its cases are "not implemented by the adapter"), and the name
// says what is missing. Before ably-js had Utils.getRetryTime, its
// ConnectionManager computed the same product inline, initial ×
// getBackoffCoefficient(n) × getJitterCoefficient(); the adapter then
// calls those two in that order. Before REC1 (no options.primaryDomain)
// the primary host is options.restHost.
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const args = process.argv.slice(2);
const hosts = args.includes("--hosts");
const ablyDir = args.includes("--ably") ? path.resolve(args[args.indexOf("--ably") + 1] ?? ".") : null;
// A package under node_modules is required by its name from there, so that
// its package.json "exports" apply (2.0 has no "main").
const Ably =
  ablyDir && path.basename(path.dirname(ablyDir)) === "node_modules"
    ? createRequire(path.join(ablyDir, "../../package.json"))(path.basename(ablyDir))
    : createRequire(import.meta.url)(ablyDir ?? "ably");
const version = JSON.parse(readFileSync(ablyDir ? path.join(ablyDir, "package.json") : new URL("./node_modules/ably/package.json", import.meta.url))).version;
const Utils = Ably.Realtime?.Utils ?? {};
const fn = (f) => typeof f === "function";
const getRetryTime = fn(Utils.getRetryTime)
  ? Utils.getRetryTime
  : (initialMs, n) => initialMs * Utils.getBackoffCoefficient(n) * Utils.getJitterCoefficient();

// withRandom runs f with Math.random returning the draws in turn (the last
// one again if f draws more).
function withRandom(draws, f) {
  const saved = Math.random;
  let i = 0;
  Math.random = () => draws[Math.min(i++, draws.length - 1)];
  try {
    return f();
  } finally {
    Math.random = saved;
  }
}

const num = (v) => (typeof v === "string" ? Number(v) : v); // "NaN", "Infinity", "-Infinity"

function resolveHosts({ endpoint, environment, restHost, realtimeHost, fallbackHostsUseDefault, fallbackHosts }) {
  const opts = { key: "app.key:secret", autoConnect: false, logLevel: 0 };
  if (endpoint) opts.endpoint = endpoint;
  if (environment) opts.environment = environment;
  if (restHost) opts.restHost = restHost;
  if (realtimeHost) opts.realtimeHost = realtimeHost;
  if (fallbackHostsUseDefault) opts.fallbackHostsUseDefault = true;
  if (fallbackHosts !== undefined) opts.fallbackHosts = fallbackHosts;
  let o;
  try {
    o = new Ably.Rest(opts).options;
  } catch (e) {
    // 40106: endpoint combined with environment, restHost or
    // realtimeHost, or environment with restHost or realtimeHost; the
    // error names no option, so the field is the first deprecated one
    // given, in that order.
    if (e?.code === 40106) e.field = [environment && endpoint ? "environment" : "", restHost ? "restHost" : "", realtimeHost ? "realtimeHost" : ""].find(Boolean);
    throw e;
  }
  return { primary: o.primaryDomain ?? o.restHost, fallbacks: o.fallbackHosts ?? [] };
}

// The error object ably-js's Node HTTP client hands to shouldFallback for
// each failure kind: got's error codes for network failures, the status
// for HTTP responses (ably-js does not look at the Server header).
function failureError(kind, status) {
  switch (kind) {
    case "dns":
      return { code: "ENOTFOUND" };
    case "unreachable":
      return { code: "EHOSTUNREACH" };
    case "refused":
      return { code: "ECONNREFUSED" };
    case "timeout":
      return { code: "ETIMEDOUT" };
    case "http-status":
    case "disconnected":
      return { statusCode: status };
    case "token":
      return { statusCode: 401, code: 40140 };
    default:
      return {};
  }
}

let rest;
const platformHttp = () => (rest ??= new Ably.Rest({ key: "app.key:secret", autoConnect: false, logLevel: 0 })).http.platformHttp;

function shouldFallback({ failureKind, status }) {
  return platformHttp().shouldFallback(failureError(failureKind, status ?? 0));
}

async function connectivityUp({ status, body }) {
  const h = platformHttp();
  const saved = h.doUri;
  h.doUri = async () => h._handler(null, { statusCode: status, headers: {} }, Buffer.from(body ?? ""));
  try {
    return await h.checkConnectivity();
  } finally {
    h.doUri = saved;
  }
}

async function answer({ function: fn, input: x }) {
  switch (fn) {
    case "backoffCoefficient":
      return { coefficient: Utils.getBackoffCoefficient(x.attempt) };
    case "jitterCoefficient":
      return { jitter: withRandom([num(x.u)], () => Utils.getJitterCoefficient()) };
    case "retryDelay":
      return { delayMs: withRandom([num(x.u)], () => getRetryTime(x.initialMs, x.attempt)) };
    case "retryBounds":
      return {
        lowerMs: withRandom([1], () => getRetryTime(x.initialMs, x.attempt)),
        upperMs: withRandom([0], () => getRetryTime(x.initialMs, x.attempt)),
      };
    case "resolveHosts":
      return resolveHosts(x);
    case "hostOrder":
      return { order: [x.primary, ...withRandom(x.draws?.length ? x.draws : [0], () => Utils.arrChooseN(x.fallbacks, x.maxFallbacks))] };
    case "shouldFallback":
      return { fallback: shouldFallback(x) };
    case "connectivityUp":
      return { up: await connectivityUp(x) };
  }
  throw new Error(`ably-js ${version} exposes no function for ${fn}`);
}

// missing lists, per area, the functions this version lacks.
function missingFunctions() {
  const rtb1 = ["getBackoffCoefficient", "getJitterCoefficient"].filter((f) => !fn(Utils[f])).map((f) => `Utils.${f}`);
  const host = fn(Utils.arrChooseN) ? [] : ["Utils.arrChooseN"];
  let h;
  try {
    h = platformHttp();
  } catch {
    // no Rest client or no HTTP client on it
  }
  if (!h) host.push("rest.http.platformHttp");
  for (const f of h ? ["shouldFallback", "checkConnectivity", "doUri", "_handler"] : []) {
    if (!fn(h[f])) host.push(`rest.http.platformHttp.${f}`);
  }
  return { rtb1, hosts: host };
}

function helloAnswer() {
  const missing = missingFunctions();
  const implements_ = [];
  const notes = [];
  if (missing.rtb1.length === 0) {
    implements_.push("rtb1");
    if (!fn(Utils.getRetryTime)) notes.push("no Utils.getRetryTime: the delay as its ConnectionManager computes it");
  } else {
    notes.push(`rtb1 not implemented: no ${missing.rtb1.join(", ")}`);
  }
  if (hosts && missing.hosts.length === 0) {
    implements_.push("hosts");
  } else if (hosts) {
    notes.push(`hosts not implemented: no ${missing.hosts.join(", ")}`);
  }
  const note = notes.length ? `; ${notes.join("; ")}` : "";
  return { type: "hello", protocol: 1, implements: implements_, name: `ably-js ${version} (npm${note})`, domain: "spec" };
}

// One request at a time, in order.
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  let resp;
  if (req.type === "hello") {
    resp = helloAnswer();
  } else {
    try {
      resp = { id: req.id, result: await answer(req) };
    } catch (e) {
      resp = { id: req.id, error: { field: e?.field, message: String(e?.message ?? e) } };
    }
  }
  process.stdout.write(JSON.stringify(resp) + "\n");
}
