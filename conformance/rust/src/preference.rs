//! The transport preference: what is remembered, when it is in force, how an
//! attempt starts on it, and its persisted text (fixtures/preference.json).

pub const DEFAULT_TTL_MS: f64 = 86_400_000.0;
pub const MAX_AT: u64 = 9_007_199_254_740_991;

#[derive(Clone, Debug, PartialEq)]
pub struct Preference {
    pub transport: String, // "websocket" or "http"
    pub at_ms: f64,
    pub reason: String, // "connected" or "websocket-unstable"
}

/// Applies one event to the remembered preference.
pub fn apply(
    current: Option<Preference>,
    event: &str,
    transport: &str,
    at_ms: f64,
) -> Option<Preference> {
    match event {
        "connected" => {
            if transport == "websocket" || transport == "http" {
                Some(Preference {
                    transport: transport.to_string(),
                    at_ms,
                    reason: "connected".into(),
                })
            } else {
                current
            }
        }
        "websocket-unstable" => Some(Preference {
            transport: "http".into(),
            at_ms,
            reason: "websocket-unstable".into(),
        }),
        "attempt-failed" => match &current {
            Some(p) if p.transport == transport => None,
            _ => current,
        },
        "websocket-check-passed" => match &current {
            Some(p) if p.transport == "http" => None,
            _ => current,
        },
        "server-fallback" => None,
        _ => current,
    }
}

/// The TTL in force: 0 (or less) means the default.
pub fn ttl_or_default(ttl_ms: f64) -> f64 {
    if ttl_ms > 0.0 {
        ttl_ms
    } else {
        DEFAULT_TTL_MS
    }
}

pub fn in_force(p: &Option<Preference>, now_ms: f64, ttl_ms: f64) -> bool {
    match p {
        Some(p) => {
            (p.transport == "websocket" || p.transport == "http")
                && now_ms < p.at_ms + ttl_or_default(ttl_ms)
        }
        None => false,
    }
}

/// How an attempt starts: (transport or "none", check the websocket in the background).
pub fn start(
    p: &Option<Preference>,
    now_ms: f64,
    ttl_ms: f64,
    ws: bool,
    http: bool,
) -> (&'static str, bool) {
    if !in_force(p, now_ms, ttl_ms) {
        return ("none", false);
    }
    let p = p.as_ref().unwrap();
    if p.transport == "websocket" && ws {
        return ("websocket", false);
    }
    if p.transport == "http" && http {
        return ("http", ws);
    }
    ("none", false)
}

/// Decodes the persisted text; Err names the first bad part.
pub fn decode(text: &str) -> Result<Option<Preference>, &'static str> {
    if text.is_empty() {
        return Ok(None);
    }
    if text.len() > 64 {
        return Err("Preference");
    }
    let parts: Vec<&str> = text.split(' ').collect();
    if parts.len() != 4 {
        return Err("Preference");
    }
    if parts[0] != "v1" {
        return Err("Preference");
    }
    if parts[1] != "websocket" && parts[1] != "http" {
        return Err("Preference.Transport");
    }
    let at = parts[2];
    if at.is_empty() || !at.bytes().all(|c| c.is_ascii_digit()) {
        return Err("Preference.At");
    }
    let digits = at.trim_start_matches('0');
    if digits.len() > 16 {
        return Err("Preference.At");
    }
    let v: u64 = if digits.is_empty() {
        0
    } else {
        digits.parse().map_err(|_| "Preference.At")?
    };
    if v > MAX_AT {
        return Err("Preference.At");
    }
    if parts[3] != "connected" && parts[3] != "websocket-unstable" {
        return Err("Preference.Reason");
    }
    Ok(Some(Preference {
        transport: parts[1].to_string(),
        at_ms: v as f64,
        reason: parts[3].to_string(),
    }))
}

pub fn encode(p: &Option<Preference>) -> String {
    match p {
        None => String::new(),
        Some(p) => format!("v1 {} {} {}", p.transport, p.at_ms as u64, p.reason),
    }
}
