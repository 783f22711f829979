//! Host fallback: endpoint → hosts (REC1, REC2), qualifying failures
//! (RSC15l, RTN17f), the connectivity answer, the host order and the
//! preferred host (docs/hosts.md, fixtures/README.md "The host decisions").

pub struct Hosts {
    pub primary: String,
    pub fallbacks: Vec<String>,
}

pub struct FieldError {
    pub field: String,
    pub message: String,
}

pub fn err(field: &str, message: &str) -> FieldError {
    FieldError {
        field: field.to_string(),
        message: message.to_string(),
    }
}

fn is_label(l: &str) -> bool {
    let b = l.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
        && b[0] != b'-'
        && b[b.len() - 1] != b'-'
}

fn is_ipv4(t: &str) -> bool {
    let parts: Vec<&str> = t.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|c| c.is_ascii_digit())
                && !(p.len() > 1 && p.starts_with('0'))
                && p.parse::<u32>().map(|v| v <= 255).unwrap_or(false)
        })
}

fn is_hex_group(g: &str) -> bool {
    !g.is_empty() && g.len() <= 4 && g.bytes().all(|c| c.is_ascii_hexdigit())
}

pub fn is_ipv6(t: &str) -> bool {
    if !t.is_ascii() || t.contains("[") || t.contains("%") {
        return false;
    }
    let (head, tail, compressed) = match t.find("::") {
        Some(i) => {
            if t[i + 2..].contains("::") {
                return false;
            }
            (&t[..i], &t[i + 2..], true)
        }
        None => (t, "", false),
    };
    let split = |s: &str| -> Option<Vec<String>> {
        if s.is_empty() {
            Some(Vec::new())
        } else {
            Some(s.split(':').map(|x| x.to_string()).collect())
        }
    };
    let mut groups = 0usize;
    let h = match split(head) {
        Some(v) => v,
        None => return false,
    };
    let tl = match split(tail) {
        Some(v) => v,
        None => return false,
    };
    // The IPv4 tail may only be the very last piece.
    let all: Vec<&String> = h.iter().chain(tl.iter()).collect();
    for (i, g) in all.iter().enumerate() {
        let last = i == all.len() - 1;
        if last && g.contains('.') {
            if !is_ipv4(g) {
                return false;
            }
            groups += 2;
        } else if is_hex_group(g) {
            groups += 1;
        } else {
            return false;
        }
    }
    if compressed {
        groups < 8
    } else {
        groups == 8
    }
}

/// A host name: a DNS name or an IP address (fixtures/README.md).
pub fn valid_host(h: &str) -> bool {
    if h.is_empty() || !h.is_ascii() || h.len() > 253 {
        return false;
    }
    if h.contains(':') {
        return is_ipv6(h);
    }
    let labels: Vec<&str> = h.split('.').collect();
    if !labels.iter().all(|l| is_label(l)) {
        return false;
    }
    let last = labels[labels.len() - 1];
    if last.bytes().all(|c| c.is_ascii_digit()) {
        return is_ipv4(h);
    }
    true
}

fn lower(t: &str) -> String {
    t.to_ascii_lowercase()
}

fn derived(id: &str, nonprod: bool) -> Hosts {
    if nonprod {
        Hosts {
            primary: format!("{}.realtime.ably-nonprod.net", id),
            fallbacks: ["a", "b", "c", "d", "e"]
                .iter()
                .map(|x| format!("{}.{}.fallback.ably-realtime-nonprod.com", id, x))
                .collect(),
        }
    } else {
        Hosts {
            primary: format!("{}.realtime.ably.net", id),
            fallbacks: ["a", "b", "c", "d", "e"]
                .iter()
                .map(|x| format!("{}.{}.fallback.ably-realtime.com", id, x))
                .collect(),
        }
    }
}

/// resolveHosts with Ably's rules; `fallback_hosts` None means the option is not set.
pub fn resolve_hosts(
    endpoint: &str,
    environment: &str,
    fallback_hosts: Option<&[String]>,
) -> Result<Hosts, FieldError> {
    resolve_hosts_legacy(endpoint, environment, &Legacy::default(), fallback_hosts)
}

/// Ably's deprecated options: restHost and realtimeHost ("" not set) and
/// fallbackHostsUseDefault.
#[derive(Default)]
pub struct Legacy {
    pub rest_host: String,
    pub realtime_host: String,
    pub use_default: bool,
}

/// The option sets the spec calls invalid, naming the deprecated option:
/// REC1b1, REC1c1, REC2a1.
fn legacy_conflict(
    endpoint: &str,
    environment: &str,
    l: &Legacy,
    fallbacks_set: bool,
) -> Result<(), FieldError> {
    if !endpoint.is_empty() {
        for (field, given) in [
            ("environment", !environment.is_empty()),
            ("restHost", !l.rest_host.is_empty()),
            ("realtimeHost", !l.realtime_host.is_empty()),
            ("fallbackHostsUseDefault", l.use_default),
        ] {
            if given {
                return Err(err(field, "cannot be combined with endpoint (REC1b1)"));
            }
        }
    }
    if !environment.is_empty() {
        for (field, given) in [
            ("restHost", !l.rest_host.is_empty()),
            ("realtimeHost", !l.realtime_host.is_empty()),
        ] {
            if given {
                return Err(err(field, "cannot be combined with environment (REC1c1)"));
            }
        }
    }
    if fallbacks_set && l.use_default {
        return Err(err(
            "fallbackHostsUseDefault",
            "cannot be combined with fallbackHosts (REC2a1)",
        ));
    }
    Ok(())
}

/// resolveHosts with Ably's rules and its deprecated options.
pub fn resolve_hosts_legacy(
    endpoint: &str,
    environment: &str,
    legacy: &Legacy,
    fallback_hosts: Option<&[String]>,
) -> Result<Hosts, FieldError> {
    let mut hosts;
    let mut explicit = false;
    legacy_conflict(endpoint, environment, legacy, fallback_hosts.is_some())?;
    if !legacy.rest_host.is_empty() || !legacy.realtime_host.is_empty() {
        // REC1d1, REC1d2: restHost, else realtimeHost (both validated);
        // REC2c6: no fallback hosts.
        for (field, h) in [
            ("restHost", &legacy.rest_host),
            ("realtimeHost", &legacy.realtime_host),
        ] {
            if !h.is_empty() && !valid_host(h) {
                return Err(err(field, "not a valid host name"));
            }
        }
        let primary = if legacy.rest_host.is_empty() {
            &legacy.realtime_host
        } else {
            &legacy.rest_host
        };
        hosts = Hosts {
            primary: lower(primary),
            fallbacks: Vec::new(),
        };
    } else if !endpoint.is_empty() {
        let low = lower(endpoint);
        if low.len() >= 8 && low.is_char_boundary(8) && low[..8].eq_ignore_ascii_case("nonprod:") {
            let id = &endpoint[8..];
            if !is_label(id) {
                return Err(err("endpoint", "a routing policy id is one DNS label"));
            }
            hosts = derived(&lower(id), true);
        } else if endpoint.contains('.') || endpoint.contains(':') || low == "localhost" {
            if !valid_host(endpoint) {
                return Err(err("endpoint", "not a valid host name"));
            }
            hosts = Hosts {
                primary: low,
                fallbacks: Vec::new(),
            };
            explicit = true;
        } else {
            if !is_label(endpoint) {
                return Err(err("endpoint", "a routing policy id is one DNS label"));
            }
            hosts = derived(&low, false);
        }
    } else if !environment.is_empty() {
        if !is_label(environment) {
            return Err(err("environment", "an environment is one DNS label"));
        }
        let low = lower(environment);
        let id = if low == "production" {
            "main".to_string()
        } else {
            low
        };
        hosts = derived(&id, false);
    } else {
        hosts = derived("main", false);
    }
    let _ = explicit;
    if legacy.use_default {
        hosts.fallbacks = derived("main", false).fallbacks; // REC2b
    }
    if let Some(list) = fallback_hosts {
        let mut out: Vec<String> = Vec::new();
        for (i, h) in list.iter().enumerate() {
            let field = format!("fallbackHosts[{}]", i);
            if !valid_host(h) {
                return Err(FieldError {
                    field,
                    message: "not a valid host name".into(),
                });
            }
            let l = lower(h);
            // REC2a2: the option's value; a fallback host may be the primary.
            if out.contains(&l) {
                return Err(FieldError {
                    field,
                    message: "a duplicate host".into(),
                });
            }
            out.push(l);
        }
        hosts.fallbacks = out;
    }
    Ok(hosts)
}

/// shouldFallback: does this failure move to a fallback host?
pub fn should_fallback(kind: &str, status: i64, server: &str) -> bool {
    match kind {
        "dns" | "unreachable" | "refused" | "timeout" => true,
        "http-status" => {
            (500..=504).contains(&status)
                || (status >= 400
                    && server
                        .trim_matches(|c| c == ' ' || c == '\t')
                        .eq_ignore_ascii_case("CloudFront"))
        }
        "disconnected" => (500..=504).contains(&status),
        _ => false,
    }
}

/// connectivityUp: 2xx and a body that is exactly "yes" after ASCII white space.
pub fn connectivity_up(status: i64, body: &str) -> bool {
    (200..=299).contains(&status)
        && body.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')) == "yes"
}

/// The index ⌊u·r⌋ of r remaining hosts, u clamped into [0, 1).
pub fn pick_index(u: f64, r: usize) -> usize {
    if r == 0 {
        return 0;
    }
    if u.is_nan() || u <= 0.0 {
        return 0;
    }
    let i = (u * r as f64).floor();
    if i >= r as f64 {
        r - 1
    } else {
        i as usize
    }
}

/// The fallback hosts in drawn order (at most `max`).
pub fn draw_order(fallbacks: &[String], max: usize, mut draw: impl FnMut() -> f64) -> Vec<String> {
    let mut rest: Vec<String> = fallbacks.to_vec();
    let mut out = Vec::new();
    let n = max.min(fallbacks.len());
    for _ in 0..n {
        let u = draw();
        let i = pick_index(u, rest.len());
        out.push(rest.remove(i));
    }
    out
}

/// hostOrder: the primary, then the drawn fallbacks.
pub fn host_order(primary: &str, fallbacks: &[String], max: f64, draws: &[f64]) -> Vec<String> {
    let max = if max.is_nan() || max < 0.0 {
        0
    } else {
        max as usize
    };
    let mut k = 0;
    let mut out = vec![primary.to_string()];
    out.extend(draw_order(fallbacks, max, || {
        let u = draws.get(k).copied().unwrap_or(0.0);
        k += 1;
        u
    }));
    out
}

/// The preferred-host cache (RSC15f).
pub struct PreferredHost {
    pub primary: String,
    host: Option<(String, f64)>,
}

impl PreferredHost {
    pub fn new(primary: &str) -> Self {
        PreferredHost {
            primary: primary.to_string(),
            host: None,
        }
    }
    pub fn fallback_succeeded(&mut self, host: &str, at_ms: f64, ttl_ms: f64) {
        if ttl_ms <= 0.0 {
            self.host = None;
        } else {
            self.host = Some((host.to_string(), at_ms + ttl_ms));
        }
    }
    pub fn failed(&mut self, host: &str, kind: &str, status: i64) {
        if let Some((h, _)) = &self.host {
            if h == host && should_fallback(kind, status, "") {
                self.host = None;
            }
        }
    }
    pub fn first(&mut self, at_ms: f64) -> String {
        if let Some((h, until)) = &self.host {
            if at_ms < *until {
                return h.clone();
            }
            self.host = None;
        }
        self.primary.clone()
    }
}
