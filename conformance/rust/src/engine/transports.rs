//! Transports turning viable, activating, lost and dropping (blocks 8–11, 14).

use super::*;
use crate::events::{Details, Failure};

impl Engine {
    /// Block 9. Returns whether the transport is now pending.
    pub(crate) fn viable(&mut self, idx: usize) -> bool {
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
        let (decision, rule) =
            crate::transport::decide_pending(t.kind.name(), t.mode, pending, active);
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

    pub(crate) fn on_connected(&mut self, id: u64, d: Details) {
        if !matches!(
            self.state,
            State::Connecting | State::Connected | State::Closing
        ) {
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

    pub(crate) fn activate_while_closing(&mut self, idx: usize) {
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
        let d = self.job(self.cfg.closing_timeout_ms);
        self.start_timer(TimerKind::Close, d);
    }

    /// Block 8.
    pub(crate) fn activate(&mut self, idx: usize, d: Details) {
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
                    t.kind == Kind::Ws
                        || (o.kind == Kind::Ws
                            && o.mode != "upgrade"
                            && o.status == Status::Opening)
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
            self.early = None;
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
        let dur = self.idle_limit();
        if dur > 0 {
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
                self.open_on(
                    Kind::Ws,
                    t.host.clone(),
                    t.host_pos,
                    Role::Upgrade,
                    "upgrade",
                );
            }
        }
    }

    pub(crate) fn on_lost(&mut self, id: u64, f: Option<Failure>) {
        let idx = match self.find(id) {
            Some(i) => i,
            None => return,
        };
        self.transport_lost(idx, f);
    }

    pub(crate) fn transport_lost(&mut self, idx: usize, f: Option<Failure>) {
        let t = self.slots[idx].clone().unwrap();
        let token = matches!(&f, Some(x) if x.kind == "token");
        if token
            && (self.state == State::Connecting
                || (self.state == State::Connected && t.status == Status::Active))
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

    pub(crate) fn token_error(&mut self, idx: usize, f: Failure) {
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
        // The websocket walk's check is forgotten with the attempt (its
        // answer is then stale).
        self.att.walk_check = WalkCheck::None;
        // The attempt that started on a remembered HTTP is abandoned: the
        // renewal's failure is not that transport's, and its background
        // websocket check ends with it (a late up forgets nothing).
        self.att.pref_started = false;
        self.bg_check = None;
        self.ask_renewal();
    }

    /// Block 10: the active transport drops while CONNECTED.
    pub(crate) fn drop_active(&mut self, f: Option<Failure>, count: bool) {
        let active_kind = self
            .with_status(Status::Active)
            .map(|i| self.slots[i].as_ref().unwrap().kind);
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

    pub(crate) fn count_flap(&mut self) {
        self.flap_drops.push(self.now);
        let k = self.cfg.flap_drops.max(1);
        if self.flap_drops.len() > k {
            let extra = self.flap_drops.len() - k;
            self.flap_drops.drain(0..extra);
        }
        if self.flap_drops.len() == k
            && self.now - self.flap_drops[0] <= ns(self.cfg.flap_window_ms)
        {
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
    pub(crate) fn lose(&mut self, idx: usize, f: Option<Failure>) {
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
            let redirect =
                matches!(&f, Some(x) if x.is_disconnected_5xx()) && !self.cfg.fallbacks.is_empty();
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
        if self.wc()
            && self.att.ws_walk
            && t.role == Role::Flow
            && self.att.walk_check == WalkCheck::Failed
        {
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
}
