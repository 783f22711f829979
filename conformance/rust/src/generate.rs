//! Random engine timelines for a differential run against another engine:
//! `reconnect-conform generate SEED COUNT` prints scenario items (config,
//! draws, steps with this engine's actions as `expect`), one JSON array.
//! Not part of the adapter's protocol.

use crate::engine;
use crate::events;
use crate::json::{num, obj, s, Value};
use std::collections::BTreeMap;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn pick<'a>(&mut self, xs: &'a [&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

const FAILURES: [&str; 18] = [
    "http-status:500",
    "http-status:504",
    "http-status:499",
    "disconnected:504",
    "disconnected",
    "http-status:404:CloudFront",
    "dns",
    "unreachable",
    "refused",
    "timeout",
    "http-status:503",
    "http-status:401",
    "http-status:403:CloudFront",
    "disconnected:503",
    "disconnected:500",
    "disconnected:599",
    "token",
    "other",
];

/// The round trips (ms) a dialed event carries: 0, fractions (to the
/// nanosecond: a product by a fractional multiple then has half a
/// nanosecond to round), around the short circuit divided by the
/// multiples, at it, and a day.
const RTTS: [&str; 14] = [
    "0",
    "0.5",
    "1",
    "7",
    "33.3",
    "100",
    "250",
    "666.667",
    "1999.999",
    "2000",
    "86400000",
    "0.000002",
    "10.000005",
    "100.000001",
];

/// The retry families (engine.Config.Retry) at their storm parameters and
/// at small ones, which retry often.
fn retry_family(rng: &mut Rng, cfgv: &mut Vec<(&str, Value)>) {
    let (family, base, cap) = match rng.below(4) {
        0 => ("full-jitter", [1000.0, 200.0], [30000.0, 2000.0]),
        1 => ("equal-jitter", [1000.0, 200.0], [30000.0, 2000.0]),
        2 => ("grpc", [1000.0, 300.0], [120000.0, 5000.0]),
        _ => ("decorrelated-jitter", [1000.0, 100.0], [30000.0, 3000.0]),
    };
    cfgv.push(("retryFamily", s(family)));
    cfgv.push(("retryBaseMs", num(base[rng.below(2) as usize])));
    cfgv.push(("retryCapMs", num(cap[rng.below(2) as usize])));
    if family == "grpc" {
        let m = [1.6, 1.0, 2.5][rng.below(3) as usize];
        let j = [0.2, 0.0, 1.0][rng.below(3) as usize];
        cfgv.push(("retryMultiplier", num(m)));
        if j > 0.0 {
            cfgv.push(("retryJitter", num(j)));
        }
    }
}

/// The jobs of realtimeRequestTimeout (connect, idle slack, closing,
/// renewal) now and then their own: 1 ms, short, equal to the short
/// circuit or to realtimeRequestTimeout, or all one value; and the
/// client-side idle limit.
fn timeouts_by_job(rng: &mut Rng, cfgv: &mut Vec<(&str, Value)>) {
    if rng.chance(0.25) {
        let same = if rng.chance(0.2) {
            [1.0, 2000.0, 5000.0][rng.below(3) as usize]
        } else {
            0.0
        };
        for job in [
            "connectTimeoutMs",
            "idleSlackMs",
            "closingTimeoutMs",
            "renewalTimeoutMs",
        ] {
            let v = if same > 0.0 {
                same
            } else if rng.chance(0.5) {
                [
                    1.0, 1.0, 100.0, 1000.0, 2000.0, 5000.0, 10000.0, 15000.0, 30000.0,
                ][rng.below(9) as usize]
            } else {
                continue;
            };
            cfgv.push((job, num(v)));
        }
    }
    if rng.chance(0.2) {
        let v = [1.0, 500.0, 3000.0, 10000.0, 25000.0, 120000.0][rng.below(6) as usize];
        cfgv.push(("idleLimitMs", num(v)));
    }
}

pub fn run(seed: u64, count: usize) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1);
    let mut items = Vec::new();
    for k in 0..count {
        items.push(one(&mut rng, k));
    }
    crate::json::write(&Value::Arr(items))
}

fn one(rng: &mut Rng, k: usize) -> Value {
    let mut cfgv: Vec<(&str, Value)> = Vec::new();
    let policy = rng.pick(&["websocket-first", "http-first", "websocket-check"]);
    cfgv.push(("policy", s(policy)));
    if rng.chance(0.1) {
        cfgv.push(("webSocket", Value::Bool(false)));
    } else if rng.chance(0.1) {
        cfgv.push(("http", Value::Bool(false)));
    }
    // Ably's preset resolves the endpoint (a port is an error there): a
    // routing policy, an explicit host, an address, capitals (lowered).
    let endpoint = rng.pick(&[
        "",
        "",
        "",
        "acme",
        "nonprod:acme",
        "rt.example.com",
        "127.0.0.1",
        "RT.Example.COM",
    ]);
    if !endpoint.is_empty() {
        cfgv.push(("endpoint", s(endpoint)));
    }
    if rng.chance(0.12) {
        // Own fallback hosts: none, one-label, equal to the primary, capitals.
        let hosts: &[&str] = match rng.below(5) {
            0 => &[],
            1 => &["fb1.example.com", "fb2.example.com"],
            2 => &["realtime-b", "realtime-c"],
            3 => &["main.realtime.ably.net"],
            _ => &["F1.Example.COM"],
        };
        cfgv.push((
            "fallbackHosts",
            Value::Arr(hosts.iter().map(|h| s(h)).collect()),
        ));
    }
    if rng.chance(0.3) {
        cfgv.push(("rememberTransport", Value::Bool(true)));
    }
    if rng.chance(0.3) {
        let t = rng.pick(&["http", "http", "websocket"]);
        let at = 1767225600000i64 - rng.below(100000000) as i64;
        cfgv.push(("preference", s(&format!("v1 {} {} connected", t, at))));
    }
    if rng.chance(0.3) {
        cfgv.push(("canRenewToken", Value::Bool(true)));
    }
    if rng.chance(0.2) {
        cfgv.push(("connectionStateTtlMs", num(30000.0)));
    }
    let window = rng.chance(0.1);
    if window {
        cfgv.push(("reconnectWindowMs", num(5000.0)));
        if rng.chance(0.5) {
            cfgv.push(("immediateShare", num(0.3)));
        }
    }
    let spread = rng.chance(0.05);
    if spread {
        cfgv.push(("retrySpread", num(0.5)));
    }
    if rng.chance(0.05) {
        cfgv.push(("suspendedSpread", num(0.5)));
    }
    if !spread && rng.chance(0.2) {
        retry_family(rng, &mut cfgv);
    }
    if rng.chance(0.2) {
        if !window && rng.chance(0.5) {
            cfgv.push(("immediateReconnect", s("off")));
        } else {
            cfgv.push(("immediateReconnect", s("limited")));
            let every = [1000.0, 5000.0, 30000.0][rng.below(3) as usize];
            cfgv.push(("immediateReconnectIntervalMs", num(every)));
        }
    }
    timeouts_by_job(rng, &mut cfgv);
    if rng.chance(0.2) {
        let p = [1.0, 100.0, 500.0, 1000.0, 5000.0, 15000.0][rng.below(6) as usize];
        cfgv.push(("firstRetryMs", num(p)));
    }
    let adaptive = rng.chance(if policy == "websocket-first" {
        0.35
    } else {
        0.1
    });
    if adaptive {
        let k = [1.0, 1.5, 3.0, 3.0, 7.25, 100.0][rng.below(6) as usize];
        let floor = [0.0, 0.0, 1.0, 100.0, 250.0, 2000.0, 3000.0][rng.below(7) as usize];
        cfgv.push(("adaptiveMultiple", num(k)));
        if floor > 0.0 {
            cfgv.push(("adaptiveFloorMs", num(floor)));
        }
    }
    let draws: Vec<f64> = (0..200).map(|_| rng.unit()).collect();
    if rng.chance(0.05) {
        cfgv.push(("shortCircuitMs", num(0.0)));
    }
    let config = obj(cfgv);
    let input = obj(vec![("config", config.clone())]);
    let cfg = crate::config_of(input.get("config").unwrap()).expect("config");
    let mut e = engine::Engine::new(cfg, draws.clone());

    let mut now: i64 = 0;
    let mut transports: Vec<u64> = Vec::new();
    let mut live: Vec<u64> = Vec::new();
    let mut websockets: Vec<u64> = Vec::new();
    let mut checks: Vec<(u64, &'static str)> = Vec::new();
    let mut timers: BTreeMap<String, f64> = BTreeMap::new();
    let mut steps = Vec::new();
    let n = 8 + rng.below(50) as usize;
    for i in 0..n {
        let ev: String;
        if i == 0 {
            ev = "connect".into();
        } else {
            let r = rng.below(100);
            let pending = websockets
                .iter()
                .rev()
                .find(|id| live.contains(id))
                .copied();
            if let (true, Some(id), true) = (
                adaptive && timers.contains_key("short-circuit"),
                pending,
                rng.chance(0.3),
            ) {
                // The adaptive short circuit's input: the attempt's
                // websocket reports its dial before the timer is due.
                now += rng.below(300) as i64;
                ev = format!("dialed T{} rtt={}", id, rng.pick(&RTTS));
            } else if r < 30 && !timers.is_empty() {
                let keys: Vec<String> = timers.keys().cloned().collect();
                let name = keys[rng.below(keys.len() as u64) as usize].clone();
                let due = timers[&name];
                let t = due.ceil() as i64
                    + if rng.chance(0.2) {
                        rng.below(500) as i64
                    } else {
                        0
                    };
                if t > now {
                    now = t;
                }
                ev = format!("timer {}", name);
            } else if r < 65 && !live.is_empty() {
                let id = if rng.chance(0.9) {
                    live[rng.below(live.len() as u64) as usize]
                } else {
                    transports[rng.below(transports.len() as u64) as usize]
                };
                now += rng.below(800) as i64;
                let kind = rng.below(if adaptive { 12 } else { 11 });
                ev = match kind {
                    10..=11 => format!("dialed T{} rtt={}", id, rng.pick(&RTTS)),
                    0..=2 => format!("viable T{}", id),
                    3..=4 => {
                        let mut x = format!("connected T{}", id);
                        if rng.chance(0.3) {
                            let m = rng.pick(&["0", "1", "3000", "15000", "15000"]);
                            x.push_str(&format!(" maxIdleInterval={}", m));
                        }
                        if rng.chance(0.2) {
                            x.push_str(" connectionStateTtl=60000");
                        }
                        if rng.chance(0.1) {
                            x.push_str(" error=other");
                        }
                        x
                    }
                    5..=7 => format!("failed T{} {}", id, rng.pick(&FAILURES)),
                    8 => {
                        if rng.chance(0.5) {
                            format!("closed T{}", id)
                        } else {
                            format!("closed T{} {}", id, rng.pick(&FAILURES))
                        }
                    }
                    _ => {
                        if rng.chance(0.3) {
                            format!(
                                "activity T{} at={}",
                                id,
                                (now - rng.below(20000) as i64).max(0)
                            )
                        } else if rng.chance(0.5) {
                            format!("activity T{}", id)
                        } else {
                            let opt = rng.pick(&[
                                "maxIdleInterval=20000",
                                "",
                                "connectionStateTtl=45000",
                                "error=http-status:401",
                            ]);
                            format!("details T{} {}", id, opt).trim_end().to_string()
                        }
                    }
                };
            } else if r < 80 && !checks.is_empty() {
                let (c, what) = checks[rng.below(checks.len() as u64) as usize];
                now += rng.below(3000) as i64;
                let up = rng.chance(0.65);
                ev = match what {
                    "check" => format!("connectivity C{} {}", c, if up { "up" } else { "down" }),
                    "check-websocket" => {
                        format!("websocket-check C{} {}", c, if up { "up" } else { "down" })
                    }
                    _ => {
                        if up {
                            format!("token C{} renewed", c)
                        } else {
                            format!(
                                "token C{} failed {}",
                                c,
                                rng.pick(&["other", "http-status:403", "timeout"])
                            )
                        }
                    }
                };
            } else {
                now += rng.below(5000) as i64;
                ev = rng
                    .pick(&[
                        "network-down",
                        "network-up",
                        "network-down",
                        "close",
                        "connect",
                        "connect",
                        "fatal other",
                        "timer retry",
                        "connectivity C0 up",
                        "dialed T0 rtt=5",
                        "authorize",
                        "authorize",
                    ])
                    .to_string();
            }
        }
        let actions = e.step(now as f64, events::parse_event(&ev));
        for a in &actions {
            let w: Vec<&str> = a.split(' ').collect();
            match w[0] {
                "open" => {
                    let id: u64 = w[1][1..].parse().unwrap();
                    transports.push(id);
                    live.push(id);
                    if w[2] == "websocket" {
                        websockets.push(id);
                    }
                }
                "dispose" => {
                    let id: u64 = w[1][1..].parse().unwrap();
                    live.retain(|x| *x != id);
                    timers.remove(&format!("connect T{}", id));
                }
                "timer" => {
                    let (name, at) = if w[1] == "connect" {
                        (format!("connect {}", w[2]), w[3])
                    } else {
                        (w[1].to_string(), w[2])
                    };
                    let due: f64 = at.trim_start_matches("at=").parse().unwrap();
                    timers.insert(name, due);
                }
                "cancel" => {
                    let name = w[1..].join(" ");
                    timers.remove(&name);
                }
                "check" => checks.push((w[1][1..].parse().unwrap(), "check")),
                "check-websocket" => checks.push((w[1][1..].parse().unwrap(), "check-websocket")),
                "renew-token" => checks.push((w[1][1..].parse().unwrap(), "renew-token")),
                _ => {}
            }
        }
        if let Some(name) = ev.strip_prefix("timer ") {
            timers.remove(name);
        }
        steps.push(obj(vec![
            ("atMs", num(now as f64)),
            ("event", s(&ev)),
            ("expect", Value::Arr(actions.iter().map(|a| s(a)).collect())),
        ]));
    }
    let used = e.draws_used();
    let draws: Vec<Value> = draws[..used.min(draws.len())]
        .iter()
        .map(|u| num(*u))
        .collect();
    obj(vec![
        ("id", s(&format!("rust-diff-{}", k))),
        ("spec", s("engine")),
        ("rows", Value::Arr(vec![s("ALL-INITIALIZED-connect-1")])),
        ("config", config),
        ("draws", Value::Arr(draws)),
        ("steps", Value::Arr(steps)),
    ])
}
