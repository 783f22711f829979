//! The configuration a scenario may set, with docs/engine.md's defaults.

use super::*;

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
    /// The jobs of realtimeRequestTimeout (0 means it) and the
    /// client-side idle limit (0 means none).
    pub connect_timeout_ms: f64,
    pub idle_slack_ms: f64,
    pub closing_timeout_ms: f64,
    pub renewal_timeout_ms: f64,
    pub idle_limit_ms: f64,
    /// The retry family ("rtb1" or a name of retry.json's families, as the
    /// scenarios spell it) and its parameters.
    pub retry_family: String,
    pub retry_base_ms: f64,
    pub retry_cap_ms: f64,
    pub retry_multiplier: f64,
    pub retry_jitter: f64,
    /// "on", "off" or "limited", and the limit's interval.
    pub immediate_reconnect: String,
    pub immediate_interval_ms: f64,
    /// The adaptive short circuit's multiple k (0: off) and floor.
    pub adaptive_multiple: f64,
    pub adaptive_floor_ms: f64,
    /// The first-retry rule's period (firstRetryMs); 0 is off.
    pub first_retry_ms: f64,
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
            connect_timeout_ms: 0.0,
            idle_slack_ms: 0.0,
            closing_timeout_ms: 0.0,
            renewal_timeout_ms: 0.0,
            idle_limit_ms: 0.0,
            retry_family: "rtb1".into(),
            retry_base_ms: 0.0,
            retry_cap_ms: 0.0,
            retry_multiplier: 0.0,
            retry_jitter: 0.0,
            immediate_reconnect: "on".into(),
            immediate_interval_ms: 0.0,
            adaptive_multiple: 0.0,
            adaptive_floor_ms: 0.0,
            first_retry_ms: 0.0,
        }
    }
}
