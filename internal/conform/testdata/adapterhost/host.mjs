// Runs Node.js adapters one after another, each in a worker thread of its
// own, so that the tests that run hundreds of wrong adapters start Node.js
// a few times instead of hundreds. A worker runs the adapter's file
// unchanged, with its own globals and modules; its process.stdin and
// process.stdout are streams of its own, which this host connects to its
// own stdin and stdout one adapter at a time.
//
// Lines on stdin:
//
//   #run PATH   start the adapter at PATH (an absolute file name)
//   #end        end the adapter's stdin (its end of input)
//   any other   a line for the running adapter's stdin
//
// On stdout, the adapter's output as it comes, then, once the adapter has
// exited and its output is drained, "#exit CODE" on a line of its own. An
// adapter that exits by itself gets its "#exit" then, and the lines sent
// to it until "#end" are dropped (as a pipe to a process that has gone).
// An adapter that has not exited 2 s after "#end" is terminated (exit code
// 1, like a killed process's non-zero status). The adapter's stderr is this
// host's; after it has all been written, the host writes "#stderr-end" on a
// line of its own to its stderr, before the adapter's "#exit". The host
// exits at the end of its input.
//
// Lines pass in batches, whole lines, as they come (one message to the
// worker per chunk of input, one write per turn of the event loop out), so
// that a case costs about what it costs a process of its own.
import { Worker } from "node:worker_threads";

const exitGraceMs = 2000;
const stderrMark = "#stderr-end";

let current = null; // { worker, ended, exited }

// out collects what goes to stdout during one turn of the event loop.
let out = [];
let outScheduled = false;

function emit(chunk) {
  out.push(chunk);
  if (!outScheduled) {
    outScheduled = true;
    setImmediate(flush);
  }
}

function flush() {
  outScheduled = false;
  if (out.length === 0) return;
  const all = out.length === 1 ? out[0] : Buffer.concat(out.map((c) => (typeof c === "string" ? Buffer.from(c) : c)));
  out = [];
  process.stdout.write(all);
}

function start(path) {
  const worker = new Worker(path, { stdin: true, stdout: true, stderr: true });
  const run = { worker, ended: false, exited: false };
  current = run;
  let code = null;
  let drained = false;
  let errDrained = false;
  let lastNewline = true;
  const finish = () => {
    // "#exit" only once the adapter's stderr is written out too, so that
    // what it printed before it ended is there when its exit is read.
    if (code === null || !drained || !errDrained || run.exited) return;
    run.exited = true;
    clearTimeout(run.kill);
    // The mark ends the adapter's stderr; a reader waits for it before it
    // reads that stderr, since stderr and stdout arrive on two pipes.
    process.stderr.write(`\n${stderrMark}\n`);
    emit((lastNewline ? "" : "\n") + `#exit ${code}\n`);
  };
  worker.stdout.on("data", (chunk) => {
    if (chunk.length === 0) return;
    lastNewline = chunk[chunk.length - 1] === 0x0a;
    emit(chunk);
  });
  worker.stdout.on("end", () => {
    drained = true;
    finish();
  });
  worker.stderr.on("data", (chunk) => process.stderr.write(chunk));
  worker.stderr.on("end", () => {
    errDrained = true;
    finish();
  });
  worker.on("error", (e) => {
    // An uncaught exception: what Node.js would print before exiting 1.
    process.stderr.write(`${e?.stack ?? e}\n`);
  });
  worker.on("exit", (c) => {
    code = c;
    // Output still queued in the worker's stream arrives before its end.
    finish();
  });
}

function end(run) {
  if (run.ended) return;
  run.ended = true;
  run.worker.stdin.end();
  if (!run.exited) run.kill = setTimeout(() => run.worker.terminate(), exitGraceMs);
}

// The lines of one chunk of input for the running adapter go to it in one
// write; a control line first sends the ones before it.
let partial = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (partial + chunk).split("\n");
  partial = lines.pop();
  let batch = [];
  const send = () => {
    if (batch.length > 0 && current && !current.ended && !current.exited) current.worker.stdin.write(batch.join("\n") + "\n");
    batch = [];
  };
  for (const line of lines) {
    if (line.startsWith("#run ")) {
      send();
      if (current && !current.ended) end(current);
      start(line.slice(5));
    } else if (line === "#end") {
      send();
      if (current) end(current);
    } else {
      batch.push(line);
    }
  }
  send();
});
process.stdin.on("end", () => {
  if (current) end(current);
});
