//! The retry families other protocols use (fixtures/retry.json): capped
//! exponential with full and with equal jitter, gRPC's connection backoff
//! and decorrelated jitter, in float64 on whole nanoseconds, each operation
//! in the order the file's decisions give.

use crate::backoff::{attempt_number, clamp_unit, ms_to_ns, ns_to_ms, round_ns};
use crate::json::Value;

/// A millisecond parameter as float64 whole nanoseconds; negative (or NaN)
/// counts as 0.
fn param_ns(input: &Value, key: &str) -> f64 {
    let ms = if input.has(key) {
        input.num_of(key)
    } else {
        0.0
    };
    if ms.is_nan() || ms <= 0.0 {
        return 0.0;
    }
    ms_to_ns(ms).min(9223372036854775808.0)
}

/// 2^k exactly for 0 ≤ k ≤ 1023, +inf beyond.
fn pow2(k: f64) -> f64 {
    if k > 1023.0 {
        f64::INFINITY
    } else {
        f64::from_bits(((k as u64) + 1023) << 52)
    }
}

/// min(cap, base × 2^(n−1)).
fn ceiling(input: &Value) -> f64 {
    let n = attempt_number(input.num_of("attempt"));
    let base = param_ns(input, "baseMs");
    let e = if base > 0.0 {
        base * pow2(n - 1.0)
    } else {
        0.0
    };
    param_ns(input, "capMs").min(e)
}

fn clamp_multiplier(m: f64) -> f64 {
    if m.is_nan() || m <= 1.0 {
        1.0
    } else {
        m.clamp(1.01, 100.0)
    }
}

/// The delay of family at the draw u, in whole nanoseconds.
pub fn family_ns(family: &str, input: &Value, u: f64) -> Result<i64, String> {
    let u = clamp_unit(u);
    let x = match family {
        "fullJitter" => ceiling(input) * u,
        "equalJitter" => {
            let h = ceiling(input) * 0.5;
            h + h * u
        }
        "grpc" => {
            let cap = param_ns(input, "capMs");
            let mut b = param_ns(input, "baseMs").min(cap);
            let m = clamp_multiplier(input.num_of("multiplier"));
            let n = attempt_number(input.num_of("attempt"));
            let mut k = n;
            while k > 1.0 && b < cap {
                let next = (b * m).min(cap);
                if next == b {
                    break;
                }
                b = next;
                k -= 1.0;
            }
            if n <= 1.0 {
                b
            } else {
                let j = clamp_unit(input.num_of("jitter"));
                b * (1.0 + j * (2.0 * u - 1.0))
            }
        }
        "decorrelated" => {
            let base = param_ns(input, "baseMs");
            let n = attempt_number(input.num_of("attempt"));
            let prev = if n > 1.0 {
                param_ns(input, "previousMs").max(base)
            } else {
                base
            };
            param_ns(input, "capMs").min(base + (3.0 * prev - base) * u)
        }
        f => return Err(format!("unknown retry family {}", f)),
    };
    Ok(round_ns(x))
}

/// A delay as (ms, ns).
pub fn ms_ns(ns: i64) -> (f64, i64) {
    (ns_to_ms(ns), ns)
}
