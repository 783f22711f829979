//! Check answers, the network, what the server says, token renewals.

use super::*;
use crate::events::{Details, Failure};

impl Engine {
    pub(crate) fn on_connectivity(&mut self, c: u64, up: bool) {
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

    pub(crate) fn on_ws_check(&mut self, c: u64, up: bool) {
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
            // Only while the attempt connects on HTTP (a renewal in flight
            // has ended the attempt's background check: token_error).
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
            } else if self.with_status(Status::Pending).is_none()
                && self.with_status(Status::Active).is_none()
            {
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
            self.att.walk_check = if up {
                WalkCheck::Passed
            } else {
                WalkCheck::Failed
            };
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

    pub(crate) fn on_network_up(&mut self) {
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

    pub(crate) fn on_network_down(&mut self) {
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

    pub(crate) fn on_details(&mut self, id: u64, d: Details) {
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
        let dur = self.idle_limit();
        if dur > 0 {
            self.start_timer(TimerKind::Idle, dur);
        } else {
            self.cancel_timer(TimerKind::Idle);
        }
    }

    pub(crate) fn on_activity(&mut self, id: u64, at: Option<f64>) {
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

    pub(crate) fn on_token(&mut self, c: u64, f: Option<Failure>) {
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
