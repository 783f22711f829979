// Runs the published-ably-js adapter (conformance/ably-js/adapter.mjs)
// against every ably version installed here (the npm aliases in
// package.json, "ably-<version>": "npm:ably@<version>") and prints, per
// version and area, the cases passed, failed and known (listed in
// conformance/ably-js/known-differences.json, the list for the pinned
// 2.28.0), the totality decisions outside the spec's domain, and what
// changed from the version before. Usage (scripts/ably-versions.sh does
// all of it):
//
//   npm ci --prefix conformance/ably-js-versions
//   go build -o /tmp/reconnect ./cmd/reconnect
//   node conformance/ably-js-versions/run.mjs /tmp/reconnect
//
// The exit status is 1 when a run broke (the adapter crashed or broke the
// protocol) or a version's area could not be run, else 0: differences are
// reported, not judged.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "../..");
const bin = process.argv[2];
if (!bin) {
  console.error("usage: node run.mjs <reconnect binary>");
  process.exit(2);
}
const AREAS = ["rtb1", "hosts"];
const known = path.join(repo, "conformance/ably-js/known-differences.json");
const adapter = path.join(repo, "conformance/ably-js/adapter.mjs");

const semver = (v) => v.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
function byVersion(a, b) {
  const [x, y] = [semver(a), semver(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    if (x[i] === undefined) return -1;
    if (y[i] === undefined) return 1;
    return typeof x[i] === "number" && typeof y[i] === "number" ? x[i] - y[i] : String(x[i]).localeCompare(String(y[i]));
  }
  return 0;
}
const pkg = JSON.parse(readFileSync(path.join(here, "package.json")));
const versions = Object.keys(pkg.dependencies)
  .filter((n) => n.startsWith("ably-"))
  .map((n) => n.slice("ably-".length))
  .sort(byVersion);

// conform runs one version's area and returns the harness's JSON report.
function conform(version, area) {
  const argv = ["conform", "--only", area, "--format", "json", "--deadline", "3m", "--known", known, "--",
    process.execPath, adapter, "--hosts", "--ably", path.join(here, "node_modules", `ably-${version}`)];
  return new Promise((resolve) => {
    const p = spawn(bin, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    p.stdout.on("data", (b) => (out += b));
    p.stderr.on("data", (b) => (err += b));
    p.on("close", (code) => {
      try {
        resolve({ code, report: JSON.parse(out) });
      } catch {
        resolve({ code, report: null, error: (err || out).trim().split("\n").slice(-3).join(" | ") });
      }
    });
  });
}

// outcomes maps every case that did not pass to how: failed, known, or
// decided differently outside the domain.
function outcomes(rep) {
  const m = new Map();
  for (const f of rep.failures ?? []) m.set(f.id, "failed");
  for (const f of rep.known ?? []) m.set(f.id, "known");
  for (const o of rep.outside ?? []) for (const id of o.differs ?? []) m.set(id, "outside");
  return m;
}

// items groups case ids by fixture item (a statusRange's <id>@<status>).
function items(ids) {
  const byItem = new Map();
  for (const id of ids) {
    const item = id.split("@")[0];
    byItem.set(item, (byItem.get(item) ?? 0) + 1);
  }
  const list = [...byItem].map(([item, n]) => (n > 1 ? `${item} (${n})` : item));
  return list.length > 3 ? `${list.slice(0, 3).join(", ")} and ${list.length - 3} more items` : list.join(", ");
}

const started = Date.now();
const jobs = [];
for (const v of versions) for (const a of AREAS) jobs.push({ v, a });
const results = new Map();
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const { v, a } = jobs[next++];
    results.set(`${v} ${a}`, await conform(v, a));
  }
}
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, worker));

let bad = 0;
const rows = [];
const prev = {};
for (const v of versions) {
  for (const a of AREAS) {
    const { report: rep, error } = results.get(`${v} ${a}`);
    const row = { v, a, passed: "", failed: "", known: "", outside: "", changed: "" };
    rows.push(row);
    if (!rep) {
      bad++;
      row.changed = `run failed: ${error}`;
      continue;
    }
    if (rep.broken && /does not implement it/.test(rep.broken)) {
      const why = (rep.adapter.match(new RegExp(`${a} not implemented: no ([^;)]*)`)) ?? [])[1];
      row.passed = "not implemented";
      row.changed = why ? `lacks ${why}` : "";
      if (prev[a]) row.changed = `area gone (${row.changed})`;
      prev[a] = null;
      continue;
    }
    if (rep.broken || rep.stopped) {
      bad++;
      row.changed = `broke: ${rep.broken || rep.stopped}`;
      continue;
    }
    const outsideCases = (rep.outside ?? []).reduce((n, o) => n + o.cases.length, 0);
    const outsideDiffer = (rep.outside ?? []).reduce((n, o) => n + (o.differs?.length ?? 0), 0);
    row.passed = String(rep.passed);
    row.failed = String(rep.failed);
    row.known = String(rep.known?.length ?? 0) + (rep.stale?.length ? ` (${rep.stale.length} listed pass)` : "");
    row.outside = `${outsideDiffer} of ${outsideCases}`;
    const now = outcomes(rep);
    const notes = [];
    if (/no Utils\.getRetryTime/.test(rep.adapter)) notes.push("delay from the inline ConnectionManager product");
    if (!prev[a]) {
      notes.unshift(prev[a] === undefined && v === versions[0] ? "first version run" : "area arrives");
    } else {
      const before = prev[a];
      const fixed = [...before.keys()].filter((id) => !now.has(id));
      const broke = [...now.keys()].filter((id) => !before.has(id));
      const moved = [...now.keys()].filter((id) => before.has(id) && before.get(id) !== now.get(id));
      if (fixed.length) notes.push(`${fixed.length} now pass: ${items(fixed)}`);
      if (broke.length) notes.push(`${broke.length} no longer pass: ${items(broke)}`);
      if (moved.length) notes.push(`${moved.length} change kind: ${items(moved)}`);
      if (rep.passed !== before.passed && !fixed.length && !broke.length) notes.push(`${rep.passed - before.passed} more cases passed`);
    }
    row.changed = notes.join("; ");
    now.passed = rep.passed;
    prev[a] = now;
  }
}

const esc = (s) => String(s).replace(/\|/g, "\\|");
console.log("| ably | area | passed | failed | known | outside, differs | changed from the version before |");
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(`| ${r.v} | ${r.a} | ${r.passed} | ${r.failed} | ${r.known} | ${r.outside} | ${esc(r.changed)} |`);
}
console.log(`\n${versions.length} versions, ${jobs.length} runs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(bad ? 1 : 0);
