#!/usr/bin/env python3
"""Compare engine.py with the Go engine on random scenarios, through the binary.

    go build -o /tmp/reconnect ./cmd/reconnect
    python3 conformance/python/differential.py --reconnect /tmp/reconnect --seed 1 --count 400
    python3 conformance/python/differential.py --reconnect /tmp/reconnect --seed 2 --drops

Each run writes random scenarios (a random configuration, enough pinned
draws, and events that name the transports, timers and checks engine.py has
live, with times that may jump or go backwards) into a copy of the fixtures,
runs `reconnect conform --fixtures DIR --only scenarios --self --format json`,
reads the Go engine's actions from the failure report (every step expects no
action, so every scenario fails and reports what Go did), and compares them
with engine.py's step by step: in order by default, as the harness does
(state changes in order, the rest as a multiset) with --multiset. The first
difference of each scenario is printed with the steps before it. It uses the
binary only, never the Go source; it is not part of CI.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ left in the repository
import engine as E  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "..", "fixtures")
FAILURES = ["dns", "unreachable", "refused", "timeout", "http-status:503", "http-status:401",
            "http-status:403:CloudFront", "disconnected:503", "disconnected:500", "disconnected:400",
            "token", "other"]
PREFERENCES = ["v1 http 1767225600000 connected", "v1 websocket 1767225600000 connected",
               "v1 http 1767139200000 connected", "v1 http 1767225500000 websocket-unstable"]
SPARE_DRAWS = 200


def random_config(rng):
    cfg = {"policy": rng.choice(["websocket-first", "http-first", "websocket-check"])}
    if rng.random() < 0.35:
        # Ably's preset resolves the endpoint (a port is an error there):
        # an explicit host, a routing policy, an address, capitals.
        cfg["endpoint"] = rng.choice(["rt.example.com", "rt.example.com", "acme", "nonprod:acme",
                                      "localhost", "127.0.0.1", "RT.Example.COM"])
    if rng.random() < 0.12:
        cfg["fallbackHosts"] = rng.choice([[], ["fb1.example.com"], ["fb1.example.com", "fb2.example.com"],
                                           ["a.example.com", "b.example.com", "c.example.com", "d.example.com"],
                                           ["realtime-b", "realtime-c"], ["main.realtime.ably.net"],
                                           ["F1.Example.COM"]])
    if rng.random() < 0.1:
        cfg["shortCircuitMs"] = rng.choice([500, 3000])
    if rng.random() < 0.1:
        cfg["webSocket"] = False
    elif rng.random() < 0.1:
        cfg["http"] = False
    if rng.random() < 0.3:
        cfg["rememberTransport"] = True
    if rng.random() < 0.3:
        cfg["preference"] = rng.choice(PREFERENCES)
    if rng.random() < 0.3:
        cfg["connectionStateTtlMs"] = rng.choice([5000, 30000])
    if rng.random() < 0.08:
        cfg["reconnectWindowMs"] = 2000
        cfg["immediateShare"] = rng.choice([0, 0.3])
    if rng.random() < 0.05:
        cfg["retrySpread"] = 1
    elif rng.random() < 0.2:
        retry_family(rng, cfg)
    if rng.random() < 0.2:
        if "reconnectWindowMs" not in cfg and rng.random() < 0.5:
            cfg["immediateReconnect"] = "off"
        else:
            cfg["immediateReconnect"] = "limited"
            cfg["immediateReconnectIntervalMs"] = rng.choice([1000, 5000, 30000])
    timeouts_by_job(rng, cfg)
    if rng.random() < 0.2:
        cfg["firstRetryMs"] = rng.choice([1, 100, 500, 1000, 5000, 15000])
    if rng.random() < 0.05:
        cfg["suspendedSpread"] = 0.5
    if rng.random() < 0.4:
        cfg["canRenewToken"] = True
    if rng.random() < 0.3:
        cfg["adaptiveMultiple"] = rng.choice([1, 2.5, 3, 7.25, 100])
        cfg["adaptiveFloorMs"] = rng.choice([0, 1, 100, 250, 2000, 5000])
    return cfg


def retry_family(rng, cfg):
    """The retry families at their storm parameters and at small ones."""
    family = rng.choice(["full-jitter", "equal-jitter", "grpc", "decorrelated-jitter"])
    cfg["retryFamily"] = family
    if family == "grpc":
        cfg["retryBaseMs"], cfg["retryCapMs"] = rng.choice([1000, 300]), rng.choice([120000, 5000])
        cfg["retryMultiplier"], cfg["retryJitter"] = rng.choice([1.6, 1, 2.5]), rng.choice([0.2, 0, 1])
    else:
        cfg["retryBaseMs"], cfg["retryCapMs"] = rng.choice([1000, 200, 100]), rng.choice([30000, 2000, 3000])


def timeouts_by_job(rng, cfg):
    """The jobs of realtimeRequestTimeout now and then their own (1 ms,
    short, equal to the short circuit or to realtimeRequestTimeout, or all
    one value), and the client-side idle limit."""
    jobs = ["connectTimeoutMs", "idleSlackMs", "closingTimeoutMs", "renewalTimeoutMs"]
    if rng.random() < 0.25:
        same = rng.choice([1, 2000, 5000]) if rng.random() < 0.2 else 0
        for job in jobs:
            if same:
                cfg[job] = same
            elif rng.random() < 0.5:
                cfg[job] = rng.choice([1, 1, 100, 1000, 2000, 5000, 10000, 15000, 30000])
    if rng.random() < 0.2:
        cfg["idleLimitMs"] = rng.choice([1, 500, 3000, 10000, 25000, 120000])


RTTS = ["0", "0.5", "1", "7", "33.3", "40", "99.5", "150", "250", "666.667", "800", "1999.999", "2000", "3000",
        "86400000", "0.000002", "10.000005", "100.000001"]


def connected_options(rng):
    """What a CONNECTED message says, often nothing."""
    opts = []
    if rng.random() < 0.4:
        opts.append("maxIdleInterval=%d" % rng.choice([0, 1000, 5000, 15000]))
    if rng.random() < 0.3:
        opts.append("connectionStateTtl=%d" % rng.choice([0, 2000, 60000]))
    if rng.random() < 0.2:
        opts.append("error=%s" % rng.choice(FAILURES))
    rng.shuffle(opts)
    return "".join(" " + o for o in opts)


def drop_event(rng, eng):
    """Biased towards activations and drops (the flapping guard)."""
    live = [t.id for t in eng.transports]
    active = [t.id for t in eng.transports if t.status == "active"]
    if active and rng.random() < 0.5:
        return rng.choice(["closed T%d", "failed T%d disconnected:503", "failed T%d unreachable",
                           "closed T%d disconnected:500"]) % active[0]
    if live:
        return "connected T%d" % max(live)
    return rng.choice(["timer retry", "connect", "timer flap-hold", "timer short-circuit", "network-up"])


def random_scenario(rng, index, drops):
    cfg = random_config(rng)
    draws = [round(rng.random(), 3) for _ in range(SPARE_DRAWS)]
    eng = E.Engine(dict(cfg), list(draws))
    steps, t = [], 0
    for i in range(rng.randint(3, 40)):
        if i == 0:
            ev = "connect"
        elif drops and rng.random() < 0.6:
            ev = drop_event(rng, eng)
            t += rng.choice([1, 100, 1000, 2000, 30000, 60000])
        else:
            ev, t = random_event(rng, eng, t)
        eng.step(t, ev)
        steps.append({"atMs": t, "event": ev, "expect": []})
    used = SPARE_DRAWS - len(eng.draws)  # the harness wants exactly the draws taken
    return {"id": "random-%d" % index, "spec": "engine", "rows": ["ALL-INITIALIZED-connect-1"],
            "config": cfg, "draws": draws[:used], "steps": steps}


def random_event(rng, eng, t):
    live = [tr.id for tr in eng.transports]
    timers = list(eng.timers) + ["connect T%d" % tr.id for tr in eng.transports if tr.connect_timer]
    last_check = eng.next_check - 1
    pending = [tr.id for tr in eng.transports if tr.kind == "websocket" and tr.status == "opening"]
    c = rng.random()
    if eng.c["adaptiveMultiple"] and "short-circuit" in eng.timers and pending and rng.random() < 0.3:
        # The adaptive short circuit's input, before the timer is due.
        ev = "dialed T%d rtt=%s" % (rng.choice(pending), rng.choice(RTTS))
    elif c < 0.22 and live:
        ev = rng.choice(["viable", "connected", "connected"]) + " T%d" % rng.choice(live)
        if ev.startswith("connected"):
            ev += connected_options(rng)
    elif c < 0.3 and live:
        tid = rng.choice(live)
        if rng.random() < 0.5:
            ev = "details T%d" % tid + connected_options(rng)
        elif rng.random() < 0.5:
            ev = "activity T%d" % tid + ("" if rng.random() < 0.5 else " at=%d" % max(0, t - rng.randint(0, 20000)))
        else:
            ev = "dialed T%d rtt=%s" % (tid, rng.choice(RTTS))
    elif c < 0.38 and live:
        tid = rng.choice(live)
        if rng.random() < 0.6:
            ev = "failed T%d %s" % (tid, rng.choice(FAILURES + ["token", "token"]))
        else:
            ev = "closed T%d" % tid + ("" if rng.random() < 0.3 else " " + rng.choice(FAILURES))
    elif c < 0.62 and timers:
        name = rng.choice(timers)
        ev = "timer " + name
        if name in eng.timers:
            due = eng.timers[name] // E.MS
            if due > t and rng.random() < 0.9:
                t = due
    elif c < 0.75 and last_check > 0:
        kind = rng.choice(["connectivity", "websocket-check", "token"])
        cid = rng.randint(max(0, last_check - 2), last_check)
        if kind == "token":
            ev = "token C%d %s" % (cid, rng.choice(["renewed", "failed other", "failed http-status:403", "failed timeout"]))
        else:
            ev = "%s C%d %s" % (kind, cid, rng.choice(["up", "down"]))
    else:
        ev = rng.choice(["connect", "close", "network-up", "network-down", "fatal token",
                         "timer retry", "timer state-ttl", "connect", "close", "timer idle", "timer close",
                         "timer renew-token", "dialed T0 rtt=5", "dialed T%d rtt=1" % eng.next_tid])
    if rng.random() < 0.9:
        t += rng.choice([0, 1, 10, 100, 500, 999, 1000, 1500, 3000])
    else:
        t -= rng.randint(0, 500)  # time never goes backwards for the engine
    return ev, max(t, 0)


def same(mine, go, multiset):
    if not multiset:
        return mine == go
    states = lambda a: [x for x in a if x.startswith("state ")]  # noqa: E731
    others = lambda a: sorted(x for x in a if not x.startswith("state "))  # noqa: E731
    return states(mine) == states(go) and others(mine) == others(go)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reconnect", default="reconnect", help="the reconnect binary")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--drops", action="store_true", help="bias towards activations and drops")
    ap.add_argument("--multiset", action="store_true", help="compare as the harness does")
    ap.add_argument("--context", type=int, default=8, help="steps shown before a difference")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    items = [random_scenario(rng, i, args.drops) for i in range(args.count)]
    tmp = tempfile.mkdtemp(prefix="reconnect-differential-")
    try:
        shutil.copytree(FIXTURES, tmp, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("*.go", "*.md"))
        with open(os.path.join(FIXTURES, "scenarios.json")) as f:
            fixture = json.load(f)
        fixture["items"] = items
        with open(os.path.join(tmp, "scenarios.json"), "w") as f:
            json.dump(fixture, f)
        out = subprocess.run([args.reconnect, "conform", "--fixtures", tmp, "--only", "scenarios",
                              "--self", "--format", "json"], capture_output=True, text=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report = json.loads(out.stdout)
    by_id = {f["id"]: f for f in report.get("failures", [])}
    differences = 0
    for item in items:
        actual = by_id.get(item["id"], {}).get("actual", {})
        if "steps" not in actual:
            differences += 1
            print("=== %s: no steps from Go: %s" % (item["id"], json.dumps(actual)[:300]))
            continue
        eng = E.Engine(dict(item["config"]), list(item["draws"]))
        for k, st in enumerate(item["steps"]):
            mine = eng.step(st["atMs"], st["event"])
            go = actual["steps"][k]["actions"]
            if not same(mine, go, args.multiset):
                differences += 1
                print("=== %s config %s step %d" % (item["id"], json.dumps(item["config"]), k))
                for j in range(max(0, k - args.context), k):
                    print("    %s %s -> %s" % (item["steps"][j]["atMs"], item["steps"][j]["event"],
                                             actual["steps"][j]["actions"]))
                print("  at %s %s" % (st["atMs"], st["event"]))
                print("  go  :", go)
                print("  mine:", mine)
                break
    print("seed %d: %d scenarios, %d with a difference" % (args.seed, len(items), differences))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
