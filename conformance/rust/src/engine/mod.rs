//! The connection engine, sans-IO, written from docs/engine.md: one event in,
//! the actions of that step out, in the normative order.

use crate::backoff::{clamp_unit, delay_ns, ms_text, round_ns};
use crate::events::{Event, Failure};
use crate::hosts::{draw_order, should_fallback};
use crate::preference::{self, Preference};

const MS: i64 = 1_000_000;
pub const EPOCH_UNIX_MS: f64 = 1767225600000.0;

mod answers;
mod attempt;
mod config;
mod requests;
mod timers;
mod transports;
mod types;

pub use config::Config;
pub use types::Policy;
use types::*;

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
    last_retry: i64,
    early: Option<(i64, u32)>, // the first-retry rule: the immediate reconnect, the early retries so far
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
            last_retry: 0,
            early: None,
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

    pub(crate) fn emit(&mut self, a: String) {
        self.out.push(a);
    }

    pub(crate) fn draw(&mut self) -> f64 {
        let u = self.draws.get(self.next_draw).copied().unwrap_or(0.0);
        self.next_draw += 1;
        u
    }

    pub(crate) fn wc(&self) -> bool {
        self.cfg.policy == Policy::WebSocketCheck
    }

    pub(crate) fn running(&self, k: TimerKind) -> bool {
        self.timers[k.index()].is_some()
    }

    pub(crate) fn start_timer_at(&mut self, k: TimerKind, due: i64) {
        if self.running(k) {
            self.emit(format!("cancel {}", k.name()));
        }
        self.timers[k.index()] = Some(due);
        self.emit(format!("timer {} at={}", k.name(), ms_text(due)));
    }

    pub(crate) fn start_timer(&mut self, k: TimerKind, dur: i64) {
        let due = self.now.saturating_add(dur);
        self.start_timer_at(k, due);
    }

    pub(crate) fn cancel_timer(&mut self, k: TimerKind) {
        if self.running(k) {
            self.timers[k.index()] = None;
            self.emit(format!("cancel {}", k.name()));
        }
    }

    pub(crate) fn cancel_attempt_timers(&mut self) {
        for k in ATTEMPT_TIMERS {
            self.cancel_timer(k);
        }
    }

    pub(crate) fn rrt(&self) -> i64 {
        ns(self.cfg.realtime_request_ms)
    }

    /// One job of realtimeRequestTimeout: its own value above 0, else it.
    pub(crate) fn job(&self, ms: f64) -> i64 {
        if ms > 0.0 {
            ns(ms)
        } else {
            self.rrt()
        }
    }

    /// The idle limit: maxIdleInterval plus idleSlack, else the
    /// client-side idleLimit (the server's value wins, RTN21); 0: none.
    pub(crate) fn idle_limit(&self) -> i64 {
        if self.max_idle > 0 {
            self.max_idle + self.job(self.cfg.idle_slack_ms)
        } else if self.cfg.idle_limit_ms > 0.0 {
            ns(self.cfg.idle_limit_ms)
        } else {
            0
        }
    }

    pub(crate) fn mode(&self) -> &'static str {
        if self.ever_connected {
            "resume"
        } else {
            "clean"
        }
    }

    pub(crate) fn now_wall_ms(&self) -> f64 {
        EPOCH_UNIX_MS + (self.now / MS) as f64
    }

    pub(crate) fn new_check(&mut self) -> u64 {
        let c = self.next_check;
        self.next_check += 1;
        c
    }

    /// The number of host positions an attempt may use.
    pub(crate) fn budget(&self) -> usize {
        let n = self.cfg.fallbacks.len();
        if self.wc() {
            1 + n.min(self.cfg.http_max_retry_count)
        } else {
            1 + n
        }
    }

    pub(crate) fn ensure_order(&mut self) {
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

    pub(crate) fn host_at(&self, pos: usize) -> String {
        if pos == 0 {
            return self.cfg.primary.clone();
        }
        match &self.att.order {
            Some(o) if pos - 1 < o.len() => o[pos - 1].clone(),
            _ => self.cfg.fallbacks.get(pos - 1).cloned().unwrap_or_default(),
        }
    }

    pub(crate) fn find(&self, id: u64) -> Option<usize> {
        if id == 0 {
            return None;
        }
        self.slots
            .iter()
            .position(|s| matches!(s, Some(t) if t.id == id))
    }

    pub(crate) fn live(&self) -> bool {
        self.slots.iter().any(|s| s.is_some())
    }

    pub(crate) fn with_status(&self, st: Status) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| matches!(s, Some(t) if t.status == st))
    }

    pub(crate) fn kind_with_status(&self, st: Status) -> &'static str {
        match self.with_status(st) {
            Some(i) => self.slots[i].as_ref().unwrap().kind.name(),
            None => "none",
        }
    }

    pub(crate) fn open(&mut self, kind: Kind, pos: usize, role: Role, mode: &'static str) -> u64 {
        let host = self.host_at(pos);
        self.open_on(kind, host, pos, role, mode)
    }

    pub(crate) fn open_on(
        &mut self,
        kind: Kind,
        host: String,
        pos: usize,
        role: Role,
        mode: &'static str,
    ) -> u64 {
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
        let due = self
            .now
            .saturating_add(self.job(self.cfg.connect_timeout_ms));
        self.emit(format!("timer connect T{} at={}", id, ms_text(due)));
        id
    }

    pub(crate) fn open_flow(&mut self, kind: Kind, pos: usize) {
        self.att.flow_kind = kind;
        self.att.flow_pos = pos;
        self.att.flow_started = true;
        let mode = self.mode();
        self.open(kind, pos, Role::Flow, mode);
    }

    /// Block 3: cancel its connect timer, dispose it (and the idle timer of the active one).
    pub(crate) fn dispose(&mut self, idx: usize) {
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

    pub(crate) fn dispose_all(&mut self) {
        for i in 0..4 {
            self.dispose(i);
        }
    }

    /// Block 5.
    pub(crate) fn stop_everything(&mut self) {
        self.dispose_all();
        for k in ALL_TIMERS {
            self.cancel_timer(k);
        }
    }

    pub(crate) fn state_change(
        &mut self,
        to: State,
        reason: &str,
        retry_in: Option<i64>,
        error: Option<&Failure>,
    ) {
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

    pub(crate) fn hold_in_force(&self) -> bool {
        matches!(self.hold_end, Some(h) if self.now < h)
    }

    pub(crate) fn pref_http_in_force(&self) -> bool {
        let (t, _) = preference::start(
            &self.pref,
            self.now_wall_ms(),
            self.cfg.preference_ttl_ms,
            self.cfg.ws,
            self.cfg.http,
        );
        t == "http"
    }

    pub(crate) fn remembers(&self) -> bool {
        self.wc() || self.cfg.remember_transport
    }

    /// Block 19, the adaptive short circuit: under websocket-first with
    /// adaptiveMultiple k > 0, the first report of the attempt's first
    /// websocket, still opening, while the short-circuit timer runs, moves
    /// the timer to its open + clamp(k × rtt, floor, shortCircuit) when
    /// earlier, never before now; anything else is ignored.
    fn on_dialed(&mut self, id: u64, rtt_ms: f64) {
        let k = self.cfg.adaptive_multiple;
        if self.cfg.policy != Policy::WebSocketFirst
            || k.is_nan()
            || k <= 0.0
            || self.state != State::Connecting
        {
            return;
        }
        let i = match self.find(id) {
            Some(i) => i,
            None => return,
        };
        let ok = matches!(&self.slots[i], Some(t) if t.role == Role::ShortCircuit && t.status == Status::Opening);
        let armed = self.timers[TimerKind::ShortCircuit.index()];
        let armed = match armed {
            Some(d) if ok && !self.att.dialed => d,
            _ => return,
        };
        self.att.dialed = true;
        let sc = if self.cfg.short_circuit_ms > 0.0 {
            self.cfg.short_circuit_ms
        } else {
            2000.0
        };
        let ceiling = ns(sc);
        // k × rtt in double precision on the rtt's whole nanoseconds,
        // rounded to the nearest nanosecond, halves away from zero.
        let head = round_ns(k * ns(rtt_ms) as f64)
            .min(ceiling)
            .max(ns(self.cfg.adaptive_floor_ms))
            .min(ceiling);
        let due = self.att.sc_start.saturating_add(head);
        if due >= armed {
            return;
        }
        self.start_timer_at(TimerKind::ShortCircuit, due.max(self.now));
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
                    if matches!(
                        self.state,
                        State::Connecting | State::Connected | State::Closing
                    ) {
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
            Event::Authorize => self.on_authorize(),
            Event::Dialed(id, rtt) => self.on_dialed(id, rtt),
            Event::Unknown => {}
        }
        std::mem::take(&mut self.out)
    }
}
