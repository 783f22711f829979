//! connect, close, fatal and authorize (RTN11, RTN12, RTN14b, RTC8).

use super::*;
use crate::events::Failure;

impl Engine {
    pub(crate) fn on_connect(&mut self) {
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

    pub(crate) fn on_close(&mut self) {
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
                let d = self.job(self.cfg.closing_timeout_ms);
                self.start_timer(TimerKind::Close, d);
            }
            _ => {}
        }
    }

    pub(crate) fn on_fatal(&mut self, f: Failure) {
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

    /// RTC8: CONNECTING halts the attempt for a renewal (RTC8b); the
    /// states of RTC8c (and INITIALIZED) connect with the renewal first;
    /// CONNECTED and CLOSING do nothing. canRenewToken does not matter.
    pub(crate) fn on_authorize(&mut self) {
        match self.state {
            State::Connecting => {
                // Every attempt halted, then block 6 without its state
                // change: a new attempt (its own record: no last failure,
                // no checks, no host order) that starts with the renewal.
                self.dispose_all();
                self.cancel_attempt_timers();
                self.renew_next = true;
                self.start_attempt("", false);
            }
            State::Initialized
            | State::Disconnected
            | State::Suspended
            | State::Closed
            | State::Failed => {
                self.renew_next = true;
                self.on_connect();
            }
            State::Connected | State::Closing => {}
        }
    }
}
