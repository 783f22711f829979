#!/usr/bin/env python3
"""A conformance adapter in plain Python 3 (standard library only).

It implements the areas rtb1, transport, hosts, preference, scenarios
(the engine, in engine.py) and retry of the reconnect fixtures and speaks the
conformance protocol (version 1) described in fixtures/README.md: one JSON
object per line on stdin, one per line on stdout, anything for people on
stderr.

    reconnect conform --require rtb1,transport,hosts,preference,scenarios,retry \
        -- python3 conformance/python/adapter.py

Each spec point is one short function below; the protocol loop is at the end.
"""

import json
import math
import os
import re
import sys
from fractions import Fraction

NAME = "reconnect-python-adapter 1"
PROTOCOL = 1
AREAS = ["rtb1", "transport", "hosts", "preference", "scenarios", "retry"]


# ---------------------------------------------------------------------------
# Numbers
# ---------------------------------------------------------------------------

SPELLED = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def number(value):
    """A JSON number, or one of the strings JSON cannot spell as a number."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, (int, float, Fraction)):
        return value
    if isinstance(value, str) and value in SPELLED:
        return SPELLED[value]
    raise TypeError(f"not a number: {value!r}")


def round_half_away(x):
    """The exact value x rounded to an integer, halves away from zero."""
    q = Fraction(x)
    if q >= 0:
        return math.floor(q + Fraction(1, 2))
    return -math.floor(-q + Fraction(1, 2))


# ---------------------------------------------------------------------------
# RTB1: backoff and jitter (fixtures/rtb1.json)
# ---------------------------------------------------------------------------

MAX_NS = 2**63 - 1  # the largest 64-bit nanosecond count
NS_PER_MS = 10**6


def clamp_attempt(n):
    """Decision 1: attempts are 1-indexed; below 1 counts as 1. An attempt
    number is a whole number: a fraction is truncated (2.5 is attempt 2)."""
    n = number(n)
    if math.isnan(n) or n < 1:
        return 1
    if math.isinf(n):
        return n
    return int(n)


def backoff_coefficient(n):
    """RTB1a: min((n + 2) / 3, 2), as float64 (the division rounded once)."""
    n = clamp_attempt(n)
    if n >= 4:
        return 2.0
    return (float(n) + 2.0) / 3.0  # n is 1, 2 or 3 here: every step is exact but the division


def clamp_draw(u):
    """Decision 2: u is clamped into [0, 1]; NaN counts as 0."""
    u = number(u)
    if math.isnan(u) or u < 0:
        return 0.0
    return min(float(u), 1.0)


def jitter_coefficient(u):
    """RTB1b: 1 − 0.2·u, with 0.2·u rounded to float64 before the subtraction."""
    return 1.0 - 0.2 * clamp_draw(u)


def initial_ns(initial_ms):
    """The initial delay in whole nanoseconds (halves away from zero)."""
    ms = number(initial_ms)
    if math.isnan(ms) or ms <= 0:
        return 0
    if math.isinf(ms):
        return MAX_NS
    return min(round_half_away(Fraction(ms) * NS_PER_MS), MAX_NS)


def retry_delay_ns(initial_ms, n, u):
    """RTB1 with decisions 3 and 4: float64 initial × backoff × jitter, in
    that order, rounded to a whole nanosecond halves away from zero,
    saturated at 2^63 − 1; an initial delay ≤ 0 gives 0."""
    initial = initial_ns(initial_ms)
    if initial == 0:
        return 0
    x = float(initial) * backoff_coefficient(n) * jitter_coefficient(u)
    if x >= 2**63:
        return MAX_NS
    return min(round_half_away(x), MAX_NS)


def ms(ns):
    """Whole nanoseconds as the nearest float64 millisecond value."""
    return float(Fraction(ns, NS_PER_MS))


def retry_bounds_ns(initial_ms, n):
    """Decision 5: lower is the delay at u = 1, upper the delay at u = 0."""
    return retry_delay_ns(initial_ms, n, 1), retry_delay_ns(initial_ms, n, 0)


def rtb1_backoff(inp):
    return {"coefficient": backoff_coefficient(inp["attempt"])}


def rtb1_jitter(inp):
    return {"jitter": jitter_coefficient(inp["u"])}


def rtb1_delay(inp):
    return {"delayMs": ms(retry_delay_ns(inp["initialMs"], inp["attempt"], inp["u"]))}


def rtb1_bounds(inp):
    lower, upper = retry_bounds_ns(inp["initialMs"], inp["attempt"])
    return {"lowerMs": ms(lower), "upperMs": ms(upper)}


# ---------------------------------------------------------------------------
# Retry families other protocols use (fixtures/retry.json)
# ---------------------------------------------------------------------------


def param_ns(value):
    """A parameter in milliseconds as a float64 of whole nanoseconds; a
    negative one counts as 0 (the totality decision)."""
    ms_ = number(value if value is not None else 0)
    if math.isnan(ms_) or ms_ <= 0:
        return 0.0
    if math.isinf(ms_):
        return float(MAX_NS)
    return float(min(round_half_away(Fraction(ms_) * NS_PER_MS), MAX_NS))


def rounded_ns(x):
    """A delay in float64 nanoseconds to whole ones, halves away, saturated."""
    if x >= 2**63:
        return MAX_NS
    return round_half_away(x)


def ceiling(inp):
    """min(cap, base × 2^(n−1)); the power of two is exact, +inf on overflow."""
    n = clamp_attempt(inp["attempt"])
    base = param_ns(inp.get("baseMs"))
    e = 0.0
    if base > 0:
        k = n - 1
        try:
            e = math.inf if k > 1100 else math.ldexp(base, int(k))
        except OverflowError:
            e = math.inf
    return min(param_ns(inp.get("capMs")), e)


def clamp_multiplier(m):
    m = number(m)
    if math.isnan(m) or m <= 1:
        return 1.0
    if m < 1.01:
        return 1.01
    return min(float(m), 100.0)


def retry_family_ns(family, inp, u):
    u = clamp_draw(u)
    if family == "fullJitter":
        return rounded_ns(ceiling(inp) * u)
    if family == "equalJitter":
        h = ceiling(inp) * 0.5
        return rounded_ns(h + h * u)
    if family == "grpc":
        cap = param_ns(inp.get("capMs"))
        b = min(param_ns(inp.get("baseMs")), cap)
        m = clamp_multiplier(inp["multiplier"])
        n = clamp_attempt(inp["attempt"])
        k = n
        while k > 1 and b < cap:
            nxt = min(b * m, cap)
            if nxt == b:
                break
            b = nxt
            k -= 1
        if n <= 1:
            return rounded_ns(b)
        return rounded_ns(b * (1.0 + clamp_draw(inp["jitter"]) * (2.0 * u - 1.0)))
    if family == "decorrelated":
        base = param_ns(inp.get("baseMs"))
        prev = base
        if clamp_attempt(inp["attempt"]) > 1:
            prev = max(param_ns(inp.get("previousMs")), base)
        return rounded_ns(min(param_ns(inp.get("capMs")), base + (3.0 * prev - base) * u))
    raise ValueError(f"unknown retry family {family!r}")


def retry_delay(family):
    def fn(inp):
        ns = retry_family_ns(family, inp, inp["u"])
        return {"delayMs": ms(ns), "delayNs": str(ns)}
    return fn


def retry_bounds(family):
    def fn(inp):
        lower, upper = retry_family_ns(family, inp, 0), retry_family_ns(family, inp, 1)
        return {"lowerMs": ms(lower), "upperMs": ms(upper), "lowerNs": str(lower), "upperNs": str(upper)}
    return fn


# ---------------------------------------------------------------------------
# Transport fallback (fixtures/transport.json)
# ---------------------------------------------------------------------------

TRANSPORTS = ("none", "websocket", "http")
MODES = ("clean", "resume", "recover", "upgrade")
DEFAULT_SHORT_CIRCUIT_MS = 2000


def decide_pending(candidate, mode, pending, active):
    """setTransportPending: the rules 0–4, in order; the first that applies decides."""
    if candidate not in ("websocket", "http") or mode not in MODES \
            or pending not in TRANSPORTS or active not in TRANSPORTS:
        return "discard-candidate", 0
    if candidate == "http" and "websocket" in (pending, active):
        return "discard-candidate", 1
    if candidate == "websocket" and pending == "http":
        return "replace-pending", 2
    if candidate == "websocket" and mode != "upgrade" and active == "http":
        return "discard-candidate", 3
    return "proceed", 4


def choose_transport(websocket, http, short_circuit_ms):
    """chooseTransport: a websocket with a short-circuit timer when both
    transports exist (≤ 0 means the default 2000 ms); else the one that exists."""
    if websocket and http:
        sc = short_circuit_ms if short_circuit_ms > 0 else DEFAULT_SHORT_CIRCUIT_MS
        return "websocket", sc
    if websocket:
        return "websocket", 0
    if http:
        return "http", 0
    return "none", 0


def http_may_start(http_available, http_started, pending, active):
    """HTTP starts (on a websocket failure or when the short-circuit timer
    fires) only if it is available, not yet started, and nothing is pending
    or active."""
    return bool(http_available) and not http_started and pending == "none" and active == "none"


def upgrade_after_activation(activated, websocket_available):
    """The upgrade step: HTTP just activated and a websocket exists → a
    websocket in upgrade mode on the same host."""
    if activated == "http" and websocket_available:
        return "websocket", "upgrade"
    return "none", "clean"


def transport_pending(inp):
    decision, rule = decide_pending(inp["candidate"], inp["mode"], inp["pending"], inp["active"])
    return {"decision": decision, "rule": rule}


def transport_choose(inp):
    transport, sc = choose_transport(inp["webSocketAvailable"], inp["httpAvailable"],
                                     number(inp["shortCircuitMs"]))
    return {"transport": transport, "shortCircuitMs": sc}


def transport_http_start(inp):
    return {"startHttp": http_may_start(inp["httpAvailable"], inp["httpStarted"],
                                        inp["pending"], inp["active"])}


def transport_upgrade(inp):
    transport, mode = upgrade_after_activation(inp["activated"], inp["webSocketAvailable"])
    return {"transport": transport, "mode": mode}


# ---------------------------------------------------------------------------
# Hosts (fixtures/hosts.json): REC1, REC2, RSC15, RTN17
# ---------------------------------------------------------------------------

class FieldError(Exception):
    """Invalid input, naming the option as the protocol names inputs."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


LETTERS_DIGITS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
LABEL_BYTES = LETTERS_DIGITS | {"-", "_"}
HEX_DIGITS = set("0123456789abcdefABCDEF")
FALLBACK_LETTERS = "abcde"


def ascii_lower(s):
    """Lower ASCII letters only (U+212A KELVIN SIGN stays what it is)."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def valid_label(label):
    """One DNS label: 1–63 bytes of ASCII letters, digits, '-', '_', no '-' at an edge."""
    return (1 <= len(label) <= 63 and all(c in LABEL_BYTES for c in label)
            and not label.startswith("-") and not label.endswith("-"))


def valid_ipv4(name):
    """Four decimal octets 0–255 without leading zeros."""
    parts = name.split(".")
    return len(parts) == 4 and all(
        p.isascii() and p.isdigit() and (p == "0" or not p.startswith("0")) and int(p) <= 255
        for p in parts)


def ipv6_groups(part, may_end_in_ipv4):
    """How many 16-bit groups a ':'-separated run of hex groups holds (an IPv4
    address at its end counts two), or None if it is malformed."""
    if part == "":
        return 0
    items = part.split(":")
    count = 0
    for i, group in enumerate(items):
        if may_end_in_ipv4 and i == len(items) - 1 and "." in group:
            if not valid_ipv4(group):
                return None
            count += 2
        elif 1 <= len(group) <= 4 and all(c in HEX_DIGITS for c in group):
            count += 1
        else:
            return None
    return count


def valid_ipv6(name):
    """An IPv6 address in RFC 4291 text form, without brackets or zone: eight
    groups of 1–4 hex digits, or fewer around one '::', the last two groups
    possibly written as an IPv4 address."""
    head, double_colon, tail = name.partition("::")
    if "::" in tail:
        return False
    if not double_colon:
        return ipv6_groups(head, True) == 8
    before, after = ipv6_groups(head, False), ipv6_groups(tail, True)
    return before is not None and after is not None and before + after <= 7


def valid_host(name):
    """A host name (explicit endpoint REC1b2, or a fallback host): a DNS name
    or an IP address, at most 253 bytes; ':' only in an IPv6 address."""
    if not name or len(name) > 253 or not name.isascii():
        return False
    if ":" in name:
        return valid_ipv6(name)
    labels = name.split(".")
    if not all(valid_label(label) for label in labels):
        return False
    if labels[-1].isdigit():
        return valid_ipv4(name)
    return True


def is_nonprod_endpoint(endpoint):
    """REC1b3: nonprod:[id], the prefix in any case."""
    return ascii_lower(endpoint[:8]) == "nonprod:"


def is_hostname_endpoint(endpoint):
    """REC1b2: the endpoint is a host name if it contains '.' or '::' or is
    localhost; and, as ':' appears only in an IPv6 address, if it contains
    ':' other than as the nonprod: prefix (so 1:2:3:4:5:6:7:8 is a host)."""
    return ("." in endpoint or "::" in endpoint or ascii_lower(endpoint) == "localhost"
            or (":" in endpoint and not is_nonprod_endpoint(endpoint)))


def policy_hosts(pid, nonprod):
    """REC1b3/REC1b4 and REC2c3–REC2c5: the hosts of a routing policy id."""
    if nonprod:
        return (f"{pid}.realtime.ably-nonprod.net",
                [f"{pid}.{x}.fallback.ably-realtime-nonprod.com" for x in FALLBACK_LETTERS])
    return (f"{pid}.realtime.ably.net",
            [f"{pid}.{x}.fallback.ably-realtime.com" for x in FALLBACK_LETTERS])


def policy_id(value, field):
    """A routing policy id: one DNS label, returned lowered."""
    if not valid_label(value):
        raise FieldError(field, f"{field}: {value!r} is not a routing policy id")
    return ascii_lower(value)


def hosts_from_endpoint(endpoint):
    """REC1b: explicit host name, nonprod:[id], or [id]."""
    if is_hostname_endpoint(endpoint):
        if not valid_host(endpoint):
            raise FieldError("endpoint", f"endpoint: {endpoint!r} is not a host name")
        return ascii_lower(endpoint), []  # REC2c2: no fallbacks for an explicit host
    if is_nonprod_endpoint(endpoint):
        return policy_hosts(policy_id(endpoint[8:], "endpoint"), nonprod=True)
    return policy_hosts(policy_id(endpoint, "endpoint"), nonprod=False)


def hosts_from_environment(environment):
    """The deprecated environment option: 'production' (any case) is 'main'."""
    if ascii_lower(environment) == "production":
        return policy_hosts("main", nonprod=False)
    return policy_hosts(policy_id(environment, "environment"), nonprod=False)


def explicit_fallbacks(fallback_hosts):
    """REC2a2: the fallbackHosts option, each a valid host, lowered, no duplicate
    after lowering; a fallback host may be the primary host."""
    seen = set()
    result = []
    for i, host in enumerate(fallback_hosts):
        field = f"fallbackHosts[{i}]"
        if not isinstance(host, str) or not valid_host(host):
            raise FieldError(field, f"{field}: {host!r} is not a host name")
        lowered = ascii_lower(host)
        if lowered in seen:
            raise FieldError(field, f"{field}: {host!r} is a duplicate")
        seen.add(lowered)
        result.append(lowered)
    return result


def legacy_conflict(endpoint, environment, rest_host, realtime_host, use_default, fallback_hosts_set):
    """The option sets the spec calls invalid, naming the deprecated option:
    REC1b1, REC1c1, REC2a1."""
    if endpoint:
        for field, given in (("environment", environment), ("restHost", rest_host),
                             ("realtimeHost", realtime_host), ("fallbackHostsUseDefault", use_default)):
            if given:
                raise FieldError(field, f"{field}: cannot be used with endpoint (REC1b1)")
    if environment:
        for field, given in (("restHost", rest_host), ("realtimeHost", realtime_host)):
            if given:
                raise FieldError(field, f"{field}: cannot be used with environment (REC1c1)")
    if fallback_hosts_set and use_default:
        raise FieldError("fallbackHostsUseDefault", "fallbackHostsUseDefault: cannot be used with fallbackHosts (REC2a1)")


def legacy_host(value, field):
    """restHost or realtimeHost: a host name, lowered."""
    if not isinstance(value, str) or not valid_host(value):
        raise FieldError(field, f"{field}: {value!r} is not a host name")
    return ascii_lower(value)


def resolve_hosts(endpoint, environment, fallback_hosts_set, fallback_hosts,
                  rest_host="", realtime_host="", use_default=False):
    """REC1, REC2: the primary host and the fallback hosts."""
    legacy_conflict(endpoint, environment, rest_host, realtime_host, use_default, fallback_hosts_set)
    if rest_host or realtime_host:
        # REC1d1, REC1d2 (both validated); REC2c6: no fallback hosts.
        rest = legacy_host(rest_host, "restHost") if rest_host else ""
        realtime = legacy_host(realtime_host, "realtimeHost") if realtime_host else ""
        primary, fallbacks = rest or realtime, []
    elif endpoint:
        primary, fallbacks = hosts_from_endpoint(endpoint)
    elif environment:
        primary, fallbacks = hosts_from_environment(environment)
    else:
        primary, fallbacks = policy_hosts("main", nonprod=False)  # REC1a, REC2c1
    if use_default:
        fallbacks = policy_hosts("main", nonprod=False)[1]  # REC2b
    if fallback_hosts_set:
        fallbacks = explicit_fallbacks(fallback_hosts or [])
    return primary, fallbacks


OWN_BRACKETED = re.compile(r"\[([^\]]*)\]:([0-9]+)")
OWN_NAMED = re.compile(r"([^:\[\]]+):([0-9]+)")


def valid_port(port):
    """A decimal number from 1 to 65535 without leading zeros."""
    return (port.isascii() and port.isdigit() and not port.startswith("0")
            and len(port) <= 5 and int(port) <= 65535)


def valid_own_host(h):
    """Without Ably's preset: a host as valid_host says (one label
    included), optionally followed by ':port', an IPv6 address then in
    brackets ('[::1]:8080')."""
    m = OWN_BRACKETED.fullmatch(h)
    if m:
        return valid_ipv6(m.group(1)) and valid_port(m.group(2))
    m = OWN_NAMED.fullmatch(h)
    if m:
        return valid_host(m.group(1)) and valid_port(m.group(2))
    return valid_host(h)


def resolve_own_hosts(endpoint, environment, fallback_hosts_set, fallback_hosts,
                      rest_host="", realtime_host="", use_default=False):
    """The service's own hosts (ably false): endpoint is the primary host,
    fallbackHosts the fallback hosts; Ably's options are refused, naming
    the first given."""
    for field, given in (("environment", environment), ("restHost", rest_host),
                         ("realtimeHost", realtime_host), ("fallbackHostsUseDefault", use_default)):
        if given:
            raise FieldError(field, f"{field} is Ably's option and needs Ably's preset")
    if not endpoint:
        raise FieldError("endpoint", "endpoint is required")
    if ascii_lower(endpoint).startswith("nonprod:") and not OWN_NAMED.fullmatch(endpoint):
        raise FieldError("endpoint", "a routing policy needs Ably's preset")
    if not isinstance(endpoint, str) or not valid_own_host(endpoint):
        raise FieldError("endpoint", f"endpoint: {endpoint!r} is not a host (and port)")
    fallbacks, seen = [], set()
    for i, host in enumerate((fallback_hosts or []) if fallback_hosts_set else []):
        field = f"fallbackHosts[{i}]"
        if not isinstance(host, str) or not valid_own_host(host):
            raise FieldError(field, f"{field}: {host!r} is not a host (and port)")
        lowered = ascii_lower(host)
        if lowered in seen:
            raise FieldError(field, f"{field}: {host!r} is a duplicate")
        seen.add(lowered)
        fallbacks.append(lowered)
    return ascii_lower(endpoint), fallbacks


QUALIFYING_ALWAYS = {"dns", "unreachable", "refused", "timeout"}
OWS = " \t"  # HTTP's optional white space


def is_cloudfront(server):
    """RSC15l4's header test: trimmed of spaces and tabs, ASCII case-insensitive."""
    return ascii_lower((server or "").strip(OWS)) == "cloudfront"


def should_fallback(kind, status, server):
    """RSC15l, RTN17f: does this failure move to a fallback host?"""
    if kind in QUALIFYING_ALWAYS:
        return True  # RSC15l1, RSC15l2
    if kind == "http-status":
        return 500 <= status <= 504 or (status >= 400 and is_cloudfront(server))  # RSC15l3, l4
    if kind == "disconnected":
        return 500 <= status <= 504  # RTN17f1
    return False  # none, other, token


ASCII_SPACE = " \t\n\v\f\r"


def connectivity_up(status, body):
    """RTN17j: up for a 2xx whose body, trimmed of ASCII white space, is exactly 'yes'."""
    return 200 <= status <= 299 and (body or "").strip(ASCII_SPACE) == "yes"


def host_order_index(u, r):
    """floor(u·r), the product rounded to float64 first (0.6·5 is 3, not 2),
    with u clamped into [0, 1) (NaN as 0)."""
    u = number(u)
    if math.isnan(u) or u < 0:
        return 0
    if u >= 1:
        return r - 1
    return min(math.floor(float(u) * r), r - 1)


def host_order(primary, fallbacks, max_fallbacks, draws):
    """RSC15a, RTN17: the primary, then at most max_fallbacks fallbacks, draw k
    picking index floor(u·r) of the r not yet picked, in their given order."""
    order = [primary]
    left = list(fallbacks)
    for k in range(min(max(int(max_fallbacks), 0), len(left))):
        u = draws[k] if k < len(draws) else 0
        order.append(left.pop(host_order_index(u, len(left))))
    return order


class PreferredHost:
    """RSC15f: a fallback host that succeeded is preferred until at + ttl
    (exclusive); forgotten on a qualifying failure on it."""

    def __init__(self, primary):
        self.primary = primary
        self.host = None
        self.until = 0

    def fallback_succeeded(self, host, at_ms, ttl_ms):
        if ttl_ms > 0:
            self.host, self.until = host, at_ms + ttl_ms
        else:
            self.host = None

    def failed(self, host, at_ms, kind, status, server):
        if host == self.host and should_fallback(kind, status, server):
            self.host = None

    def first(self, at_ms):
        if self.host is not None and at_ms < self.until:
            return self.host
        return self.primary


def hosts_resolve(inp):
    # The harness sends fallbackHosts exactly when the option is set (the
    # fixture's fallbackHostsSet); an empty list disables fallback.
    fallback_hosts_set = inp.get("fallbackHostsSet", "fallbackHosts" in inp)
    resolve = resolve_own_hosts if inp.get("ably") is False else resolve_hosts
    primary, fallbacks = resolve(inp.get("endpoint", ""), inp.get("environment", ""),
                                       fallback_hosts_set, inp.get("fallbackHosts"),
                                       inp.get("restHost", ""), inp.get("realtimeHost", ""),
                                       inp.get("fallbackHostsUseDefault", False) is True)
    return {"primary": primary, "fallbacks": fallbacks}


def hosts_should_fallback(inp):
    return {"fallback": should_fallback(inp["failureKind"], inp.get("status", 0), inp.get("server", ""))}


def hosts_connectivity(inp):
    return {"up": connectivity_up(inp["status"], inp.get("body", ""))}


def hosts_order(inp):
    return {"order": host_order(inp["primary"], inp.get("fallbacks", []), inp["maxFallbacks"],
                                inp.get("draws") or [])}


def hosts_preferred(inp):
    cache = PreferredHost(inp["primary"])
    firsts = []
    for step in inp["steps"]:
        op, at = step["op"], step["atMs"]
        if op == "fallbackSucceeded":
            cache.fallback_succeeded(step["host"], at, step["ttlMs"])
        elif op == "failed":
            cache.failed(step["host"], at, step["failureKind"], step.get("status", 0),
                         step.get("server", ""))
        elif op == "first":
            firsts.append(cache.first(at))
        else:
            raise ValueError(f"unknown preferredHost op {op!r}")
    return {"first": firsts}


# ---------------------------------------------------------------------------
# Transport preference (fixtures/preference.json)
# ---------------------------------------------------------------------------

DEFAULT_PREFERENCE_TTL_MS = 86_400_000  # 24 h
REASONS = ("connected", "websocket-unstable")
NOTHING = {"transport": "none"}


def remembered(transport, at_ms, reason):
    return {"transport": transport, "atMs": at_ms, "reason": reason}


def apply_event(pref, event, transport, at_ms):
    """The 'apply' rules, in order; the first that applies decides."""
    if event == "connected":
        return remembered(transport, at_ms, "connected") if transport in ("websocket", "http") else pref
    if event == "websocket-unstable":
        return remembered("http", at_ms, "websocket-unstable")
    if event == "attempt-failed":
        return NOTHING if transport == pref["transport"] else pref
    if event == "websocket-check-passed":
        return NOTHING if pref["transport"] == "http" else pref
    if event == "server-fallback":
        return NOTHING
    return pref


def in_force(pref, now_ms, ttl_ms):
    """Remembered (websocket or http) and now < at + ttl; ttl 0 means 24 h."""
    ttl = ttl_ms if ttl_ms > 0 else DEFAULT_PREFERENCE_TTL_MS
    return pref["transport"] in ("websocket", "http") and now_ms < pref["atMs"] + ttl


def start_answer(pref, now_ms, ttl_ms, websocket, http):
    """How the next attempt starts: on the transport in force if available; a
    remembered HTTP checks the websocket when one is available."""
    if in_force(pref, now_ms, ttl_ms):
        if pref["transport"] == "websocket" and websocket:
            return {"transport": "websocket", "checkWebSocket": False}
        if pref["transport"] == "http" and http:
            return {"transport": "http", "checkWebSocket": bool(websocket)}
    return {"transport": "none", "checkWebSocket": False}


def preference_steps(inp):
    pref = inp["start"] if inp["start"]["transport"] != "none" else NOTHING
    ttl = inp.get("ttlMs", 0)
    results = []
    for step in inp["steps"]:
        if step["op"] == "apply":
            pref = apply_event(pref, step["event"], step.get("transport", "none"), step["atMs"])
            results.append(pref)
        elif step["op"] == "start":
            results.append(start_answer(pref, step["nowMs"], ttl, step["websocket"], step["http"]))
        else:
            raise ValueError(f"unknown preference op {step['op']!r}")
    return {"results": results}


class DecodeError(Exception):
    def __init__(self, part):
        super().__init__(part)
        self.part = part


def decode_preference(text):
    """'' is nothing; else exactly 'v1 TRANSPORT UNIXMS REASON', single spaces,
    at most 64 bytes of UTF-8 (counted first), UNIXMS at most 2^53 - 1."""
    if text == "":
        return NOTHING
    if len(text.encode("utf-8", "surrogatepass")) > 64:
        raise DecodeError("Preference")
    parts = text.split(" ")
    if len(parts) != 4 or parts[0] != "v1":
        raise DecodeError("Preference")
    transport, at, reason = parts[1:]
    if transport not in ("websocket", "http"):
        raise DecodeError("Preference.Transport")
    if not (at.isascii() and at.isdigit()) or int(at) > 2**53 - 1:
        raise DecodeError("Preference.At")
    if reason not in REASONS:
        raise DecodeError("Preference.Reason")
    return remembered(transport, int(at), reason)


def encode_preference(pref):
    if pref["transport"] == "none":
        return ""
    return f"v1 {pref['transport']} {pref['atMs']} {pref['reason']}"


def preference_decode(inp):
    try:
        pref = decode_preference(inp["text"])
    except DecodeError as e:
        return {"errorField": e.part}
    return {"preference": pref, "encoded": encode_preference(pref)}


# ---------------------------------------------------------------------------
# Scenarios (fixtures/scenarios.json): the engine, in engine.py
# ---------------------------------------------------------------------------

def scenario(inp):
    sys.dont_write_bytecode = True  # no __pycache__ left in the repository
    import engine  # engine.py imports this module for the functions above
    return engine.run_scenario(inp)


# ---------------------------------------------------------------------------
# The conformance protocol, version 1
# ---------------------------------------------------------------------------

FUNCTIONS = {
    ("rtb1", "backoffCoefficient"): rtb1_backoff,
    ("rtb1", "jitterCoefficient"): rtb1_jitter,
    ("rtb1", "retryDelay"): rtb1_delay,
    ("rtb1", "retryBounds"): rtb1_bounds,
    ("transport", "decidePending"): transport_pending,
    ("transport", "chooseTransport"): transport_choose,
    ("transport", "httpOnWebSocketFailure"): transport_http_start,
    ("transport", "httpOnShortCircuit"): transport_http_start,
    ("transport", "upgradeAfterActivation"): transport_upgrade,
    ("hosts", "resolveHosts"): hosts_resolve,
    ("hosts", "shouldFallback"): hosts_should_fallback,
    ("hosts", "connectivityUp"): hosts_connectivity,
    ("hosts", "hostOrder"): hosts_order,
    ("hosts", "preferredHost"): hosts_preferred,
    ("preference", "preference"): preference_steps,
    ("preference", "preferenceDecode"): preference_decode,
    ("scenarios", "scenario"): scenario,
    **{("retry", f + "Delay"): retry_delay(f) for f in ("fullJitter", "equalJitter", "grpc", "decorrelated")},
    **{("retry", f + "Bounds"): retry_bounds(f) for f in ("fullJitter", "equalJitter", "grpc", "decorrelated")},
}


class ProtocolError(Exception):
    pass


def reject_constant(token):
    raise ProtocolError(f"bare {token} is not JSON")


def parse(line):
    try:
        value = json.loads(line, parse_constant=reject_constant)
    except ValueError as e:
        raise ProtocolError(f"not JSON: {e}") from None
    if not isinstance(value, dict):
        raise ProtocolError("not a JSON object")
    return value


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n")
    sys.stdout.flush()


def hello(msg):
    if msg.get("type") != "hello":
        raise ProtocolError("the first line is not a hello")
    if msg.get("protocol") != PROTOCOL:
        raise ProtocolError(f"protocol {msg.get('protocol')!r} is not {PROTOCOL}")
    offered = msg.get("areas")
    if not isinstance(offered, list):
        raise ProtocolError("the hello lists no areas")
    # Naming an area the harness does not know is a protocol error, so only
    # the offered ones are declared; --require reports any that is missing.
    implements = [a for a in AREAS if a in offered]
    for area in AREAS:
        if area not in offered:
            print(f"adapter: the harness does not offer {area!r}", file=sys.stderr)
    if "all" not in msg.get("domains", ["all"]):
        raise ProtocolError("the harness does not offer the domain 'all'")
    send({"type": "hello", "protocol": PROTOCOL, "implements": implements, "name": NAME,
          "domain": "all"})


def answer(msg):
    case_id = msg.get("id")
    if not isinstance(case_id, str):
        raise ProtocolError("a case without a string id")
    fn = FUNCTIONS.get((msg.get("area"), msg.get("function")))
    inp = msg.get("input")
    if fn is None or not isinstance(inp, dict):
        return {"id": case_id, "error": {"message": f"no function {msg.get('area')}/{msg.get('function')}"}}
    try:
        return {"id": case_id, "result": fn(inp)}
    except FieldError as e:
        return {"id": case_id, "error": {"field": e.field, "message": str(e)}}
    except (KeyError, TypeError, ValueError) as e:
        return {"id": case_id, "error": {"message": f"bad input: {type(e).__name__}: {e}"}}


def trace(raw):
    """With RECONNECT_ADAPTER_TRACE=FILE, every line received is appended to FILE."""
    path = os.environ.get("RECONNECT_ADAPTER_TRACE")
    if path:
        with open(path, "ab") as f:
            f.write(raw if raw.endswith(b"\n") else raw + b"\n")


def main():
    stdin = sys.stdin.buffer
    first = stdin.readline()
    if not first:
        return 0
    try:
        trace(first)
        hello(parse(first.decode("utf-8")))
        for raw in iter(stdin.readline, b""):
            trace(raw)
            if raw.strip():
                send(answer(parse(raw.decode("utf-8"))))
    except (ProtocolError, UnicodeDecodeError) as e:
        print(f"adapter: protocol error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
