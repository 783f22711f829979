//! RTB1: the backoff coefficient, the jitter coefficient and the retry delay,
//! in float64 on whole nanoseconds (fixtures/README.md, rtb1.json).

/// The largest 64-bit nanosecond count: delays saturate there.
pub const MAX_NS: i64 = i64::MAX;

/// A fractional attempt is truncated toward zero, then clamped to 1.
pub fn attempt_number(attempt: f64) -> f64 {
    let n = if attempt.is_nan() {
        1.0
    } else {
        attempt.trunc()
    };
    if n < 1.0 {
        1.0
    } else {
        n
    }
}

/// RTB1a: min((n + 2) / 3, 2) for the n-th retry, n ≥ 1.
pub fn backoff_coefficient(attempt: f64) -> f64 {
    let n = attempt_number(attempt);
    ((n + 2.0) / 3.0).min(2.0)
}

/// A draw clamped into [0, 1], NaN counting as 0.
pub fn clamp_unit(u: f64) -> f64 {
    if u.is_nan() || u < 0.0 {
        0.0
    } else if u > 1.0 {
        1.0
    } else {
        u
    }
}

/// RTB1b: 1 − 0.2·u with u clamped.
pub fn jitter_coefficient(u: f64) -> f64 {
    1.0 - 0.2 * clamp_unit(u)
}

/// Rounds a non-negative float64 nanosecond count half away from zero and
/// saturates at the largest 64-bit count.
pub fn round_ns(x: f64) -> i64 {
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    let r = x.round();
    if r >= 9223372036854775808.0 {
        MAX_NS
    } else {
        r as i64
    }
}

/// Whole nanoseconds of a millisecond value (at most six decimals).
pub fn ms_to_ns(ms: f64) -> f64 {
    (ms * 1e6).round()
}

/// The retry delay in nanoseconds: (initial × coefficient) × (1 − spread·u).
pub fn delay_ns(initial_ns: f64, attempt: f64, u: f64, spread: f64) -> i64 {
    if initial_ns.is_nan() || initial_ns <= 0.0 {
        return 0;
    }
    let jitter = 1.0 - spread * clamp_unit(u);
    round_ns(initial_ns * backoff_coefficient(attempt) * jitter)
}

/// retryDelay of rtb1.json: (ms, ns).
pub fn retry_delay(initial_ms: f64, attempt: f64, u: f64) -> (f64, i64) {
    if initial_ms.is_nan() || initial_ms <= 0.0 {
        return (0.0, 0);
    }
    let ns = delay_ns(ms_to_ns(initial_ms), attempt, u, 0.2);
    (ns_to_ms(ns), ns)
}

/// Milliseconds as a float64 (exact to the tolerance).
pub fn ns_to_ms(ns: i64) -> f64 {
    if ns == MAX_NS {
        return MAX_NS as f64 / 1e6;
    }
    let whole = ns / 1_000_000;
    let frac = ns % 1_000_000;
    whole as f64 + frac as f64 / 1e6
}

/// Milliseconds as scenario text: up to six decimals, no trailing zeros.
pub fn ms_text(ns: i64) -> String {
    let neg = ns < 0;
    let a = (ns as i128).abs();
    let whole = a / 1_000_000;
    let frac = a % 1_000_000;
    let mut t = if frac == 0 {
        format!("{}", whole)
    } else {
        let f = format!("{:06}", frac);
        format!("{}.{}", whole, f.trim_end_matches('0'))
    };
    if neg {
        t.insert(0, '-');
    }
    t
}
