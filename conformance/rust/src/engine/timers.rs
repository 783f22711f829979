//! Timers firing.

use super::*;
use crate::events::Failure;

impl Engine {
    pub(crate) fn on_timer(&mut self, name: &str, id: u64) {
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
                    let reason = if self.window_due {
                        "reconnect"
                    } else {
                        "retry"
                    };
                    self.start_attempt(reason, false);
                }
            }
            TimerKind::StateTtl => match self.state {
                State::Disconnected => {
                    self.cancel_timer(TimerKind::Retry);
                    self.ttl_passed = true;
                    let e = self
                        .state_error
                        .clone()
                        .or_else(|| Some(Failure::new("timeout")));
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
                    let e = self
                        .att
                        .last_failure
                        .clone()
                        .or_else(|| Some(Failure::new("timeout")));
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
                        let ws_in_flight = self
                            .slots
                            .iter()
                            .any(|s| matches!(s, Some(o) if o.kind == Kind::Ws));
                        if t.kind == Kind::Http && !ws_in_flight {
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
            }
            TimerKind::Idle => {
                let limit = self.idle_limit();
                if self.state == State::Connected && limit > 0 {
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
    pub(crate) fn switch_to_http(&mut self, give_up: bool) {
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
}
