"""The connection engine in plain Python 3 (standard library only).

A sans-IO state machine written from docs/engine.md: `Engine.step(at_ms,
event)` takes one event (in the scenario grammar of fixtures/scenarios.json)
with the time it happened and returns the actions, in the action grammar, in
the order docs/engine.md gives ("The order of actions within one step").
The engine performs no IO, reads no clock and draws randomness only from the
draws it is given.

Block numbers in the comments are those of docs/engine.md, "The order of
actions within one step"; row IDs are its rows. The points the document left
open are in ENGINE-GUESSES.md.
"""

from fractions import Fraction

import adapter as ad

# The defaults of docs/engine.md, "Configuration and defaults" (the same as
# the `defaults` header of fixtures/scenarios.json).
DEFAULTS = {
    "connectionStateTtlMs": 120000,
    "disconnectedRetryTimeoutMs": 15000,
    "endpoint": "",
    "fallbackHosts": [f"main.{x}.fallback.ably-realtime.com" for x in "abcde"],
    "flapDrops": 4,
    "flapHoldMs": 600000,
    "flapWindowMs": 300000,
    "giveUpTimeoutMs": 10000,
    "http": True,
    "httpMaxRetryCount": 3,
    "httpRequestTimeoutMs": 10000,
    "immediateShare": 0,
    "policy": "websocket-first",
    "preference": "",
    "preferenceTtlMs": 86400000,
    "primaryHost": "main.realtime.ably.net",
    "realtimeRequestTimeoutMs": 10000,
    "reconnectWindowMs": 0,
    "rememberTransport": False,
    "retrySpread": 0,
    "shortCircuitMs": 2000,
    "slowTimeoutMs": 4000,
    "suspendedRetryTimeoutMs": 30000,
    "suspendedSpread": 0,
    "webSocket": True,
    "canRenewToken": False,
    # The jobs of realtimeRequestTimeout (0 means it) and the client-side
    # idle limit (0 means none).
    "connectTimeoutMs": 0,
    "idleSlackMs": 0,
    "closingTimeoutMs": 0,
    "renewalTimeoutMs": 0,
    "idleLimitMs": 0,
    "retryFamily": "rtb1",
    "retryBaseMs": 0,
    "retryCapMs": 0,
    "retryMultiplier": 0,
    "retryJitter": 0,
    "immediateReconnect": "on",
    "immediateReconnectIntervalMs": 0,
    "adaptiveMultiple": 0,
    "adaptiveFloorMs": 0,
    "firstRetryMs": 0,
}
# The retry families' names in the scenarios' config, and in retry.json.
RETRY_FAMILIES = {"full-jitter": "fullJitter", "equal-jitter": "equalJitter", "grpc": "grpc",
                  "decorrelated-jitter": "decorrelated"}
EPOCH_UNIX_MS = 1767225600000  # atMs 0: 2026-01-01T00:00:00Z

WF, HF, WC = "websocket-first", "http-first", "websocket-check"
MS = 10**6  # nanoseconds per millisecond

ATTEMPT_TIMERS = ("short-circuit", "connectivity-check", "websocket-slow",
                  "websocket-give-up", "attempt", "slow-check", "renew-token")
ALL_TIMERS = ("short-circuit", "retry", "state-ttl", "connectivity-check", "close",
              "websocket-slow", "websocket-give-up", "flap-hold", "attempt", "slow-check",
              "idle", "renew-token")


def fmt_ms(ns):
    """Whole nanoseconds as milliseconds with up to six decimals."""
    q, r = divmod(ns, MS)
    if r == 0:
        return str(q)
    return f"{q}.{r:06d}".rstrip("0")


def ms_ns(value):
    """A millisecond setting as whole nanoseconds."""
    return ad.round_half_away(Fraction(value) * MS)


class Failure:
    """A failure `<kind>[:<status>[:<server>]]`."""

    KINDS = ("dns", "unreachable", "refused", "timeout", "http-status", "disconnected",
             "token", "other")

    def __init__(self, text):
        parts = text.split(":", 2)
        if parts[0] not in self.KINDS:
            raise ValueError(f"unknown failure kind {parts[0]!r}")
        self.kind = parts[0]
        self.status = int(parts[1]) if len(parts) > 1 and parts[1] != "" else 0
        self.server = parts[2] if len(parts) > 2 else ""

    def qualifies(self):
        return ad.should_fallback(self.kind, self.status, self.server)

    def is_disconnected_5xx(self):
        return self.kind == "disconnected" and 500 <= self.status <= 504

    def __str__(self):
        # The status only for http-status and disconnected, the server only
        # for http-status (the scenarios' grammar, "error").
        if self.kind == "http-status":
            s = f"{self.kind}:{self.status}"
            return s + (f":{self.server}" if self.server else "")
        if self.kind == "disconnected":
            return f"{self.kind}:{self.status}"
        return self.kind


TIMEOUT = Failure("timeout")
UNREACHABLE = Failure("unreachable")


class Transport:
    def __init__(self, tid, kind, mode, host_index, host, role):
        self.id = tid
        self.kind = kind
        self.mode = mode
        self.host_index = host_index
        self.host = host
        self.role = role          # short-circuit, flow, upgrade
        self.status = "opening"   # opening, pending, active
        self.connect_timer = True


class Attempt:
    """What one attempt keeps (docs/engine.md, What an engine keeps)."""

    def __init__(self):
        self.last_failure = None
        self.flow_kind = None
        self.flow_started = False
        self.flow_index = 0
        self.first_index = 0
        self.displaced_index = None
        self.check = None          # (id, purpose): purpose fallback or redirect
        self.slow_check = None     # id of the slow connectivity check
        self.ws_check = "none"     # none, pending, passed, failed
        self.ws_check_id = None
        self.order = None          # the host order, once drawn
        self.started_on = None     # the transport the preference made it start on
        self.renewal = None        # the token renewal in flight
        self.renewed = False       # the attempt followed a renewal
        self.sc_start = 0          # when the short-circuit websocket opened (ns)
        self.dialed = False        # it reported its dial already


class Engine:
    def __init__(self, config, draws):
        c = dict(DEFAULTS)
        c.update(config)
        self.c = c
        self.policy = c["policy"]
        self.ws = bool(c["webSocket"])
        self.http = bool(c["http"])
        if c["endpoint"]:
            primary, fallbacks = ad.resolve_hosts(c["endpoint"], "", "fallbackHosts" in config,
                                                  config.get("fallbackHosts"))
        elif "fallbackHosts" in config:
            # REC2a2 under the default endpoint: the option's hosts,
            # validated and lowered as resolveHosts does.
            primary, fallbacks = c["primaryHost"], ad.explicit_fallbacks(config["fallbackHosts"])
        else:
            primary, fallbacks = c["primaryHost"], list(c["fallbackHosts"])
        self.primary = primary
        self.fallbacks = fallbacks
        # RTN17j: every fallback host; websocket-check keeps ably-js's cap.
        self.n_fallbacks = len(fallbacks)
        if c["policy"] == WC:
            self.n_fallbacks = min(max(int(c["httpMaxRetryCount"]), 0), len(fallbacks))
        self.max_hosts = 1 + self.n_fallbacks
        self.draws = list(draws)

        self.rrt = ms_ns(c["realtimeRequestTimeoutMs"])
        # Each job of realtimeRequestTimeout: its own value above 0, else it.
        job = lambda k: ms_ns(c[k]) if c[k] > 0 else self.rrt
        self.connect_timeout = job("connectTimeoutMs")
        self.idle_slack = job("idleSlackMs")
        self.closing_timeout = job("closingTimeoutMs")
        self.renewal_timeout = job("renewalTimeoutMs")
        self.idle_limit = ms_ns(c["idleLimitMs"]) if c["idleLimitMs"] > 0 else 0
        self.hrt = ms_ns(c["httpRequestTimeoutMs"])
        self.slow = ms_ns(c["slowTimeoutMs"])
        self.give_up = ms_ns(c["giveUpTimeoutMs"])
        self.short_circuit = ms_ns(c["shortCircuitMs"]) if c["shortCircuitMs"] > 0 else 2000 * MS
        self.ttl = ms_ns(c["connectionStateTtlMs"])

        self.state = "initialized"
        self.now = 0
        self.next_tid = 1
        self.next_check = 1
        self.slots = [None] * 4    # the four transport slots
        self.transports = []       # the live transports, lowest slot first
        self.timers = {}           # kind → due (ns), except connect timers
        self.n = 0
        self.error = None          # the failure of the current state
        self.ever_connected = False
        self.ttl_passed = False
        self.last_immediate = None
        self.early = None  # the first-retry rule: [from, count] from an immediate reconnect
        self.window_due = False
        self.flap_drops = []
        self.hold_end = None
        self.pref = ad.decode_preference(c["preference"]) if c["preference"] else ad.NOTHING
        self.bg_check = None       # the background websocket check of a remembered HTTP
        self.redirect = False
        # What the server said (docs/engine.md: The server speaks, Liveness,
        # Token errors).
        self.server_ttl = 0        # the connection's connectionStateTtl from the server (ns; 0: the configured one)
        self.max_idle = 0          # the active transport's maxIdleInterval (ns; 0: no idle timer)
        self.last_activity = 0
        self.renew_first = False   # the next attempt starts with a token renewal
        self.att = Attempt()
        self.out = []

    # -- building blocks -----------------------------------------------------

    def emit(self, action):
        self.out.append(action)

    def draw(self):
        if self.draws:
            return self.draws.pop(0)
        raise ValueError("the engine needs more draws than the scenario pins")

    def wall_ms(self):
        return EPOCH_UNIX_MS + self.now // MS

    def start_timer(self, kind, duration_ns, due=None):
        """Block 1: a running timer of that kind is cancelled first."""
        if kind in self.timers:
            self.emit(f"cancel {kind}")
        at = self.now + duration_ns if due is None else due
        self.timers[kind] = at
        self.emit(f"timer {kind} at={fmt_ms(at)}")

    def cancel_timer(self, kind):
        if kind in self.timers:
            del self.timers[kind]
            self.emit(f"cancel {kind}")

    def cancel_attempt_timers(self):
        """Block 4."""
        for kind in ATTEMPT_TIMERS:
            self.cancel_timer(kind)

    def mode(self):
        return "resume" if self.ever_connected else "clean"

    def host(self, index):
        if index == 0:
            return self.primary
        return self.att.order[index]

    def open(self, kind, host_index, role, mode=None, host=None):
        """Block 2."""
        t = Transport(self.next_tid, kind, mode or self.mode(), host_index,
                      host or self.host(host_index), role)
        self.next_tid += 1
        self.slots[self.slots.index(None)] = t  # the lowest free slot
        self.transports = [x for x in self.slots if x is not None]
        self.emit(f"open T{t.id} {t.kind} {t.host} {t.mode}")
        self.emit(f"timer connect T{t.id} at={fmt_ms(self.now + self.connect_timeout)}")
        return t

    def open_flow(self, kind, host_index):
        self.att.flow_kind = kind
        self.att.flow_started = True
        self.att.flow_index = host_index
        return self.open(kind, host_index, "flow")

    def dispose(self, t):
        """Block 3."""
        if t.connect_timer:
            t.connect_timer = False
            self.emit(f"cancel connect T{t.id}")
        self.emit(f"dispose T{t.id}")
        if t.status == "active":
            self.cancel_timer("idle")
        self.slots[self.slots.index(t)] = None
        self.transports = [x for x in self.slots if x is not None]

    def dispose_all(self, keep=None):
        for t in list(self.transports):
            if t is not keep:
                self.dispose(t)

    def stop_everything(self):
        """Block 5."""
        self.dispose_all()
        for kind in ALL_TIMERS:
            self.cancel_timer(kind)
        self.att = Attempt()

    def set_state(self, to, reason, retry_in=None, error=None):
        s = f"state {self.state} {to} {reason}"
        if retry_in is not None:
            s += f" retryIn={fmt_ms(retry_in)}"
        if error is not None:
            s += f" error={error}"
        self.emit(s)
        self.state = to
        self.error = error

    def find(self, tid):
        for t in self.transports:
            if t.id == tid:
                return t
        return None

    def pending(self):
        for t in self.transports:
            if t.status == "pending":
                return t
        return None

    def active(self):
        for t in self.transports:
            if t.status == "active":
                return t
        return None

    def kind_of(self, t):
        return t.kind if t is not None else "none"

    # -- the preference and the flapping guard --------------------------------

    def pref_in_force(self, transport):
        p = self.pref
        if p["transport"] != transport:
            return False
        return self.wall_ms() < p["atMs"] + self.c["preferenceTtlMs"]

    def uses_preference(self):
        return self.policy == WC or self.c["rememberTransport"]

    def forget_pref(self):
        self.pref = ad.NOTHING

    def hold_in_force(self):
        return (self.policy != WC and self.ws and self.http and self.hold_end is not None
                and self.now < self.hold_end)

    # -- retries ---------------------------------------------------------------

    def retry_in_disconnected(self):
        """RTB1 (or the retry spread): one draw, retry number n incremented."""
        self.n += 1
        u = ad.clamp_draw(self.draw())
        family = RETRY_FAMILIES.get(self.c["retryFamily"])
        if family:
            # The configured retry family (adapter.retry_family_ns);
            # decorrelated jitter reads the last such delay.
            prev = getattr(self, "last_retry_ns", 0)
            inp = {"baseMs": self.c["retryBaseMs"], "capMs": self.c["retryCapMs"],
                   "multiplier": self.c["retryMultiplier"], "jitter": self.c["retryJitter"],
                   "attempt": self.n, "previousMs": Fraction(prev, MS)}
            self.last_retry_ns = ad.retry_family_ns(family, inp, u)
            return self.last_retry_ns
        initial = ms_ns(self.c["disconnectedRetryTimeoutMs"])
        s = self.c["retrySpread"]
        jitter = 1.0 - (0.2 if not s else float(s)) * u
        x = float(initial) * ad.backoff_coefficient(self.n) * jitter
        return ad.round_half_away(x)

    def early_retry(self):
        """The first-retry rule (firstRetryMs P > 0): within
        disconnectedRetryTimeout of the immediate reconnect, the first retry
        waits P × u (one draw, clamped, rounded), each later one P (no
        draw), no retry number taken; None when it does not apply (and past
        disconnectedRetryTimeout it ends)."""
        if self.early is None:
            return None
        if self.now - self.early[0] >= ms_ns(self.c["disconnectedRetryTimeoutMs"]):
            self.early = None
            return None
        self.early[1] += 1
        if self.early[1] > 1:
            return ms_ns(self.c["firstRetryMs"])
        u = ad.clamp_draw(self.draw())
        return ad.round_half_away(float(ms_ns(self.c["firstRetryMs"])) * u)

    def retry_in_suspended(self):
        self.n = 0
        self.early = None
        base = ms_ns(self.c["suspendedRetryTimeoutMs"])
        s = self.c["suspendedSpread"]
        if not s:
            return base
        u = ad.clamp_draw(self.draw())
        return ad.round_half_away(float(base) * (1.0 - float(s) * u))

    def end_attempt(self, reason, error, forget_on_fail=False):
        """Block 7: DISCONNECTED (or SUSPENDED) with a retry."""
        self.dispose_all()
        self.cancel_attempt_timers()
        self.bg_check = None
        if forget_on_fail and self.att.started_on is not None \
                and self.pref["transport"] == self.att.started_on:
            self.forget_pref()
        self.att = Attempt()
        if self.ttl_passed:
            wait = self.retry_in_suspended()
            # RTN14e: SUSPENDED always carries a reason, a timeout when none failed
            self.set_state("suspended", reason, wait, error if error is not None else TIMEOUT)
        else:
            wait = self.early_retry()
            if wait is None:
                wait = self.retry_in_disconnected()
            self.set_state("disconnected", reason, wait, error)
        self.start_timer("retry", wait)

    # -- starting an attempt ---------------------------------------------------

    def ask_check(self, purpose):
        cid = self.next_check
        self.next_check += 1
        self.emit(f"check C{cid}")
        self.start_timer("connectivity-check", self.hrt)
        self.att.check = (cid, purpose)

    def ask_ws_check(self):
        cid = self.next_check
        self.next_check += 1
        self.emit(f"check-websocket C{cid}")
        return cid

    def start_ws_walk(self, host_index):
        self.start_timer("websocket-slow", self.slow)
        self.start_timer("websocket-give-up", self.give_up)
        self.open_flow("websocket", host_index)

    def start_attempt(self, reason, change=True):
        """Block 6 and the START rows."""
        if self.renew_first:
            self.renew_before_attempt(reason, change)
            return
        redirect = self.redirect and self.max_hosts > 1
        self.redirect = False
        self.window_due = False
        self.att = Attempt()
        self.bg_check = None
        if change:
            self.set_state("connecting", reason)
        if self.policy == WC:
            self.start_timer("attempt", self.give_up + self.connect_timeout)
        if self.policy == WC and self.ws:
            if redirect:
                self.start_timer("websocket-slow", self.slow)
                self.start_timer("websocket-give-up", self.give_up)
                # The RTN17f1 check is the websocket walk's first fallback
                # check: a failed websocket check ends it with nothing.
                self.att.flow_kind = "websocket"
                self.ask_check("redirect")
            elif self.http and self.pref_in_force("http"):
                self.att.started_on = "http"
                self.bg_check = self.ask_ws_check()
                self.open_flow("http", 0)
            else:
                if self.pref_in_force("websocket"):
                    self.att.started_on = "websocket"
                self.start_ws_walk(0)
        elif redirect:
            self.ask_check("redirect")
        else:
            self.first_transports(0)

    def first_transports(self, host_index):
        """The policy's own first transports on the attempt's first host."""
        self.att.first_index = host_index
        self.att.flow_index = host_index
        if self.policy == WC:
            if self.ws:
                # after an RTN17f1 check: the slow and give-up timers run already
                self.open_flow("websocket", host_index)
            else:
                self.open_flow("http", host_index)
            return
        if self.hold_in_force():
            self.open_flow("http", host_index)
            return
        if self.c["rememberTransport"] and self.http and self.pref_in_force("http"):
            self.att.started_on = "http"
            if self.ws:
                self.bg_check = self.ask_ws_check()
            self.open_flow("http", host_index)
            return
        if self.c["rememberTransport"] and self.pref_in_force("websocket"):
            self.att.started_on = "websocket"
        if self.policy == WF:
            if self.ws and self.http:
                self.att.flow_kind = "http"
                self.open("websocket", host_index, "short-circuit")
                self.start_timer("short-circuit", self.short_circuit)
                self.att.sc_start = self.now
            elif self.ws:
                self.open_flow("websocket", host_index)
            elif self.http:
                self.open_flow("http", host_index)
        else:  # HTTP-first
            if self.http:
                self.open_flow("http", host_index)
            elif self.ws:
                self.open_flow("websocket", host_index)

    def draw_order(self):
        if self.att.order is None:
            draws = [self.draw() for _ in range(self.n_fallbacks)]
            self.att.order = ad.host_order(self.primary, self.fallbacks, self.n_fallbacks, draws)

    # -- the step ----------------------------------------------------------------

    def step(self, at_ms, event):
        self.out = []
        self.now = max(self.now, ms_ns(at_ms))
        words = event.split()
        name = words[0]
        handler = getattr(self, "on_" + name.replace("-", "_"), None)
        if handler is not None:
            handler(words[1:])
        return self.out

    @staticmethod
    def tid(word):
        if not word.startswith("T"):
            return None
        try:
            return int(word[1:])
        except ValueError:
            return None

    @staticmethod
    def cid(word):
        if not word.startswith("C"):
            return None
        try:
            return int(word[1:])
        except ValueError:
            return None

    # the adaptive short circuit (block 19)

    def on_dialed(self, words):
        """Under websocket-first with adaptiveMultiple k > 0, the first report
        of the attempt's first websocket, still opening, while the
        short-circuit timer runs, moves that timer to its open +
        clamp(k x rtt, floor, shortCircuit) when earlier, never before now."""
        k = self.c["adaptiveMultiple"]
        if self.policy != WF or not k > 0 or self.state != "connecting" or len(words) < 2:
            return
        t = self.find(self.tid(words[0]))
        if t is None or t.role != "short-circuit" or t.status != "opening" \
                or "short-circuit" not in self.timers or self.att.dialed:
            return
        self.att.dialed = True
        try:
            rtt_ms = max(0.0, float(words[1].removeprefix("rtt=")))
        except ValueError:
            rtt_ms = 0.0
        # k x rtt in double precision on the rtt's whole nanoseconds, rounded
        # to the nearest nanosecond, halves away from zero.
        head_ns = ad.round_half_away(k * ms_ns(rtt_ms))
        head = min(max(min(head_ns, self.short_circuit), ms_ns(self.c["adaptiveFloorMs"])), self.short_circuit)
        due = self.att.sc_start + head
        if due >= self.timers["short-circuit"]:
            return
        due = max(due, self.now)
        self.start_timer("short-circuit", 0, due=due)

    # connect, close, fatal

    def on_connect(self, _):
        if self.state in ("initialized", "closed", "failed", "closing"):
            if self.state == "closing":
                self.stop_everything()  # RTN11b: a new connection
            self.n = 0
            self.early = None
            self.error = None
            self.ever_connected = False
            self.ttl_passed = False
            self.redirect = False
            self.start_attempt("connect-requested")
            self.start_timer("state-ttl", self.ttl)
        elif self.state in ("disconnected", "suspended"):
            self.cancel_timer("retry")
            self.start_attempt("connect-requested")

    def on_close(self, _):
        if self.state == "connected":
            self.dispose_all(keep=self.active())
            self.cancel_attempt_timers()
            self.cancel_timer("flap-hold")
            self.att = Attempt()
            self.set_state("closing", "close-requested")
            self.start_timer("close", self.closing_timeout)
        elif self.state == "connecting":
            self.close_while_connecting()
        elif self.state in ("initialized", "disconnected", "suspended"):
            self.stop_everything()
            self.set_state("closed", "close-requested")

    def on_fatal(self, words):
        if self.state in ("closed", "failed"):
            return
        if not words:
            raise ValueError('bad event "fatal": it names no failure')
        failure = Failure(words[0])
        self.stop_everything()
        self.set_state("failed", "fatal", error=failure)

    # transports

    def on_viable(self, words):
        t = self.find(self.tid(words[0])) if words else None
        if t is None or t.status != "opening":
            return
        self.viable(t)

    def viable(self, t):
        """Block 9; returns whether the transport stays."""
        if self.policy == WC:
            if t.connect_timer:
                t.connect_timer = False
                self.emit(f"cancel connect T{t.id}")
            self.cancel_timer("websocket-slow")
            self.cancel_timer("websocket-give-up")
        pending, active = self.pending(), self.active()
        decision, rule = ad.decide_pending(t.kind, t.mode, self.kind_of(pending), self.kind_of(active))
        if decision == "discard-candidate":
            if rule == 1 and t.role == "flow" and self.state == "connecting":
                self.att.displaced_index = t.host_index
            self.lost(t, None, discarded=True)
            return False
        if decision == "replace-pending":
            if pending.role == "flow":
                self.att.displaced_index = pending.host_index
            self.dispose(pending)
        t.status = "pending"
        return True

    def on_connected(self, words):
        t = self.find(self.tid(words[0])) if words else None
        if t is None or t.status == "active":
            return
        if self.state not in ("connecting", "connected", "closing"):
            return
        if t.status == "opening":
            if not self.viable(t):
                return
        if t.status != "pending":
            return
        self.activate(t, details_of(words[1:]))

    def activate(self, t, details=None):
        """Block 8."""
        if self.state == "closing":
            self.activate_while_closing(t)
            return
        if t.connect_timer:
            t.connect_timer = False
            self.emit(f"cancel connect T{t.id}")
        old = self.active()
        if old is not None:
            self.dispose(old)
        t.status = "active"
        self.emit(f"activate T{t.id}")
        self.cancel_attempt_timers()
        if t.kind == "websocket":
            self.dispose_all(keep=t)
        else:
            # WH-CONNECTING-opening-ws-at-http-activation-1: rule 3 applied
            # at activation: a websocket not in upgrade mode still opening.
            for o in list(self.transports):
                if o.kind == "websocket" and o.mode != "upgrade" and o.status == "opening":
                    self.dispose(o)
        if self.uses_preference() and not self.hold_in_force():
            self.pref = ad.remembered(t.kind, self.wall_ms(), "connected")
        first = self.state != "connected"
        if first:
            self.cancel_timer("state-ttl")
            self.cancel_timer("retry")
            self.n = 0
            self.early = None
            self.ttl_passed = False
            self.att = Attempt()
        self.announce_active(details or Details())
        if first:
            if self.policy != WC and t.kind == "http" and self.ws:
                if self.hold_in_force():
                    if "flap-hold" not in self.timers:
                        self.start_timer("flap-hold", 0, due=self.hold_end)
                else:
                    self.open("websocket", t.host_index, "upgrade", mode="upgrade", host=t.host)

    def on_failed(self, words):
        t = self.find(self.tid(words[0])) if words else None
        if t is None:
            return
        failure = Failure(words[1]) if len(words) > 1 else None
        self.gone(t, failure)

    def on_closed(self, words):
        t = self.find(self.tid(words[0])) if words else None
        if t is None:
            return
        failure = Failure(words[1]) if len(words) > 1 else None
        self.gone(t, failure)

    def gone(self, t, failure):
        if self.takes_token_error(t, failure):
            self.token_error(t, failure)
            return
        if t.status == "active":
            self.drop(t, failure)
        else:
            self.lost(t, failure)

    def drop(self, t, failure):
        """Block 10: the active transport drops."""
        if self.state == "connected" and t.kind == "websocket":
            self.count_flap()
        self.bg_check = None
        self.dispose_all()
        self.cancel_attempt_timers()
        if self.state == "closing":
            self.cancel_timer("close")
            self.set_state("closed", "closed")
            return
        if failure is not None and failure.is_disconnected_5xx() and self.max_hosts > 1:
            self.redirect = True
            self.forget_pref()
        self.reconnect(failure)
        self.start_timer("state-ttl", self.state_ttl())

    def reconnect(self, failure, reason="dropped"):
        """Block 10's reconnect part (reason network-down for RTN20a)."""
        mode = self.c["immediateReconnect"]
        gap = ms_ns(self.c["immediateReconnectIntervalMs"]) if mode == "limited" else 1000 * MS
        if mode == "off" or (self.last_immediate is not None and self.now - self.last_immediate < gap):
            self.end_attempt(reason, failure)
            return
        self.early = ([self.now, 0] if self.c["firstRetryMs"] > 0
                      and RETRY_FAMILIES.get(self.c["retryFamily"]) is None else None)  # RTB1's only
        w = self.c["reconnectWindowMs"]
        if w > 0:
            u = ad.clamp_draw(self.draw())
            s = float(self.c["immediateShare"])
            self.last_immediate = self.now
            if u > s:  # u == s reconnects at once too (ENGINE-GUESSES.md)
                wait = ad.round_half_away(float(ms_ns(w)) * (u - s) / (1.0 - s))
                self.att = Attempt()
                self.set_state("disconnected", reason, wait, failure)
                self.start_timer("retry", wait)
                self.window_due = True
                return
        self.last_immediate = self.now
        self.set_state("disconnected", reason, 0, failure)
        self.start_attempt("reconnect")

    def count_flap(self):
        if self.policy == WC or not (self.ws and self.http):
            return
        k = int(self.c["flapDrops"])
        self.flap_drops.append(self.now)
        self.flap_drops = self.flap_drops[-k:]
        if len(self.flap_drops) >= k and \
                self.flap_drops[-1] - self.flap_drops[0] <= ms_ns(self.c["flapWindowMs"]):
            self.hold_end = self.now + ms_ns(self.c["flapHoldMs"])
            self.flap_drops = []
            self.pref = ad.remembered("http", self.wall_ms(), "websocket-unstable")

    def nothing_in_flight(self):
        return not self.transports and self.att.check is None \
            and "short-circuit" not in self.timers

    def lost(self, t, failure, discarded=False):
        """Block 11: a transport lost that is not active."""
        was_pending = t.status == "pending"
        self.dispose(t)
        if self.state == "closing":
            self.close_if_nothing_left()  # RTN12f
            return
        if self.state != "connecting":
            return
        att = self.att
        if failure is not None:
            att.last_failure = failure
        if self.policy == WC and was_pending and not discarded:
            self.dispose_all()
            if failure is not None and failure.is_disconnected_5xx() and self.max_hosts > 1:
                self.redirect = True
                self.forget_pref()
                self.cancel_attempt_timers()
                self.reconnect(failure)  # WC-CONNECTING-lost-pending-503-4: no state-ttl
            else:
                self.end_attempt("connect-failed", att.last_failure, forget_on_fail=True)
            return
        if self.policy == WC and t.role == "flow" and t.kind == "websocket" and att.ws_check == "failed":
            return
        pending, active = self.pending(), self.active()
        if t.role == "short-circuit" and pending is None and active is None and self.http \
                and (not att.flow_started or att.displaced_index is not None):
            self.reopen_http()
            return
        if t.role == "flow" and failure is not None and failure.qualifies() \
                and att.flow_index + 1 < self.max_hosts:
            self.ask_check("fallback")
            return
        self.may_end()

    def reopen_http(self):
        att = self.att
        if att.displaced_index is not None:
            index = att.displaced_index
            att.displaced_index = None
        else:
            index = att.first_index
        self.cancel_timer("short-circuit")
        self.open_flow("http", index)

    def may_end(self):
        """The attempt ends when nothing is in flight."""
        att = self.att
        if not self.nothing_in_flight():
            return
        if self.policy == WC and att.flow_kind == "websocket" and self.http:
            if att.ws_check == "pending":
                return
            if att.ws_check == "none":
                att.ws_check_id = self.ask_ws_check()
                att.ws_check = "pending"
                return
            if att.ws_check == "failed":
                return
        self.end_attempt("connect-failed", att.last_failure, forget_on_fail=True)

    # timers

    def on_timer(self, words):
        if not words:
            return
        kind = words[0]
        if kind == "connect":
            t = self.find(self.tid(words[1])) if len(words) > 1 else None
            if t is None or not t.connect_timer:
                return
            t.connect_timer = False
            self.gone(t, TIMEOUT)
            return
        if kind not in self.timers:
            return
        del self.timers[kind]
        getattr(self, "timer_" + kind.replace("-", "_"))()

    def timer_short_circuit(self):
        att = self.att
        if self.state != "connecting":
            return
        if self.http and not att.flow_started and self.pending() is None and self.active() is None:
            self.open_flow("http", att.first_index)
            return
        self.may_end()

    def timer_retry(self):
        if self.state not in ("disconnected", "suspended"):
            return
        self.start_attempt("reconnect" if self.window_due else "retry")

    def timer_state_ttl(self):
        if self.state == "disconnected":
            self.cancel_timer("retry")
            self.window_due = False  # the reconnect window's retry timer is gone
            self.ttl_passed = True
            error = self.error if self.error is not None else TIMEOUT  # RTN14e: always a reason
            wait = self.retry_in_suspended()
            self.set_state("suspended", "state-ttl", wait, error)
            self.start_timer("retry", wait)
        elif self.state == "connecting":
            # RTN14e: the attempt's last transport failure, or a timeout
            error = self.att.last_failure if self.att.last_failure is not None else TIMEOUT
            self.dispose_all()
            self.cancel_attempt_timers()
            self.att = Attempt()
            self.bg_check = None
            self.ttl_passed = True
            wait = self.retry_in_suspended()
            self.set_state("suspended", "state-ttl", wait, error)
            self.start_timer("retry", wait)

    def walk_stopped(self):
        """Websocket-check after a failed websocket check: the websocket walk
        tries no other host and no fallback check is acted on."""
        att = self.att
        return (self.policy == WC and att.flow_kind == "websocket" and att.ws_check == "failed"
                and att.check is not None)

    def timer_connectivity_check(self):
        if self.state != "connecting" or self.att.check is None:
            return
        if self.walk_stopped():
            self.att.check = None
            return
        self.att.check = None
        self.end_attempt("connectivity-down", self.att.last_failure)

    def timer_close(self):
        if self.state != "closing":
            return
        self.dispose_all()
        self.set_state("closed", "closed")

    def timer_websocket_slow(self):
        att = self.att
        if self.state != "connecting":
            return
        if att.ws_check == "none":
            att.ws_check_id = self.ask_ws_check()
            att.ws_check = "pending"
        cid = self.next_check
        self.next_check += 1
        self.emit(f"check C{cid}")
        att.slow_check = cid
        self.start_timer("slow-check", self.hrt)

    def timer_websocket_give_up(self):
        att = self.att
        if self.state != "connecting":
            return
        if att.ws_check == "passed" or not self.http:
            return
        self.dispose_all()
        self.cancel_timer("websocket-slow")
        if att.check is not None:
            att.check = None
            self.cancel_timer("connectivity-check")
        att.first_index = 0
        self.open_flow("http", 0)

    def timer_attempt(self):
        if self.state != "connecting":
            return
        self.end_attempt("connect-failed", self.att.last_failure, forget_on_fail=True)

    def timer_slow_check(self):
        if self.state != "connecting":
            return
        self.att.slow_check = None
        self.end_attempt("connectivity-down", self.att.last_failure)

    def timer_flap_hold(self):
        if self.state != "connected":
            return
        a = self.active()
        if a is None or a.kind != "http":
            return
        if any(t.role == "upgrade" for t in self.transports):
            return
        self.open("websocket", a.host_index, "upgrade", mode="upgrade", host=a.host)

    # checks

    def on_connectivity(self, words):
        if len(words) < 2:
            return
        cid, up = self.cid(words[0]), words[1] == "up"
        att = self.att
        if cid is None or cid == 0:
            return
        if att.slow_check == cid and self.state in ("connecting", "connected"):
            att.slow_check = None
            self.cancel_timer("slow-check")
            if not up and self.state == "connecting":
                self.end_attempt("connectivity-down", att.last_failure)
            return
        if self.state != "connecting" or att.check is None or att.check[0] != cid:
            return
        purpose = att.check[1]
        stopped = self.walk_stopped()
        att.check = None
        self.cancel_timer("connectivity-check")
        if stopped:
            return  # the give-up timer decides
        if not up:
            self.end_attempt("connectivity-down", att.last_failure)
            return
        self.draw_order()
        if purpose == "redirect":
            self.first_transports(1)
        else:
            self.open_flow(att.flow_kind, att.flow_index + 1)

    def on_websocket_check(self, words):
        if len(words) < 2:
            return
        cid, up = self.cid(words[0]), words[1] == "up"
        if cid is None or cid == 0:
            return
        att = self.att
        if self.bg_check == cid:
            self.bg_check = None
            if not up:
                return
            if self.pref["transport"] == "http":
                self.forget_pref()
            if self.state != "connecting":
                return
            flow = [t for t in self.transports if t.role == "flow"]
            if self.policy == WC:
                if att.flow_kind == "http":
                    self.dispose_all()
                    if att.check is not None:
                        att.check = None
                        self.cancel_timer("connectivity-check")
                    att.flow_started = False
                    att.first_index = 0
                    att.order = None  # the websocket walk draws its own host order
                    self.start_ws_walk(0)
                return
            if self.ws and self.pending() is None and self.active() is None:
                index = flow[0].host_index if flow else att.flow_index
                self.open("websocket", index, "short-circuit")
            return
        if self.state != "connecting" or att.ws_check != "pending" or att.ws_check_id != cid:
            return
        att.ws_check = "passed" if up else "failed"
        walk_over = att.flow_kind == "websocket" and not self.transports and att.check is None
        if not walk_over:
            return
        if up:
            self.end_attempt("connect-failed", att.last_failure, forget_on_fail=True)
        elif self.http:
            self.cancel_timer("websocket-slow")
            self.cancel_timer("websocket-give-up")
            att.first_index = 0
            self.open_flow("http", 0)

    # network

    def on_network_up(self, _):
        if self.state in ("disconnected", "suspended"):
            self.cancel_timer("retry")
            self.start_attempt("network-up")
        elif self.state == "connecting":
            self.dispose_all()
            self.cancel_attempt_timers()
            self.start_attempt("network-up", change=False)

    # Auth#authorize (RTC8), block 18: CONNECTING, every attempt halted and
    # a renewal asked with no state change (RTC8b); INITIALIZED,
    # DISCONNECTED, SUSPENDED, CLOSED, FAILED, a connect whose attempt starts
    # with the renewal (RTC8c); CONNECTED, CLOSING, nothing. canRenewToken
    # does not matter.

    def on_authorize(self, _):
        if self.state == "connecting":
            self.dispose_all()
            self.cancel_attempt_timers()
            self.renew_first = True
            self.start_attempt("reconnect", change=False)
        elif self.state in ("initialized", "disconnected", "suspended", "closed", "failed"):
            self.renew_first = True
            self.on_connect([])

    def on_network_down(self, _):
        """Block 12 (RTN20a): DISCONNECTED, then the RTN15 reconnect as after a
        drop; SUSPENDED in CONNECTING once connectionStateTtl has passed."""
        if self.state not in ("connected", "connecting"):
            return
        was_connected = self.state == "connected"
        self.dispose_all()
        self.cancel_attempt_timers()
        if not was_connected and self.ttl_passed:
            self.end_attempt("network-down", UNREACHABLE)
            return
        self.bg_check = None
        self.att = Attempt()
        self.reconnect(UNREACHABLE, "network-down")
        if was_connected:
            self.start_timer("state-ttl", self.state_ttl())


    # -- what the server says (docs/engine.md: The server speaks, Liveness,
    # Token errors) ----------------------------------------------------------

    def state_ttl(self):
        """The connection's connectionStateTtl: the server's, else the configured one."""
        return self.server_ttl if self.ever_connected and self.server_ttl > 0 else self.ttl

    def use_details(self, d):
        if d.ttl > 0:
            self.server_ttl = d.ttl
        self.max_idle = d.idle
        self.last_activity = self.now

    def announce_active(self, d):
        """Block 8's end: CONNECTED with the message's error, or the upgrade's
        update; then the idle timer."""
        if not self.ever_connected:
            self.server_ttl = 0  # a fresh connection
        self.use_details(d)
        if self.state != "connected":
            self.ever_connected = True
            self.set_state("connected", "connected", error=d.error)
        else:
            self.update("transport", d.error)
        self.arm_idle()

    def update(self, reason, error):
        self.emit(f"update {reason}" + (f" error={error}" if error is not None else ""))

    def current_idle_limit(self):
        """The server's maxIdleInterval plus idleSlack, else the client-side
        idleLimit (the server's value wins, RTN21); 0: none."""
        if self.max_idle > 0:
            return self.max_idle + self.idle_slack
        return self.idle_limit

    def arm_idle(self):
        limit = self.current_idle_limit()
        if limit > 0:
            self.start_timer("idle", limit)
        else:
            self.cancel_timer("idle")

    def on_details(self, words):
        """Block 13: a later CONNECTED on the active transport."""
        t = self.find(self.tid(words[0])) if words else None
        if self.state != "connected" or t is None or t.status != "active":
            return
        d = details_of(words[1:])
        self.use_details(d)
        self.update("details", d.error)
        self.arm_idle()

    def on_activity(self, words):
        t = self.find(self.tid(words[0])) if words else None
        if t is None or t.status != "active":
            return
        at = self.now
        for w in words[1:]:
            if w.startswith("at="):
                at = min(ms_ns(int(w[3:])), self.now)
        self.last_activity = max(self.last_activity, at)

    def timer_idle(self):
        a = self.active()
        limit = self.current_idle_limit()
        if self.state != "connected" or a is None or limit <= 0:
            return
        quiet = self.now - self.last_activity
        if quiet < limit:
            self.start_timer("idle", limit - quiet)
            return
        self.drop(a, TIMEOUT)

    def takes_token_error(self, t, failure):
        return failure is not None and failure.kind == "token" and (
            self.state == "connecting" or self.state == "connected" and t.status == "active")

    def token_error(self, t, failure):
        """Block 14."""
        if not self.c["canRenewToken"]:
            self.stop_everything()
            self.set_state("failed", "fatal", error=failure)
            return
        if self.state == "connected":
            self.renew_first = True
            self.drop(t, failure)
            return
        if self.att.renewed:
            self.end_attempt("connect-failed", failure, forget_on_fail=True)
            return
        self.dispose_all()
        self.cancel_attempt_timers()
        self.att = Attempt()
        self.att.last_failure = failure  # SUSPENDED before the renewal's answer carries it (RTN14e)
        self.bg_check = None
        self.ask_renewal()

    def renew_before_attempt(self, reason, change):
        """Block 6 for the attempt after a token error while CONNECTED."""
        self.renew_first = False
        self.window_due = False
        self.att = Attempt()
        self.bg_check = None
        if change:
            self.set_state("connecting", reason)
        self.ask_renewal()

    def ask_renewal(self):
        cid = self.next_check
        self.next_check += 1
        self.att.renewal = cid
        self.emit(f"renew-token C{cid}")
        self.start_timer("renew-token", self.renewal_timeout)

    def on_token(self, words):
        """Block 15: the renewal's answer."""
        if len(words) < 2:
            return
        cid = self.cid(words[0])
        if cid is None or cid == 0 or cid != self.att.renewal or "renew-token" not in self.timers \
                or self.state != "connecting":
            return
        self.cancel_timer("renew-token")
        renewed = words[1] == "renewed"
        self.renewal_done(renewed, None if renewed else Failure(words[2]))

    def timer_renew_token(self):
        if self.state == "connecting" and self.att.renewal is not None:
            self.renewal_done(False, TIMEOUT)

    def renewal_done(self, renewed, failure):
        self.att.renewal = None
        if renewed:
            self.start_attempt("reconnect", change=False)
            self.att.renewed = True
            return
        if failure.kind == "http-status" and failure.status == 403:
            self.stop_everything()
            self.set_state("failed", "fatal", error=failure)
            return
        self.end_attempt("connect-failed", failure, forget_on_fail=True)


    # closing outside CONNECTED (RTN12f, RTN11b)

    def close_while_connecting(self):
        """Block 16: CLOSING; the transports in flight go on (websocket-check
        disposes them, as ably-js does); CLOSED at once when none is left."""
        if self.policy == WC:
            self.dispose_all()
        for kind in ALL_TIMERS:
            self.cancel_timer(kind)
        self.att.check = None
        self.set_state("closing", "close-requested")
        self.close_if_nothing_left()

    def close_if_nothing_left(self):
        if not self.transports:
            self.set_state("closed", "closed")

    def activate_while_closing(self, t):
        """A transport of the attempt a close interrupted connects: active, for
        the SDK to send CLOSE on it (RTN12a), with the close timer."""
        if t.connect_timer:
            t.connect_timer = False
            self.emit(f"cancel connect T{t.id}")
        t.status = "active"
        self.emit(f"activate T{t.id}")
        self.dispose_all(keep=t)
        self.start_timer("close", self.closing_timeout)


class Details:
    """What a CONNECTED message says: maxIdleInterval, connectionStateTtl (ns), its error."""

    def __init__(self):
        self.idle = 0
        self.ttl = 0
        self.error = None


def details_of(words):
    """The options maxIdleInterval=<ms> connectionStateTtl=<ms> error=<failure>."""
    d = Details()
    for w in words:
        k, _, v = w.partition("=")
        if k == "maxIdleInterval":
            d.idle = ms_ns(int(v))
        elif k == "connectionStateTtl":
            d.ttl = ms_ns(int(v))
        elif k == "error":
            d.error = Failure(v)
        else:
            raise ValueError(f"unknown CONNECTED option {w!r}")
    return d


def run_scenario(inp):
    """The conformance protocol's scenario: {config, draws, steps} → {steps}."""
    engine = Engine(inp.get("config") or {}, inp.get("draws") or [])
    steps = []
    for step in inp["steps"]:
        steps.append({"actions": engine.step(step["atMs"], step["event"])})
    return {"steps": steps}
