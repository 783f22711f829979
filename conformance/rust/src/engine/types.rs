//! The engine's vocabulary: states, transports, timers, per-attempt records.

use super::*;

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
    pub(crate) fn name(self) -> &'static str {
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
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Ws => "websocket",
            Kind::Http => "http",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    ShortCircuit,
    Flow,
    Upgrade,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Status {
    Opening,
    Pending,
    Active,
}

#[derive(Clone, Debug)]
pub(crate) struct Transport {
    pub(crate) id: u64,
    pub(crate) kind: Kind,
    pub(crate) mode: &'static str,
    pub(crate) host: String,
    pub(crate) host_pos: usize,
    pub(crate) role: Role,
    pub(crate) status: Status,
    pub(crate) connect_timer: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TimerKind {
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

pub(crate) const ALL_TIMERS: [TimerKind; 12] = [
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

pub(crate) const ATTEMPT_TIMERS: [TimerKind; 7] = [
    TimerKind::ShortCircuit,
    TimerKind::ConnectivityCheck,
    TimerKind::WebSocketSlow,
    TimerKind::WebSocketGiveUp,
    TimerKind::Attempt,
    TimerKind::SlowCheck,
    TimerKind::RenewToken,
];

impl TimerKind {
    pub(crate) fn name(self) -> &'static str {
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
    pub(crate) fn index(self) -> usize {
        ALL_TIMERS.iter().position(|k| *k == self).unwrap()
    }
    pub(crate) fn from_name(n: &str) -> Option<TimerKind> {
        ALL_TIMERS.iter().copied().find(|k| k.name() == n)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Purpose {
    Fallback,
    Redirect,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum WalkCheck {
    None,
    Pending(u64),
    Passed,
    Failed,
}

/// What one attempt keeps; reset at every attempt start.
#[derive(Clone, Debug)]
pub(crate) struct Attempt {
    pub(crate) last_failure: Option<Failure>,
    pub(crate) flow_kind: Kind,
    pub(crate) flow_started: bool,
    pub(crate) flow_pos: usize,
    pub(crate) first_pos: usize,
    pub(crate) displaced: Option<usize>,
    pub(crate) conn_check: Option<(u64, Purpose)>,
    pub(crate) ws_walk: bool,
    pub(crate) walk_check: WalkCheck,
    pub(crate) slow_check: Option<u64>,
    pub(crate) order: Option<Vec<String>>,
    pub(crate) pref_started: bool,
    pub(crate) renewal: Option<u64>,
    pub(crate) followed_renewal: bool,
    /// When the short-circuit websocket opened (ns), and whether it
    /// reported its dial (the adaptive short circuit).
    pub(crate) sc_start: i64,
    pub(crate) dialed: bool,
}

impl Attempt {
    pub(crate) fn new() -> Attempt {
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
            sc_start: 0,
            dialed: false,
        }
    }
}
