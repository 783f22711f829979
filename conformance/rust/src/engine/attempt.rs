//! Starting and ending attempts: the START rows, blocks 6, 7 and 10's reconnect part.

use super::*;
use crate::events::Failure;

impl Engine {
    // ---- entering DISCONNECTED / SUSPENDED --------------------------------

    /// The first-retry rule (firstRetryMs P > 0): within
    /// disconnectedRetryTimeout of the immediate reconnect, the first retry
    /// waits P × u (one draw, clamped, rounded), each later one P (no
    /// draw), no retry number taken; None when it does not apply (and past
    /// disconnectedRetryTimeout it ends).
    fn early_retry(&mut self) -> Option<i64> {
        let (from, n) = self.early?;
        if self.now - from >= ns(self.cfg.disconnected_retry_ms) {
            self.early = None;
            return None;
        }
        self.early = Some((from, n + 1));
        if n > 0 {
            return Some(ns(self.cfg.first_retry_ms));
        }
        let u = clamp_unit(self.draw());
        Some(round_ns(ns(self.cfg.first_retry_ms) as f64 * u))
    }

    pub(crate) fn enter_disconnected_rtb1(&mut self, reason: &str, error: Option<Failure>) {
        if let Some(d) = self.early_retry() {
            self.state_change(State::Disconnected, reason, Some(d), error.as_ref());
            self.start_timer(TimerKind::Retry, d);
            return;
        }
        self.retry_n += 1;
        let u = self.draw();
        let family = match self.cfg.retry_family.as_str() {
            "full-jitter" => Some("fullJitter"),
            "equal-jitter" => Some("equalJitter"),
            "grpc" => Some("grpc"),
            "decorrelated-jitter" => Some("decorrelated"),
            _ => None,
        };
        if let Some(family) = family {
            // The configured retry family (retry.json); decorrelated jitter
            // reads the last such delay.
            let c = &self.cfg;
            let input = crate::json::obj(vec![
                ("baseMs", crate::json::num(c.retry_base_ms)),
                ("capMs", crate::json::num(c.retry_cap_ms)),
                ("multiplier", crate::json::num(c.retry_multiplier)),
                ("jitter", crate::json::num(c.retry_jitter)),
                ("attempt", crate::json::num(self.retry_n as f64)),
                ("previousMs", crate::json::num(self.last_retry as f64 / 1e6)),
            ]);
            let d = crate::retry::family_ns(family, &input, u).unwrap_or(0);
            self.last_retry = d;
            self.state_change(State::Disconnected, reason, Some(d), error.as_ref());
            self.start_timer(TimerKind::Retry, d);
            return;
        }
        let spread = if self.cfg.retry_spread > 0.0 {
            self.cfg.retry_spread
        } else {
            0.2
        };
        let d = delay_ns(
            ns(self.cfg.disconnected_retry_ms) as f64,
            self.retry_n as f64,
            u,
            spread,
        );
        self.state_change(State::Disconnected, reason, Some(d), error.as_ref());
        self.start_timer(TimerKind::Retry, d);
    }

    pub(crate) fn enter_suspended(&mut self, reason: &str, error: Option<Failure>) {
        self.retry_n = 0;
        self.early = None;
        self.window_due = false;
        let base = ns(self.cfg.suspended_retry_ms);
        let d = if self.cfg.suspended_spread > 0.0 {
            let u = clamp_unit(self.draw());
            round_ns(base as f64 * (1.0 - self.cfg.suspended_spread * u))
        } else {
            base
        };
        // RTN14e: SUSPENDED always carries a reason, a timeout when none failed
        let error = error.or_else(|| Some(Failure::new("timeout")));
        self.state_change(State::Suspended, reason, Some(d), error.as_ref());
        self.start_timer(TimerKind::Retry, d);
    }

    /// Block 7: the attempt ends.
    pub(crate) fn end_attempt(&mut self, reason: &str, error: Option<Failure>) {
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
    pub(crate) fn reconnect_part(&mut self, reason: &str, error: Option<Failure>) {
        let gap = if self.cfg.immediate_reconnect == "limited" {
            ns(self.cfg.immediate_interval_ms)
        } else {
            1000 * MS
        };
        let rate_limited = self.cfg.immediate_reconnect == "off"
            || matches!(self.last_immediate, Some(t) if self.now - t < gap);
        if rate_limited {
            self.end_attempt(reason, error);
            return;
        }
        // the first-retry rule shortens RTB1's retries only
        self.early = if self.cfg.first_retry_ms > 0.0 && self.cfg.retry_family == "rtb1" {
            Some((self.now, 0))
        } else {
            None
        };
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

    pub(crate) fn state_ttl_duration(&self) -> i64 {
        self.server_ttl
            .unwrap_or_else(|| ns(self.cfg.connection_state_ttl_ms))
    }

    // ---- starting an attempt (block 6, the START rows) ---------------------

    pub(crate) fn start_attempt(&mut self, reason: &str, followed_renewal: bool) {
        if self.state != State::Connecting {
            self.state_change(State::Connecting, reason, None, None);
        }
        self.bg_check = None;
        self.window_due = false;
        self.att = Attempt::new();
        self.att.followed_renewal = followed_renewal;
        if self.renew_next {
            // The renewal comes first; a pending RTN17f1 redirect waits for
            // the attempt that opens transports.
            self.renew_next = false;
            self.ask_renewal();
            return;
        }
        let redirect = self.redirect;
        self.redirect = false;
        let has_fallback = !self.cfg.fallbacks.is_empty();
        let mode = self.mode();
        if self.wc() {
            let d = ns(self.cfg.give_up_ms) + self.job(self.cfg.connect_timeout_ms);
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

    pub(crate) fn start_walk_timers(&mut self) {
        let slow = ns(self.cfg.slow_ms);
        let give_up = ns(self.cfg.give_up_ms);
        self.start_timer(TimerKind::WebSocketSlow, slow);
        self.start_timer(TimerKind::WebSocketGiveUp, give_up);
    }

    /// Websocket-first and HTTP-first: the hold, a remembered HTTP, then the policy's own choice.
    pub(crate) fn policy_choice(&mut self, pos: usize) {
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
                    let sc = if self.cfg.short_circuit_ms > 0.0 {
                        self.cfg.short_circuit_ms
                    } else {
                        2000.0
                    };
                    self.start_timer(TimerKind::ShortCircuit, ns(sc));
                    self.att.sc_start = self.now;
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

    pub(crate) fn ask_check(&mut self, purpose: Purpose) {
        let c = self.new_check();
        self.emit(format!("check C{}", c));
        self.att.conn_check = Some((c, purpose));
        let d = ns(self.cfg.http_request_ms);
        self.start_timer(TimerKind::ConnectivityCheck, d);
    }

    pub(crate) fn ask_renewal(&mut self) {
        let c = self.new_check();
        self.emit(format!("renew-token C{}", c));
        self.att.renewal = Some(c);
        let d = self.job(self.cfg.renewal_timeout_ms);
        self.start_timer(TimerKind::RenewToken, d);
    }

    pub(crate) fn ask_walk_check(&mut self) {
        let c = self.new_check();
        self.emit(format!("check-websocket C{}", c));
        self.att.walk_check = WalkCheck::Pending(c);
    }

    pub(crate) fn fresh(&mut self) {
        self.retry_n = 0;
        self.early = None;
        self.state_error = None;
        self.ever_connected = false;
        self.ttl_passed = false;
        self.redirect = false;
        self.server_ttl = None;
        self.window_due = false;
    }

    pub(crate) fn something_in_flight(&self) -> bool {
        self.live() || self.att.conn_check.is_some() || self.running(TimerKind::ShortCircuit)
    }
}
