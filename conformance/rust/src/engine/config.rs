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
            first_retry_ms: 0.0,
        }
    }
}
