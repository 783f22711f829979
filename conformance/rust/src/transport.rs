//! Transport fallback: the setTransportPending rules and the websocket-first
//! choice (docs/transport.md).

pub const DEFAULT_SHORT_CIRCUIT_MS: f64 = 2000.0;

/// decidePending: (decision, rule).
pub fn decide_pending(
    candidate: &str,
    mode: &str,
    pending: &str,
    active: &str,
) -> (&'static str, i64) {
    let kind_ok = |k: &str| matches!(k, "none" | "websocket" | "http");
    let mode_ok = matches!(mode, "clean" | "resume" | "recover" | "upgrade");
    if !matches!(candidate, "websocket" | "http")
        || !mode_ok
        || !kind_ok(pending)
        || !kind_ok(active)
    {
        return ("discard-candidate", 0);
    }
    if candidate == "http" && (pending == "websocket" || active == "websocket") {
        return ("discard-candidate", 1);
    }
    if candidate == "websocket" && pending == "http" {
        return ("replace-pending", 2);
    }
    if candidate == "websocket" && mode != "upgrade" && active == "http" {
        return ("discard-candidate", 3);
    }
    ("proceed", 4)
}

/// chooseTransport: (transport, shortCircuitMs).
pub fn choose_transport(ws: bool, http: bool, short_circuit_ms: f64) -> (&'static str, f64) {
    let sc = if short_circuit_ms > 0.0 {
        short_circuit_ms
    } else {
        DEFAULT_SHORT_CIRCUIT_MS
    };
    match (ws, http) {
        (true, true) => ("websocket", sc),
        (true, false) => ("websocket", 0.0),
        (false, true) => ("http", 0.0),
        (false, false) => ("none", 0.0),
    }
}

/// httpOnWebSocketFailure and httpOnShortCircuit.
pub fn start_http(http_available: bool, http_started: bool, pending: &str, active: &str) -> bool {
    http_available && !http_started && pending == "none" && active == "none"
}

/// upgradeAfterActivation: (transport, mode).
pub fn upgrade_after_activation(
    activated: &str,
    ws_available: bool,
) -> (&'static str, &'static str) {
    if activated == "http" && ws_available {
        ("websocket", "upgrade")
    } else {
        // No upgrade: no transport, and the mode's zero value, clean.
        ("none", "clean")
    }
}
