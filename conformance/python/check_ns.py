#!/usr/bin/env python3
"""Checks the adapter's RTB1 arithmetic against the `…Ns` strings of rtb1.json
exactly (the harness compares milliseconds with a tolerance; this compares
whole nanoseconds with equality), and checks fixtures/README.md's integer
rule: the exact value initial × min((n+2)/3, 2) × (1 − u/5), rounded halves
away from zero, equals the string below 2^53 ns and is within
max(1 ns, 1e-14 × the value) above.

    python3 conformance/python/check_ns.py fixtures/rtb1.json
"""

import json
import math
import sys
from fractions import Fraction

sys.dont_write_bytecode = True  # leave no __pycache__ in the repository
import adapter  # noqa: E402


def exact_ns(initial_ms, n, u):
    """The integer rule, in exact rational arithmetic."""
    initial = adapter.initial_ns(initial_ms)
    if initial == 0:
        return 0
    n = adapter.clamp_attempt(n)
    backoff = min(Fraction(n + 2, 3), Fraction(2)) if not math.isinf(n) else Fraction(2)
    jitter = 1 - Fraction(adapter.clamp_draw(u)) / 5
    return min(adapter.round_half_away(initial * backoff * jitter), adapter.MAX_NS)


def checks(item):
    """(label, inputs for retry_delay_ns, expected ns string) of one item."""
    f = item["function"]
    if f == "retryDelay":
        yield "delay", (item["initialMs"], item["attempt"], item["u"]), item["expectedDelayNs"]
    elif f == "retryBounds":
        yield "lower", (item["initialMs"], item["attempt"], 1), item["expectedLowerNs"]
        yield "upper", (item["initialMs"], item["attempt"], 0), item["expectedUpperNs"]


def main(path):
    items = json.load(open(path, encoding="utf-8"))["items"]
    failures = count = 0
    for item in items:
        for label, args, want in checks(item):
            count += 1
            want = int(want)
            got = adapter.retry_delay_ns(*args)
            exact = exact_ns(*args)
            if got != want:
                failures += 1
                print(f"{item['id']} {label}: float64 replay {got} ns, fixture {want} ns")
            if want < 2**53 and exact != want or abs(exact - want) > max(1, want * 1e-14):
                failures += 1
                print(f"{item['id']} {label}: integer rule {exact} ns, fixture {want} ns")
    print(f"{count} nanosecond values checked, {failures} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "fixtures/rtb1.json"))
