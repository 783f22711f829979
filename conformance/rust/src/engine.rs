//! The connection engine, sans-IO, written from docs/engine.md: one event in,
//! the actions of that step out, in the normative order.

use crate::backoff::{clamp_unit, delay_ns, ms_text, round_ns};
use crate::events::{Details, Event, Failure};
use crate::hosts::{draw_order, should_fallback};
use crate::preference::{self, Preference};

const MS: i64 = 1_000_000;
pub const EPOCH_UNIX_MS: f64 = 1767225600000.0;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Policy {
    WebSocketFirst,
    HttpFirst,
    WebSocketCheck,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum State {
    Initialized,
    Connecting,
    Connected,
    Disconnected,
    Suspended,
    Closing,
    Closed,
    Failed,
}

impl State {
    fn name(self) -> &'static str {
        match self {
            State::Initialized => "initialized",
            State::Connecting => "connecting",
            State::Connected => "connected",
            State::Disconnected => "disconnected",
            State::Suspended => "suspended",
            State::Closing => "closing",
            State::Closed => "closed",
            State::Failed => "failed",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Ws,
    Http,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Ws => "websocket",
            Kind::Http => "http",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    ShortCircuit,
    Flow,
    Upgrade,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    Opening,
    Pending,
    Active,
}

#[derive(Clone, Debug)]
struct Transport {
    id: u64,
    kind: Kind,
    mode: &'static str,
    host: String,
    host_pos: usize,
    role: Role,
    status: Status,
    connect_timer: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TimerKind {
    ShortCircuit,
    Retry,
    StateTtl,
    ConnectivityCheck,
    Close,
    WebSocketSlow,
    WebSocketGiveUp,
    FlapHold,
    Attempt,
    SlowCheck,
    Idle,
    RenewToken,
}

const ALL_TIMERS: [TimerKind; 12] = [
    TimerKind::ShortCircuit,
    TimerKind::Retry,
    TimerKind::StateTtl,
    TimerKind::ConnectivityCheck,
    TimerKind::Close,
    TimerKind::WebSocketSlow,
    TimerKind::WebSocketGiveUp,
    TimerKind::FlapHold,
    TimerKind::Attempt,
    TimerKind::SlowCheck,
    TimerKind::Idle,
    TimerKind::RenewToken,
];

const ATTEMPT_TIMERS: [TimerKind; 7] = [
    TimerKind::ShortCircuit,
    TimerKind::ConnectivityCheck,
    TimerKind::WebSocketSlow,
    TimerKind::WebSocketGiveUp,
    TimerKind::Attempt,
    TimerKind::SlowCheck,
    TimerKind::RenewToken,
];

impl TimerKind {
    fn name(self) -> &'static str {
        match self {
            TimerKind::ShortCircuit => "short-circuit",
            TimerKind::Retry => "retry",
            TimerKind::StateTtl => "state-ttl",
            TimerKind::ConnectivityCheck => "connectivity-check",
            TimerKind::Close => "close",
            TimerKind::WebSocketSlow => "websocket-slow",
            TimerKind::WebSocketGiveUp => "websocket-give-up",
            TimerKind::FlapHold => "flap-hold",
            TimerKind::Attempt => "attempt",
            TimerKind::SlowCheck => "slow-check",
            TimerKind::Idle => "idle",
            TimerKind::RenewToken => "renew-token",
        }
    }
    fn index(self) -> usize {
        ALL_TIMERS.iter().position(|k| *k == self).unwrap()
    }
    fn from_name(n: &str) -> Option<TimerKind> {
        ALL_TIMERS.iter().copied().find(|k| k.name() == n)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Purpose {
    Fallback,
    Redirect,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum WalkCheck {
    None,
    Pending(u64),
    Passed,
    Failed,
}

/// What one attempt keeps; reset at every attempt start.
#[derive(Clone, Debug)]
struct Attempt {
    last_failure: Option<Failure>,
    flow_kind: Kind,
    flow_started: bool,
    flow_pos: usize,
    first_pos: usize,
    displaced: Option<usize>,
    conn_check: Option<(u64, Purpose)>,
    ws_walk: bool,
    walk_check: WalkCheck,
    slow_check: Option<u64>,
    order: Option<Vec<String>>,
    pref_started: bool,
    renewal: Option<u64>,
    followed_renewal: bool,
}

impl Attempt {
    fn new() -> Attempt {
        Attempt {
            last_failure: None,
            flow_kind: Kind::Http,
            flow_started: false,
            flow_pos: 0,
            first_pos: 0,
            displaced: None,
            conn_check: None,
            ws_walk: false,
            walk_check: WalkCheck::None,
            slow_check: None,
            order: None,
            pref_started: false,
            renewal: None,
            followed_renewal: false,
        }
    }
}

/// The configuration a scenario may set; the rest are the defaults.
#[derive(Clone, Debug)]
pub struct Config {
    pub policy: Policy,
    pub ws: bool,
    pub http: bool,
    pub primary: String,
    pub fallbacks: Vec<String>,
    pub short_circuit_ms: f64,
    pub realtime_request_ms: f64,
    pub http_request_ms: f64,
    pub http_max_retry_count: usize,
    pub disconnected_retry_ms: f64,
    pub suspended_retry_ms: f64,
    pub connection_state_ttl_ms: f64,
    pub slow_ms: f64,
    pub give_up_ms: f64,
    pub flap_drops: usize,
    pub flap_window_ms: f64,
    pub flap_hold_ms: f64,
    pub preference: Option<Preference>,
    pub preference_ttl_ms: f64,
    pub remember_transport: bool,
    pub reconnect_window_ms: f64,
    pub immediate_share: f64,
    pub retry_spread: f64,
    pub suspended_spread: f64,
    pub can_renew_token: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            policy: Policy::WebSocketFirst,
            ws: true,
            http: true,
            primary: "main.realtime.ably.net".into(),
            fallbacks: ["a", "b", "c", "d", "e"]
                .iter()
                .map(|x| format!("main.{}.fallback.ably-realtime.com", x))
                .collect(),
            short_circuit_ms: 2000.0,
            realtime_request_ms: 10000.0,
            http_request_ms: 10000.0,
            http_max_retry_count: 3,
            disconnected_retry_ms: 15000.0,
            suspended_retry_ms: 30000.0,
            connection_state_ttl_ms: 120000.0,
            slow_ms: 4000.0,
            give_up_ms: 10000.0,
            flap_drops: 4,
            flap_window_ms: 300000.0,
            flap_hold_ms: 600000.0,
            preference: None,
            preference_ttl_ms: 86400000.0,
            remember_transport: false,
            reconnect_window_ms: 0.0,
            immediate_share: 0.0,
            retry_spread: 0.0,
            suspended_spread: 0.0,
            can_renew_token: false,
        }
    }
}

fn ns(ms: f64) -> i64 {
    round_ns(ms * 1e6)
}

pub struct Engine {
    cfg: Config,
    draws: Vec<f64>,
    next_draw: usize,
    out: Vec<String>,
    state: State,
    now: i64,
    next_transport: u64,
    next_check: u64,
    slots: [Option<Transport>; 4],
    timers: [Option<i64>; 12],
    retry_n: u32,
    state_error: Option<Failure>,
    ever_connected: bool,
    ttl_passed: bool,
    last_immediate: Option<i64>,
    window_due: bool,
    flap_drops: Vec<i64>,
    hold_end: Option<i64>,
    pref: Option<Preference>,
    redirect: bool,
    server_ttl: Option<i64>,
    max_idle: i64,
    last_activity: i64,
    renew_next: bool,
    bg_check: Option<u64>,
    att: Attempt,
}

impl Engine {
    pub fn new(cfg: Config, draws: Vec<f64>) -> Engine {
        let pref = cfg.preference.clone();
        Engine {
            cfg,
            draws,
            next_draw: 0,
            out: Vec::new(),
            state: State::Initialized,
            now: 0,
            next_transport: 1,
            next_check: 1,
            slots: [None, None, None, None],
            timers: [None; 12],
            retry_n: 0,
            state_error: None,
            ever_connected: false,
            ttl_passed: false,
            last_immediate: None,
            window_due: false,
            flap_drops: Vec::new(),
            hold_end: None,
            pref,
            redirect: false,
            server_ttl: None,
            max_idle: 0,
            last_activity: 0,
            renew_next: false,
            bg_check: None,
            att: Attempt::new(),
        }
    }

    /// How many draws the engine has taken so far.
    pub fn draws_used(&self) -> usize {
        self.next_draw
    }

    // ---- small helpers -------------------------------------------------

    fn emit(&mut self, a: String) {
        self.out.push(a);
    }

    fn draw(&mut self) -> f64 {
        let u = self.draws.get(self.next_draw).copied().unwrap_or(0.0);
        self.next_draw += 1;
        u
    }

    fn wc(&self) -> bool {
        self.cfg.policy == Policy::WebSocketCheck
    }

    fn running(&self, k: TimerKind) -> bool {
        self.timers[k.index()].is_some()
    }

    fn start_timer_at(&mut self, k: TimerKind, due: i64) {
        if self.running(k) {
            self.emit(format!("cancel {}", k.name()));
        }
        self.timers[k.index()] = Some(due);
        self.emit(format!("timer {} at={}", k.name(), ms_text(due)));
    }

    fn start_timer(&mut self, k: TimerKind, dur: i64) {
        let due = self.now.saturating_add(dur);
        self.start_timer_at(k, due);
    }

    fn cancel_timer(&mut self, k: TimerKind) {
        if self.running(k) {
            self.timers[k.index()] = None;
            self.emit(format!("cancel {}", k.name()));
        }
    }

    fn cancel_attempt_timers(&mut self) {
        for k in ATTEMPT_TIMERS {
            self.cancel_timer(k);
        }
    }

    fn rrt(&self) -> i64 {
        ns(self.cfg.realtime_request_ms)
    }

    fn mode(&self) -> &'static str {
        if self.ever_connected {
            "resume"
        } else {
            "clean"
        }
    }

    fn now_wall_ms(&self) -> f64 {
        EPOCH_UNIX_MS + (self.now / MS) as f64
    }

    fn new_check(&mut self) -> u64 {
        let c = self.next_check;
        self.next_check += 1;
        c
    }

    /// The number of host positions an attempt may use.
    fn budget(&self) -> usize {
        let n = self.cfg.fallbacks.len();
        if self.wc() {
            1 + n.min(self.cfg.http_max_retry_count)
        } else {
            1 + n
        }
    }

    fn ensure_order(&mut self) {
        if self.att.order.is_none() {
            let count = self.budget() - 1;
            let fallbacks = self.cfg.fallbacks.clone();
            let mut picked: Vec<f64> = Vec::new();
            for _ in 0..count.min(fallbacks.len()) {
                let u = self.draw();
                picked.push(u);
            }
            let mut k = 0;
            let order = draw_order(&fallbacks, count, || {
                let u = picked.get(k).copied().unwrap_or(0.0);
                k += 1;
                u
            });
            self.att.order = Some(order);
        }
    }

    fn host_at(&self, pos: usize) -> String {
        if pos == 0 {
            return self.cfg.primary.clone();
        }
        match &self.att.order {
            Some(o) if pos - 1 < o.len() => o[pos - 1].clone(),
            _ => self.cfg.fallbacks.get(pos - 1).cloned().unwrap_or_default(),
        }
    }

    fn find(&self, id: u64) -> Option<usize> {
        if id == 0 {
            return None;
        }
        self.slots.iter().position(|s| matches!(s, Some(t) if t.id == id))
    }

    fn live(&self) -> bool {
        self.slots.iter().any(|s| s.is_some())
    }

    fn with_status(&self, st: Status) -> Option<usize> {
        self.slots.iter().position(|s| matches!(s, Some(t) if t.status == st))
    }

    fn kind_with_status(&self, st: Status) -> &'static str {
        match self.with_status(st) {
            Some(i) => self.slots[i].as_ref().unwrap().kind.name(),
            None => "none",
        }
    }

    fn open(&mut self, kind: Kind, pos: usize, role: Role, mode: &'static str) -> u64 {
        let host = self.host_at(pos);
        self.open_on(kind, host, pos, role, mode)
    }

    fn open_on(&mut self, kind: Kind, host: String, pos: usize, role: Role, mode: &'static str) -> u64 {
        let id = self.next_transport;
        self.next_transport += 1;
        let slot = self.slots.iter().position(|s| s.is_none()).unwrap_or(3);
        self.emit(format!("open T{} {} {} {}", id, kind.name(), host, mode));
        self.slots[slot] = Some(Transport {
            id,
            kind,
            mode,
            host,
            host_pos: pos,
            role,
            status: Status::Opening,
            connect_timer: true,
        });
        let due = self.now.saturating_add(self.rrt());
        self.emit(format!("timer connect T{} at={}", id, ms_text(due)));
        id
    }

    fn open_flow(&mut self, kind: Kind, pos: usize) {
        self.att.flow_kind = kind;
        self.att.flow_pos = pos;
        self.att.flow_started = true;
        let mode = self.mode();
        self.open(kind, pos, Role::Flow, mode);
    }

    /// Block 3: cancel its connect timer, dispose it (and the idle timer of the active one).
    fn dispose(&mut self, idx: usize) {
        let t = match self.slots[idx].take() {
            Some(t) => t,
            None => return,
        };
        if t.connect_timer {
            self.emit(format!("cancel connect T{}", t.id));
        }
        self.emit(format!("dispose T{}", t.id));
        if t.status == Status::Active {
            self.cancel_timer(TimerKind::Idle);
        }
    }

    fn dispose_all(&mut self) {
        for i in 0..4 {
            self.dispose(i);
        }
    }

    /// Block 5.
    fn stop_everything(&mut self) {
        self.dispose_all();
        for k in ALL_TIMERS {
            self.cancel_timer(k);
        }
    }

    fn state_change(&mut self, to: State, reason: &str, retry_in: Option<i64>, error: Option<&Failure>) {
        let mut a = format!("state {} {} {}", self.state.name(), to.name(), reason);
        if let Some(r) = retry_in {
            a.push_str(&format!(" retryIn={}", ms_text(r)));
        }
        if let Some(f) = error {
            a.push_str(&format!(" error={}", f.text()));
        }
        self.emit(a);
        self.state = to;
        self.state_error = error.cloned();
    }

    fn hold_in_force(&self) -> bool {
        matches!(self.hold_end, Some(h) if self.now < h)
    }

    fn pref_http_in_force(&self) -> bool {
        let (t, _) = preference::start(&self.pref, self.now_wall_ms(), self.cfg.preference_ttl_ms, self.cfg.ws, self.cfg.http);
        t == "http"
    }

    fn remembers(&self) -> bool {
        self.wc() || self.cfg.remember_transport
    }

    // ---- entering DISCONNECTED / SUSPENDED --------------------------------

    fn enter_disconnected_rtb1(&mut self, reason: &str, error: Option<Failure>) {
        self.retry_n += 1;
        let u = self.draw();
        let spread = if self.cfg.retry_spread > 0.0 { self.cfg.retry_spread } else { 0.2 };
        let d = delay_ns(ns(self.cfg.disconnected_retry_ms) as f64, self.retry_n as f64, u, spread);
        self.state_change(State::Disconnected, reason, Some(d), error.as_ref());
        self.start_timer(TimerKind::Retry, d);
    }

    fn enter_suspended(&mut self, reason: &str, error: Option<Failure>) {
        self.retry_n = 0;
        self.window_due = false;
        let base = ns(self.cfg.suspended_retry_ms);
        let d = if self.cfg.suspended_spread > 0.0 {
            let u = clamp_unit(self.draw());
            round_ns(base as f64 * (1.0 - self.cfg.suspended_spread * u))
        } else {
            base
        };
        self.state_change(State::Suspended, reason, Some(d), error.as_ref());
        self.start_timer(TimerKind::Retry, d);
    }

    /// Block 7: the attempt ends.
    fn end_attempt(&mut self, reason: &str, error: Option<Failure>) {
        self.cancel_attempt_timers();
        self.bg_check = None;
        if reason == "connect-failed" && self.att.pref_started {
            let p = self.pref.take();
            self.pref = preference::apply(p, "attempt-failed", "http", 0.0);
        }
        self.att.conn_check = None;
        self.att.slow_check = None;
        self.att.renewal = None;
        self.att.walk_check = WalkCheck::None;
        if self.ttl_passed {
            self.enter_suspended(reason, error);
        } else {
            self.enter_disconnected_rtb1(reason, error);
        }
    }

    /// Block 10's reconnect part: the rate limit, the window or the immediate reconnect.
    fn reconnect_part(&mut self, reason: &str, error: Option<Failure>) {
        let rate_limited = matches!(self.last_immediate, Some(t) if self.now - t < 1000 * MS);
        if rate_limited {
            self.end_attempt(reason, error);
            return;
        }
        if self.cfg.reconnect_window_ms > 0.0 {
            let u = clamp_unit(self.draw());
            let s = self.cfg.immediate_share;
            self.last_immediate = Some(self.now);
            if u > s {
                let w = ns(self.cfg.reconnect_window_ms) as f64;
                let wait = round_ns(w * ((u - s) / (1.0 - s)));
                if wait > 0 {
                    self.state_change(State::Disconnected, reason, Some(wait), error.as_ref());
                    self.start_timer(TimerKind::Retry, wait);
                    self.window_due = true;
                    return;
                }
            }
        }
        self.last_immediate = Some(self.now);
        self.state_change(State::Disconnected, reason, Some(0), error.as_ref());
        self.start_attempt("reconnect", false);
    }

    fn state_ttl_duration(&self) -> i64 {
        self.server_ttl.unwrap_or_else(|| ns(self.cfg.connection_state_ttl_ms))
    }

    // ---- starting an attempt (block 6, the START rows) ---------------------

    fn start_attempt(&mut self, reason: &str, followed_renewal: bool) {
        if self.state != State::Connecting {
            self.state_change(State::Connecting, reason, None, None);
        }
        self.bg_check = None;
        self.window_due = false;
        self.att = Attempt::new();
        self.att.followed_renewal = followed_renewal;
        let redirect = self.redirect;
        self.redirect = false;
        if self.renew_next {
            self.renew_next = false;
            self.ask_renewal();
            return;
        }
        let has_fallback = !self.cfg.fallbacks.is_empty();
        let mode = self.mode();
        if self.wc() {
            let d = ns(self.cfg.give_up_ms) + self.rrt();
            self.start_timer(TimerKind::Attempt, d);
            if self.cfg.ws {
                if redirect && has_fallback {
                    self.att.ws_walk = true;
                    self.att.flow_kind = Kind::Ws;
                    self.att.first_pos = 1;
                    self.att.flow_pos = 1;
                    self.start_walk_timers();
                    self.ask_check(Purpose::Redirect);
                    return;
                }
                if self.cfg.http && self.pref_http_in_force() {
                    let c = self.new_check();
                    self.emit(format!("check-websocket C{}", c));
                    self.bg_check = Some(c);
                    self.att.pref_started = true;
                    self.open_flow(Kind::Http, 0);
                    return;
                }
                self.att.ws_walk = true;
                self.start_walk_timers();
                self.open_flow(Kind::Ws, 0);
                let _ = mode;
                return;
            }
            if redirect && has_fallback {
                self.att.flow_kind = Kind::Http;
                self.att.first_pos = 1;
                self.att.flow_pos = 1;
                self.ask_check(Purpose::Redirect);
                return;
            }
            if self.cfg.http {
                self.open_flow(Kind::Http, 0);
            }
            return;
        }
        if redirect && has_fallback {
            self.att.first_pos = 1;
            self.att.flow_pos = 1;
            self.ask_check(Purpose::Redirect);
            return;
        }
        self.policy_choice(0);
    }

    fn start_walk_timers(&mut self) {
        let slow = ns(self.cfg.slow_ms);
        let give_up = ns(self.cfg.give_up_ms);
        self.start_timer(TimerKind::WebSocketSlow, slow);
        self.start_timer(TimerKind::WebSocketGiveUp, give_up);
    }

    /// Websocket-first and HTTP-first: the hold, a remembered HTTP, then the policy's own choice.
    fn policy_choice(&mut self, pos: usize) {
        self.att.first_pos = pos;
        self.att.flow_pos = pos;
        let ws = self.cfg.ws;
        let http = self.cfg.http;
        if ws && http && self.hold_in_force() {
            self.open_flow(Kind::Http, pos);
            return;
        }
        if self.cfg.remember_transport && http && self.pref_http_in_force() {
            if ws {
                let c = self.new_check();
                self.emit(format!("check-websocket C{}", c));
                self.bg_check = Some(c);
            }
            self.att.pref_started = true;
            self.open_flow(Kind::Http, pos);
            return;
        }
        match self.cfg.policy {
            Policy::WebSocketFirst => {
                if ws && http {
                    self.att.flow_kind = Kind::Http;
                    self.att.flow_started = false;
                    let mode = self.mode();
                    self.open(Kind::Ws, pos, Role::ShortCircuit, mode);
                    let sc = if self.cfg.short_circuit_ms > 0.0 { self.cfg.short_circuit_ms } else { 2000.0 };
                    self.start_timer(TimerKind::ShortCircuit, ns(sc));
                } else if ws {
                    self.open_flow(Kind::Ws, pos);
                } else if http {
                    self.open_flow(Kind::Http, pos);
                }
            }
            _ => {
                if http {
                    self.open_flow(Kind::Http, pos);
                } else if ws {
                    self.open_flow(Kind::Ws, pos);
                }
            }
        }
    }

    fn ask_check(&mut self, purpose: Purpose) {
        let c = self.new_check();
        self.emit(format!("check C{}", c));
        self.att.conn_check = Some((c, purpose));
        let d = ns(self.cfg.http_request_ms);
        self.start_timer(TimerKind::ConnectivityCheck, d);
    }

    fn ask_renewal(&mut self) {
        let c = self.new_check();
        self.emit(format!("renew-token C{}", c));
        self.att.renewal = Some(c);
        let d = self.rrt();
        self.start_timer(TimerKind::RenewToken, d);
    }

    fn ask_walk_check(&mut self) {
        let c = self.new_check();
        self.emit(format!("check-websocket C{}", c));
        self.att.walk_check = WalkCheck::Pending(c);
    }

    fn fresh(&mut self) {
        self.retry_n = 0;
        self.state_error = None;
        self.ever_connected = false;
        self.ttl_passed = false;
        self.redirect = false;
        self.server_ttl = None;
        self.window_due = false;
    }

    fn something_in_flight(&self) -> bool {
        self.live() || self.att.conn_check.is_some() || self.running(TimerKind::ShortCircuit)
    }

    // ---- the step ----------------------------------------------------------

    pub fn step(&mut self, at_ms: f64, ev: Event) -> Vec<String> {
        self.out.clear();
        let t = ns(at_ms);
        if t > self.now {
            self.now = t;
        }
        match ev {
            Event::Connect => self.on_connect(),
            Event::Close => self.on_close(),
            Event::Viable(id) => {
                if let Some(i) = self.find(id) {
                    if matches!(self.state, State::Connecting | State::Connected | State::Closing) {
                        self.viable(i);
                    }
                }
            }
            Event::Connected(id, d) => self.on_connected(id, d),
            Event::Lost(id, f) => self.on_lost(id, f),
            Event::Timer(name, id) => self.on_timer(&name, id),
            Event::Connectivity(c, up) => self.on_connectivity(c, up),
            Event::WebSocketCheck(c, up) => self.on_ws_check(c, up),
            Event::NetworkUp => self.on_network_up(),
            Event::NetworkDown => self.on_network_down(),
            Event::Fatal(f) => self.on_fatal(f),
            Event::Details(id, d) => self.on_details(id, d),
            Event::Activity(id, at) => self.on_activity(id, at),
            Event::Token(c, f) => self.on_token(c, f),
            Event::Unknown => {}
        }
        std::mem::take(&mut self.out)
    }

    fn on_connect(&mut self) {
        match self.state {
            State::Initialized | State::Closed | State::Failed | State::Closing => {
                if self.state == State::Closing {
                    self.stop_everything();
                }
                self.fresh();
                self.start_attempt("connect-requested", false);
                let d = ns(self.cfg.connection_state_ttl_ms);
                self.start_timer(TimerKind::StateTtl, d);
            }
            State::Disconnected | State::Suspended => {
                self.cancel_timer(TimerKind::Retry);
                self.start_attempt("connect-requested", false);
            }
            _ => {}
        }
    }

    fn on_close(&mut self) {
        match self.state {
            State::Initialized | State::Disconnected | State::Suspended => {
                self.stop_everything();
                self.state_change(State::Closed, "close-requested", None, None);
            }
            State::Connecting => {
                if self.wc() {
                    self.dispose_all();
                }
                for k in ALL_TIMERS {
                    self.cancel_timer(k);
                }
                self.att.conn_check = None;
                self.att.slow_check = None;
                self.att.renewal = None;
                self.att.walk_check = WalkCheck::None;
                self.state_change(State::Closing, "close-requested", None, None);
                if !self.live() {
                    self.state_change(State::Closed, "closed", None, None);
                }
            }
            State::Connected => {
                for i in 0..4 {
                    if matches!(&self.slots[i], Some(t) if t.status != Status::Active) {
                        self.dispose(i);
                    }
                }
                self.cancel_attempt_timers();
                self.cancel_timer(TimerKind::FlapHold);
                self.state_change(State::Closing, "close-requested", None, None);
                let d = self.rrt();
                self.start_timer(TimerKind::Close, d);
            }
            _ => {}
        }
    }

    fn on_fatal(&mut self, f: Failure) {
        match self.state {
            State::Closed | State::Failed => {}
            _ => {
                self.stop_everything();
                self.att.conn_check = None;
                self.att.slow_check = None;
                self.att.renewal = None;
                self.state_change(State::Failed, "fatal", None, Some(&f));
            }
        }
    }

    /// Block 9. Returns whether the transport is now pending.
    fn viable(&mut self, idx: usize) -> bool {
        let t = match &self.slots[idx] {
            Some(t) if t.status == Status::Opening => t.clone(),
            _ => return false,
        };
        if self.wc() {
            if t.connect_timer {
                self.slots[idx].as_mut().unwrap().connect_timer = false;
                self.emit(format!("cancel connect T{}", t.id));
            }
            self.cancel_timer(TimerKind::WebSocketSlow);
            self.cancel_timer(TimerKind::WebSocketGiveUp);
        }
        let pending = self.kind_with_status(Status::Pending);
        let active = self.kind_with_status(Status::Active);
        let (decision, rule) = crate::transport::decide_pending(t.kind.name(), t.mode, pending, active);
        match decision {
            "discard-candidate" => {
                if rule == 1 && t.kind == Kind::Http && t.role == Role::Flow {
                    self.att.displaced = Some(t.host_pos);
                }
                self.lose(idx, None);
                false
            }
            "replace-pending" => {
                if let Some(p) = self.with_status(Status::Pending) {
                    let pt = self.slots[p].clone().unwrap();
                    if pt.kind == Kind::Http && pt.role == Role::Flow {
                        self.att.displaced = Some(pt.host_pos);
                    }
                    self.dispose(p);
                }
                self.slots[idx].as_mut().unwrap().status = Status::Pending;
                true
            }
            _ => {
                self.slots[idx].as_mut().unwrap().status = Status::Pending;
                true
            }
        }
    }

    fn on_connected(&mut self, id: u64, d: Details) {
        if !matches!(self.state, State::Connecting | State::Connected | State::Closing) {
            return;
        }
        let idx = match self.find(id) {
            Some(i) => i,
            None => return,
        };
        let st = self.slots[idx].as_ref().unwrap().status;
        if st == Status::Active {
            return;
        }
        if st == Status::Opening && !self.viable(idx) {
            return;
        }
        if !matches!(&self.slots[idx], Some(t) if t.id == id && t.status == Status::Pending) {
            return;
        }
        if self.state == State::Closing {
            self.activate_while_closing(idx);
            return;
        }
        self.activate(idx, d);
    }

    fn activate_while_closing(&mut self, idx: usize) {
        let id = self.slots[idx].as_ref().unwrap().id;
        if self.slots[idx].as_ref().unwrap().connect_timer {
            self.slots[idx].as_mut().unwrap().connect_timer = false;
            self.emit(format!("cancel connect T{}", id));
        }
        self.emit(format!("activate T{}", id));
        self.slots[idx].as_mut().unwrap().status = Status::Active;
        for i in 0..4 {
            if i != idx {
                self.dispose(i);
            }
        }
        let d = self.rrt();
        self.start_timer(TimerKind::Close, d);
    }

    /// Block 8.
    fn activate(&mut self, idx: usize, d: Details) {
        let t = self.slots[idx].clone().unwrap();
        if t.connect_timer {
            self.slots[idx].as_mut().unwrap().connect_timer = false;
            self.emit(format!("cancel connect T{}", t.id));
        }
        if let Some(a) = self.with_status(Status::Active) {
            if a != idx {
                self.dispose(a);
            }
        }
        self.emit(format!("activate T{}", t.id));
        self.slots[idx].as_mut().unwrap().status = Status::Active;
        self.cancel_attempt_timers();
        for i in 0..4 {
            if i == idx {
                continue;
            }
            let dispose = match &self.slots[i] {
                Some(o) => {
                    t.kind == Kind::Ws || (o.kind == Kind::Ws && o.mode != "upgrade" && o.status == Status::Opening)
                }
                None => false,
            };
            if dispose {
                self.dispose(i);
            }
        }
        let upgrade = self.state == State::Connected;
        if !upgrade {
            self.cancel_timer(TimerKind::StateTtl);
            self.cancel_timer(TimerKind::Retry);
            self.state_change(State::Connected, "connected", None, d.error.as_ref());
            self.retry_n = 0;
            self.ever_connected = true;
            self.ttl_passed = false;
        } else {
            let mut a = "update transport".to_string();
            if let Some(f) = &d.error {
                a.push_str(&format!(" error={}", f.text()));
            }
            self.emit(a);
        }
        if d.ttl_ms > 0.0 {
            self.server_ttl = Some(ns(d.ttl_ms));
        }
        self.max_idle = ns(d.max_idle_ms);
        self.last_activity = self.now;
        if self.max_idle > 0 {
            let dur = self.max_idle + self.rrt();
            self.start_timer(TimerKind::Idle, dur);
        }
        let hold = self.hold_in_force();
        if self.remembers() && !(t.kind == Kind::Http && hold && !self.wc()) {
            self.pref = Some(Preference {
                transport: t.kind.name().to_string(),
                at_ms: self.now_wall_ms(),
                reason: "connected".into(),
            });
        }
        self.att.conn_check = None;
        self.att.slow_check = None;
        self.att.renewal = None;
        self.att.walk_check = WalkCheck::None;
        if !self.wc() && t.kind == Kind::Http && self.cfg.ws && !upgrade {
            if hold {
                if !self.running(TimerKind::FlapHold) {
                    let end = self.hold_end.unwrap();
                    self.start_timer_at(TimerKind::FlapHold, end);
                }
            } else {
                self.open_on(Kind::Ws, t.host.clone(), t.host_pos, Role::Upgrade, "upgrade");
            }
        }
    }

    fn on_lost(&mut self, id: u64, f: Option<Failure>) {
        let idx = match self.find(id) {
            Some(i) => i,
            None => return,
        };
        self.transport_lost(idx, f);
    }

    fn transport_lost(&mut self, idx: usize, f: Option<Failure>) {
        let t = self.slots[idx].clone().unwrap();
        let token = matches!(&f, Some(x) if x.kind == "token");
        if token
            && (self.state == State::Connecting || (self.state == State::Connected && t.status == Status::Active))
        {
            self.token_error(idx, f.unwrap());
            return;
        }
        if t.status == Status::Active {
            match self.state {
                State::Closing => {
                    self.dispose_all();
                    self.cancel_attempt_timers();
                    self.cancel_timer(TimerKind::Close);
                    self.bg_check = None;
                    self.state_change(State::Closed, "closed", None, None);
                }
                State::Connected => self.drop_active(f, true),
                _ => self.dispose(idx),
            }
            return;
        }
        self.lose(idx, f);
    }

    fn token_error(&mut self, idx: usize, f: Failure) {
        let _ = idx;
        if !self.cfg.can_renew_token {
            self.stop_everything();
            self.att.conn_check = None;
            self.att.slow_check = None;
            self.att.renewal = None;
            self.state_change(State::Failed, "fatal", None, Some(&f));
            return;
        }
        if self.state == State::Connected {
            self.renew_next = true;
            self.drop_active(Some(f), true);
            return;
        }
        self.att.last_failure = Some(f.clone());
        if self.att.followed_renewal {
            self.dispose_all();
            self.end_attempt("connect-failed", Some(f));
            return;
        }
        self.dispose_all();
        self.cancel_attempt_timers();
        self.att.conn_check = None;
        self.att.slow_check = None;
        // The attempt that started on a remembered HTTP is abandoned: the
        // renewal's failure is not that transport's.
        self.att.pref_started = false;
        self.ask_renewal();
    }

    /// Block 10: the active transport drops while CONNECTED.
    fn drop_active(&mut self, f: Option<Failure>, count: bool) {
        let active_kind = self.with_status(Status::Active).map(|i| self.slots[i].as_ref().unwrap().kind);
        if count && active_kind == Some(Kind::Ws) && !self.wc() && self.cfg.ws && self.cfg.http {
            self.count_flap();
        }
        self.dispose_all();
        self.cancel_attempt_timers();
        self.bg_check = None;
        if let Some(x) = &f {
            if x.is_disconnected_5xx() && !self.cfg.fallbacks.is_empty() {
                self.redirect = true;
                self.pref = None;
            }
        }
        self.reconnect_part("dropped", f);
        let d = self.state_ttl_duration();
        self.start_timer(TimerKind::StateTtl, d);
    }

    fn count_flap(&mut self) {
        self.flap_drops.push(self.now);
        let k = self.cfg.flap_drops.max(1);
        if self.flap_drops.len() > k {
            let extra = self.flap_drops.len() - k;
            self.flap_drops.drain(0..extra);
        }
        if self.flap_drops.len() == k && self.now - self.flap_drops[0] <= ns(self.cfg.flap_window_ms) {
            self.hold_end = Some(self.now + ns(self.cfg.flap_hold_ms));
            self.flap_drops.clear();
            self.pref = Some(Preference {
                transport: "http".into(),
                at_ms: self.now_wall_ms(),
                reason: "websocket-unstable".into(),
            });
        }
    }

    /// Block 11: a transport lost that is not active.
    fn lose(&mut self, idx: usize, f: Option<Failure>) {
        let t = self.slots[idx].clone().unwrap();
        self.dispose(idx);
        match self.state {
            State::Closing => {
                if !self.live() {
                    self.state_change(State::Closed, "closed", None, None);
                }
                return;
            }
            State::Connecting => {}
            _ => return,
        }
        if let Some(x) = &f {
            self.att.last_failure = Some(x.clone());
        }
        let qualifies = match &f {
            Some(x) => should_fallback(&x.kind, x.status, &x.server),
            None => false,
        };
        if self.wc() && t.status == Status::Pending {
            self.dispose_all();
            let redirect = matches!(&f, Some(x) if x.is_disconnected_5xx()) && !self.cfg.fallbacks.is_empty();
            if redirect {
                self.cancel_attempt_timers();
                self.redirect = true;
                self.pref = None;
                self.bg_check = None;
                self.att.conn_check = None;
                self.att.slow_check = None;
                self.reconnect_part("dropped", f);
            } else {
                let e = self.att.last_failure.clone();
                self.end_attempt("connect-failed", e);
            }
            return;
        }
        if self.wc() && self.att.ws_walk && t.role == Role::Flow && self.att.walk_check == WalkCheck::Failed {
            return;
        }
        if t.role == Role::ShortCircuit
            && self.cfg.http
            && self.with_status(Status::Pending).is_none()
            && self.with_status(Status::Active).is_none()
            && (!self.att.flow_started || self.att.displaced.is_some())
        {
            if let Some(pos) = self.att.displaced.take() {
                self.open_flow(Kind::Http, pos);
            } else {
                self.cancel_timer(TimerKind::ShortCircuit);
                let pos = self.att.first_pos;
                self.open_flow(Kind::Http, pos);
            }
            return;
        }
        if t.role == Role::Flow && qualifies && self.att.flow_pos + 1 < self.budget() {
            self.ask_check(Purpose::Fallback);
            return;
        }
        if self.something_in_flight() {
            return;
        }
        if self.wc() && self.att.ws_walk {
            if !self.cfg.http || self.att.walk_check == WalkCheck::Passed {
                let e = self.att.last_failure.clone();
                self.end_attempt("connect-failed", e);
            } else if self.att.walk_check == WalkCheck::None {
                self.ask_walk_check();
            }
            return;
        }
        let e = self.att.last_failure.clone();
        self.end_attempt("connect-failed", e);
    }

    fn on_timer(&mut self, name: &str, id: u64) {
        if name == "connect" {
            let idx = match self.find(id) {
                Some(i) => i,
                None => return,
            };
            if !self.slots[idx].as_ref().unwrap().connect_timer {
                return;
            }
            self.slots[idx].as_mut().unwrap().connect_timer = false;
            self.transport_lost(idx, Some(Failure::new("timeout")));
            return;
        }
        let k = match TimerKind::from_name(name) {
            Some(k) => k,
            None => return,
        };
        if !self.running(k) {
            return;
        }
        self.timers[k.index()] = None;
        match k {
            TimerKind::ShortCircuit => {
                if self.state == State::Connecting
                    && !self.att.flow_started
                    && self.cfg.http
                    && self.with_status(Status::Pending).is_none()
                    && self.with_status(Status::Active).is_none()
                {
                    let pos = self.att.first_pos;
                    self.open_flow(Kind::Http, pos);
                }
            }
            TimerKind::Retry => {
                if matches!(self.state, State::Disconnected | State::Suspended) {
                    let reason = if self.window_due { "reconnect" } else { "retry" };
                    self.start_attempt(reason, false);
                }
            }
            TimerKind::StateTtl => match self.state {
                State::Disconnected => {
                    self.cancel_timer(TimerKind::Retry);
                    self.ttl_passed = true;
                    let e = self.state_error.clone().or_else(|| Some(Failure::new("timeout")));
                    self.enter_suspended("state-ttl", e);
                }
                State::Connecting => {
                    self.dispose_all();
                    self.cancel_attempt_timers();
                    self.bg_check = None;
                    self.att.conn_check = None;
                    self.att.slow_check = None;
                    self.att.renewal = None;
                    self.ttl_passed = true;
                    let e = self.att.last_failure.clone().or_else(|| Some(Failure::new("timeout")));
                    self.enter_suspended("state-ttl", e);
                }
                _ => {}
            },
            TimerKind::ConnectivityCheck => {
                if self.state != State::Connecting {
                    return;
                }
                self.att.conn_check = None;
                if self.wc() && self.att.ws_walk && self.att.walk_check == WalkCheck::Failed {
                    return;
                }
                self.dispose_all();
                let e = self.att.last_failure.clone();
                self.end_attempt("connectivity-down", e);
            }
            TimerKind::Close => {
                if self.state == State::Closing {
                    self.dispose_all();
                    self.state_change(State::Closed, "closed", None, None);
                }
            }
            TimerKind::WebSocketSlow => {
                if self.state != State::Connecting {
                    return;
                }
                if self.att.walk_check == WalkCheck::None {
                    self.ask_walk_check();
                }
                let c = self.new_check();
                self.emit(format!("check C{}", c));
                self.att.slow_check = Some(c);
                let d = ns(self.cfg.http_request_ms);
                self.start_timer(TimerKind::SlowCheck, d);
            }
            TimerKind::WebSocketGiveUp => {
                if self.state != State::Connecting {
                    return;
                }
                if self.att.walk_check != WalkCheck::Passed && self.cfg.http {
                    self.switch_to_http(true);
                }
            }
            TimerKind::Attempt => {
                if self.state == State::Connecting {
                    self.dispose_all();
                    let e = self.att.last_failure.clone();
                    self.end_attempt("connect-failed", e);
                }
            }
            TimerKind::SlowCheck => {
                if self.state == State::Connecting {
                    self.att.slow_check = None;
                    self.dispose_all();
                    let e = self.att.last_failure.clone();
                    self.end_attempt("connectivity-down", e);
                }
            }
            TimerKind::FlapHold => {
                if self.state == State::Connected && self.cfg.ws {
                    if let Some(a) = self.with_status(Status::Active) {
                        let t = self.slots[a].clone().unwrap();
                        let ws_in_flight = self.slots.iter().any(|s| matches!(s, Some(o) if o.kind == Kind::Ws));
                        if t.kind == Kind::Http && !ws_in_flight {
                            self.open_on(Kind::Ws, t.host.clone(), t.host_pos, Role::Upgrade, "upgrade");
                        }
                    }
                }
            }
            TimerKind::Idle => {
                if self.state == State::Connected {
                    let limit = self.max_idle + self.rrt();
                    if self.now - self.last_activity < limit {
                        let due = self.last_activity + limit;
                        self.start_timer_at(TimerKind::Idle, due);
                    } else {
                        self.drop_active(Some(Failure::new("timeout")), true);
                    }
                }
            }
            TimerKind::RenewToken => {
                if self.state == State::Connecting {
                    self.att.renewal = None;
                    self.end_attempt("connect-failed", Some(Failure::new("timeout")));
                }
            }
        }
    }

    /// Websocket-check: HTTP becomes the flow on the primary.
    fn switch_to_http(&mut self, give_up: bool) {
        if give_up {
            self.dispose_all();
            self.cancel_timer(TimerKind::WebSocketSlow);
            self.cancel_timer(TimerKind::ConnectivityCheck);
            self.att.conn_check = None;
        } else {
            self.cancel_timer(TimerKind::WebSocketSlow);
            self.cancel_timer(TimerKind::WebSocketGiveUp);
        }
        self.att.ws_walk = false;
        self.open_flow(Kind::Http, 0);
    }

    fn on_connectivity(&mut self, c: u64, up: bool) {
        if c == 0 || self.state != State::Connecting {
            return;
        }
        if let Some((id, purpose)) = self.att.conn_check {
            if id == c {
                self.cancel_timer(TimerKind::ConnectivityCheck);
                self.att.conn_check = None;
                if self.wc() && self.att.ws_walk && self.att.walk_check == WalkCheck::Failed {
                    return;
                }
                if !up {
                    self.dispose_all();
                    let e = self.att.last_failure.clone();
                    self.end_attempt("connectivity-down", e);
                    return;
                }
                self.ensure_order();
                match purpose {
                    Purpose::Fallback => {
                        let pos = self.att.flow_pos + 1;
                        let kind = self.att.flow_kind;
                        self.open_flow(kind, pos);
                    }
                    Purpose::Redirect => {
                        if self.wc() {
                            let kind = if self.cfg.ws { Kind::Ws } else { Kind::Http };
                            self.open_flow(kind, 1);
                        } else {
                            self.policy_choice(1);
                        }
                    }
                }
                return;
            }
        }
        if self.att.slow_check == Some(c) {
            self.cancel_timer(TimerKind::SlowCheck);
            self.att.slow_check = None;
            if !up {
                self.dispose_all();
                let e = self.att.last_failure.clone();
                self.end_attempt("connectivity-down", e);
            }
        }
    }

    fn on_ws_check(&mut self, c: u64, up: bool) {
        if c == 0 {
            return;
        }
        if self.bg_check == Some(c) {
            self.bg_check = None;
            if !up {
                return;
            }
            let p = self.pref.take();
            self.pref = preference::apply(p, "websocket-check-passed", "", 0.0);
            // Only while the attempt connects on HTTP: not while a token
            // renewal has abandoned its transports.
            if self.state != State::Connecting || self.att.renewal.is_some() {
                return;
            }
            if self.wc() {
                self.dispose_all();
                self.cancel_timer(TimerKind::ConnectivityCheck);
                self.att.conn_check = None;
                self.att.order = None;
                self.att.ws_walk = true;
                self.att.walk_check = WalkCheck::None;
                self.att.first_pos = 0;
                self.start_walk_timers();
                self.open_flow(Kind::Ws, 0);
            } else if self.with_status(Status::Pending).is_none() && self.with_status(Status::Active).is_none() {
                let pos = self.att.flow_pos;
                let mode = self.mode();
                self.open(Kind::Ws, pos, Role::ShortCircuit, mode);
            }
            return;
        }
        if self.state != State::Connecting {
            return;
        }
        if self.att.walk_check == WalkCheck::Pending(c) {
            self.att.walk_check = if up { WalkCheck::Passed } else { WalkCheck::Failed };
            if self.att.ws_walk && !self.live() && self.att.conn_check.is_none() {
                if up {
                    self.dispose_all();
                    let e = self.att.last_failure.clone();
                    self.end_attempt("connect-failed", e);
                } else if self.cfg.http {
                    self.switch_to_http(false);
                }
            }
        }
    }

    fn on_network_up(&mut self) {
        match self.state {
            State::Disconnected | State::Suspended => {
                self.cancel_timer(TimerKind::Retry);
                self.start_attempt("network-up", false);
            }
            State::Connecting => {
                self.dispose_all();
                self.cancel_attempt_timers();
                self.start_attempt("network-up", false);
            }
            _ => {}
        }
    }

    fn on_network_down(&mut self) {
        let was_connected = match self.state {
            State::Connected => true,
            State::Connecting => false,
            _ => return,
        };
        self.dispose_all();
        self.cancel_attempt_timers();
        self.bg_check = None;
        self.att.conn_check = None;
        self.att.slow_check = None;
        self.att.renewal = None;
        let f = Some(Failure::new("unreachable"));
        if !was_connected && self.ttl_passed {
            self.end_attempt("network-down", f);
            return;
        }
        self.reconnect_part("network-down", f);
        if was_connected {
            let d = self.state_ttl_duration();
            self.start_timer(TimerKind::StateTtl, d);
        }
    }

    fn on_details(&mut self, id: u64, d: Details) {
        if self.state != State::Connected {
            return;
        }
        let idx = match self.find(id) {
            Some(i) => i,
            None => return,
        };
        if self.slots[idx].as_ref().unwrap().status != Status::Active {
            return;
        }
        let mut a = "update details".to_string();
        if let Some(f) = &d.error {
            a.push_str(&format!(" error={}", f.text()));
        }
        self.emit(a);
        if d.ttl_ms > 0.0 {
            self.server_ttl = Some(ns(d.ttl_ms));
        }
        self.max_idle = ns(d.max_idle_ms);
        self.last_activity = self.now;
        if self.max_idle > 0 {
            let dur = self.max_idle + self.rrt();
            self.start_timer(TimerKind::Idle, dur);
        } else {
            self.cancel_timer(TimerKind::Idle);
        }
    }

    fn on_activity(&mut self, id: u64, at: Option<f64>) {
        let idx = match self.find(id) {
            Some(i) => i,
            None => return,
        };
        if self.slots[idx].as_ref().unwrap().status != Status::Active {
            return;
        }
        let mut t = at.map(ns).unwrap_or(self.now);
        if t > self.now {
            t = self.now;
        }
        if t > self.last_activity {
            self.last_activity = t;
        }
    }

    fn on_token(&mut self, c: u64, f: Option<Failure>) {
        if c == 0 || self.state != State::Connecting || self.att.renewal != Some(c) {
            return;
        }
        self.cancel_timer(TimerKind::RenewToken);
        self.att.renewal = None;
        match f {
            None => self.start_attempt("", true),
            Some(x) if x.kind == "http-status" && x.status == 403 => {
                self.stop_everything();
                self.state_change(State::Failed, "fatal", None, Some(&x));
            }
            Some(x) => self.end_attempt("connect-failed", Some(x)),
        }
    }
}
