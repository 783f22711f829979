//! The service's own hosts (resolveHosts with "ably": false): the endpoint
//! is the primary host and fallbackHosts the fallback hosts; a host may be
//! one label and may carry a port (fixtures/README.md, "The host
//! decisions"). Ably's options are refused, naming the first given.

use crate::hosts::{err, is_ipv6, valid_host, FieldError, Hosts, Legacy};

/// A port: a decimal number from 1 to 65535 without leading zeros.
fn valid_port(p: &str) -> bool {
    !p.is_empty()
        && p.len() <= 5
        && p.bytes().all(|c| c.is_ascii_digit())
        && !p.starts_with('0')
        && p.parse::<u32>().is_ok_and(|n| n <= 65535)
}

/// "host:port" (one ':', a host before it, digits after it) or
/// "[address]:port": the host and the port, or None for any other form.
fn cut_port(h: &str) -> Option<(&str, &str, bool)> {
    if let Some(rest) = h.strip_prefix('[') {
        let end = rest.find(']')?;
        let port = rest[end + 1..].strip_prefix(':')?;
        if port.is_empty() || !port.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        return Some((&rest[..end], port, true));
    }
    let i = h.find(':')?;
    let (name, port) = (&h[..i], &h[i + 1..]);
    if name.is_empty()
        || name.contains(['[', ']'])
        || port.is_empty()
        || !port.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    Some((name, port, false))
}

/// A host as valid_host says (one label included), or a host and a port,
/// an IPv6 address then in brackets.
fn valid_own_host(h: &str) -> bool {
    match cut_port(h) {
        Some((name, port, true)) => is_ipv6(name) && valid_port(port),
        Some((name, port, false)) => valid_host(name) && valid_port(port),
        None => valid_host(h),
    }
}

/// resolveHosts without Ably's preset.
pub fn resolve_own_hosts(
    endpoint: &str,
    environment: &str,
    legacy: &Legacy,
    fallback_hosts: Option<&[String]>,
) -> Result<Hosts, FieldError> {
    for (field, given) in [
        ("environment", !environment.is_empty()),
        ("restHost", !legacy.rest_host.is_empty()),
        ("realtimeHost", !legacy.realtime_host.is_empty()),
        ("fallbackHostsUseDefault", legacy.use_default),
    ] {
        if given {
            return Err(err(field, "Ably's option: it needs Ably's preset"));
        }
    }
    if endpoint.is_empty() {
        return Err(err("endpoint", "required"));
    }
    let nonprod = endpoint.len() >= 8
        && endpoint.is_char_boundary(8)
        && endpoint[..8].eq_ignore_ascii_case("nonprod:");
    if nonprod && !matches!(cut_port(endpoint), Some((_, _, false))) {
        return Err(err("endpoint", "a routing policy needs Ably's preset"));
    }
    if !valid_own_host(endpoint) {
        return Err(err("endpoint", "not a host (and port)"));
    }
    let mut fallbacks: Vec<String> = Vec::new();
    for (i, h) in fallback_hosts.unwrap_or(&[]).iter().enumerate() {
        let field = format!("fallbackHosts[{}]", i);
        let l = h.to_ascii_lowercase();
        if !valid_own_host(h) || fallbacks.contains(&l) {
            return Err(FieldError {
                field,
                message: "not a host (and port), or listed twice".into(),
            });
        }
        fallbacks.push(l);
    }
    Ok(Hosts {
        primary: endpoint.to_ascii_lowercase(),
        fallbacks,
    })
}
