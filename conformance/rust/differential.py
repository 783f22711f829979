#!/usr/bin/env python3
"""Compares the Rust engine with the Go engine on random timelines.

The Rust adapter generates scenarios (`reconnect-conform generate SEED
COUNT`) with its own actions as the expectations; they are written into a
copy of the fixtures and run through the Go engine with
`reconnect conform --fixtures DIR --only scenarios --self`, whose report
gives Go's actions for every scenario that differs. Not part of CI.

    go build -o /tmp/reconnect ./cmd/reconnect
    (cd conformance/rust && cargo build --release --offline)
    python3 conformance/rust/differential.py --reconnect /tmp/reconnect --seed 1 --count 500
"""
import argparse, json, os, shutil, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
p = argparse.ArgumentParser()
p.add_argument("--reconnect", required=True, help="a built reconnect binary")
p.add_argument("--seed", type=int, default=1)
p.add_argument("--count", type=int, default=500)
a = p.parse_args()

adapter = os.path.join(root, "conformance/rust/target/release/reconnect-conform")
items = json.loads(subprocess.check_output([adapter, "generate", str(a.seed), str(a.count)]))
with tempfile.TemporaryDirectory() as d:
    for f in os.listdir(os.path.join(root, "fixtures")):
        if f.endswith(".json"):
            shutil.copy(os.path.join(root, "fixtures", f), d)
    with open(os.path.join(root, "fixtures/scenarios.json")) as f:
        sc = json.load(f)
    sc["items"] = items
    with open(os.path.join(d, "scenarios.json"), "w") as f:
        json.dump(sc, f)
    out = subprocess.run([a.reconnect, "conform", "--fixtures", d, "--only", "scenarios", "--self", "--format", "json"],
                         capture_output=True, text=True)
r = json.loads(out.stdout)
for f in r["failures"]:
    print(f["id"], json.dumps(f["input"]["config"]))
    if "steps" not in f["expected"] or "steps" not in f["actual"]:
        print("  ", json.dumps(f)[:2000])
        continue
    ex, ac, st = f["expected"]["steps"], f["actual"]["steps"], f["input"]["steps"]
    for i, (x, y) in enumerate(zip(ex, ac)):
        if x["actions"] != y["actions"]:
            for j in range(i):
                print("   ", st[j]["atMs"], st[j]["event"], ex[j]["actions"])
            print(" >>", st[i]["atMs"], st[i]["event"])
            print("  rust:", x["actions"])
            print("  go:  ", y["actions"])
            break
    else:
        print("  ", [m.get("problem") for m in f["mismatches"]])
print("seed %d: %s" % (a.seed, r["summary"]))
sys.exit(1 if r["failures"] else 0)
