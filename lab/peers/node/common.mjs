// What the lab's Node programs share: flags, JSON-line events on stdout,
// and the rules that keep a child process from outliving its parent.

import { performance } from "node:perf_hooks";

// flags parses "--name value" pairs into an object of strings.
export function flags(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--") || i + 1 >= argv.length) {
      fail(`bad argument ${JSON.stringify(a)}: want --name value pairs`);
    }
    out[a.slice(2)] = argv[++i];
  }
  return out;
}

// now is the wall clock in milliseconds with sub-millisecond precision,
// the time base the Go side reads.
export function now() {
  return performance.timeOrigin + performance.now();
}

// emit writes one event as a JSON line.
export function emit(ev) {
  process.stdout.write(JSON.stringify({ t: now(), ...ev }) + "\n");
}

export function fail(msg) {
  process.stderr.write(msg + "\n");
  process.exit(2);
}

// guard ends the process at its deadline (milliseconds) and when its
// standard input closes (the parent went away).
export function guard(deadlineMs) {
  const ms = Number(deadlineMs);
  if (!(ms > 0)) {
    fail("--deadline-ms must be a positive number of milliseconds");
  }
  setTimeout(() => process.exit(0), ms).unref();
  process.stdin.on("end", () => process.exit(0));
  process.stdin.on("error", () => process.exit(0));
  process.stdin.resume();
}
