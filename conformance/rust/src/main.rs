//! The conformance adapter: the stdio protocol of fixtures/README.md
//! ("Conformance protocol (version 1)") over every area.

mod backoff;
mod engine;
mod events;
mod generate;
mod hosts;
mod json;
mod ownhosts;
mod preference;
mod retry;
mod transport;

use json::{num, obj, s, Value};
use std::io::{BufRead, Write};

fn ns_string(n: i64) -> Value {
    s(&n.to_string())
}

fn rtb1(function: &str, input: &Value) -> Result<Value, String> {
    match function {
        "backoffCoefficient" => Ok(obj(vec![(
            "coefficient",
            num(backoff::backoff_coefficient(input.num_of("attempt"))),
        )])),
        "jitterCoefficient" => Ok(obj(vec![(
            "jitter",
            num(backoff::jitter_coefficient(input.num_of("u"))),
        )])),
        "retryDelay" => {
            let (ms, ns) = backoff::retry_delay(
                input.num_of("initialMs"),
                input.num_of("attempt"),
                input.num_of("u"),
            );
            Ok(obj(vec![("delayMs", num(ms)), ("delayNs", ns_string(ns))]))
        }
        "retryBounds" => {
            let (lo, lo_ns) =
                backoff::retry_delay(input.num_of("initialMs"), input.num_of("attempt"), 1.0);
            let (hi, hi_ns) =
                backoff::retry_delay(input.num_of("initialMs"), input.num_of("attempt"), 0.0);
            Ok(obj(vec![
                ("lowerMs", num(lo)),
                ("lowerNs", ns_string(lo_ns)),
                ("upperMs", num(hi)),
                ("upperNs", ns_string(hi_ns)),
            ]))
        }
        f => Err(format!("unknown function {}", f)),
    }
}

fn retry_area(function: &str, input: &Value) -> Result<Value, String> {
    if let Some(family) = function.strip_suffix("Delay") {
        let (ms, ns) = retry::ms_ns(retry::family_ns(family, input, input.num_of("u"))?);
        return Ok(obj(vec![("delayMs", num(ms)), ("delayNs", ns_string(ns))]));
    }
    if let Some(family) = function.strip_suffix("Bounds") {
        let (lo, lo_ns) = retry::ms_ns(retry::family_ns(family, input, 0.0)?);
        let (hi, hi_ns) = retry::ms_ns(retry::family_ns(family, input, 1.0)?);
        return Ok(obj(vec![
            ("lowerMs", num(lo)),
            ("lowerNs", ns_string(lo_ns)),
            ("upperMs", num(hi)),
            ("upperNs", ns_string(hi_ns)),
        ]));
    }
    Err(format!("unknown function {}", function))
}

fn transport_area(function: &str, input: &Value) -> Result<Value, String> {
    match function {
        "decidePending" => {
            let (d, r) = transport::decide_pending(
                &input.str_of("candidate"),
                &input.str_of("mode"),
                &input.str_of("pending"),
                &input.str_of("active"),
            );
            Ok(obj(vec![
                ("decision", s(d)),
                ("rule", Value::Num(r as f64)),
            ]))
        }
        "chooseTransport" => {
            let (t, sc) = transport::choose_transport(
                input.bool_of("webSocketAvailable"),
                input.bool_of("httpAvailable"),
                input.num_of("shortCircuitMs"),
            );
            Ok(obj(vec![("transport", s(t)), ("shortCircuitMs", num(sc))]))
        }
        "httpOnWebSocketFailure" | "httpOnShortCircuit" => {
            let pending = input.str_of("pending");
            let active = input.str_of("active");
            let start = transport::start_http(
                input.bool_of("httpAvailable"),
                input.bool_of("httpStarted"),
                if pending.is_empty() { "none" } else { &pending },
                if active.is_empty() { "none" } else { &active },
            );
            Ok(obj(vec![("startHttp", Value::Bool(start))]))
        }
        "upgradeAfterActivation" => {
            let (t, m) = transport::upgrade_after_activation(
                &input.str_of("activated"),
                input.bool_of("webSocketAvailable"),
            );
            Ok(obj(vec![("transport", s(t)), ("mode", s(m))]))
        }
        f => Err(format!("unknown function {}", f)),
    }
}

enum Answer {
    Result(Value),
    FieldError(String, String),
    Error(String),
}

fn hosts_area(function: &str, input: &Value) -> Answer {
    match function {
        "resolveHosts" => {
            let fb: Option<Vec<String>> = input.get("fallbackHosts").map(|v| match v {
                Value::Arr(a) => a.iter().map(|x| x.as_str().to_string()).collect(),
                _ => Vec::new(),
            });
            let legacy = hosts::Legacy {
                rest_host: input.str_of("restHost"),
                realtime_host: input.str_of("realtimeHost"),
                use_default: matches!(
                    input.get("fallbackHostsUseDefault"),
                    Some(Value::Bool(true))
                ),
            };
            let resolve = if matches!(input.get("ably"), Some(Value::Bool(false))) {
                ownhosts::resolve_own_hosts
            } else {
                hosts::resolve_hosts_legacy
            };
            match resolve(
                &input.str_of("endpoint"),
                &input.str_of("environment"),
                &legacy,
                fb.as_deref(),
            ) {
                Ok(h) => Answer::Result(obj(vec![
                    ("primary", s(&h.primary)),
                    (
                        "fallbacks",
                        Value::Arr(h.fallbacks.iter().map(|x| s(x)).collect()),
                    ),
                ])),
                Err(e) => Answer::FieldError(e.field, e.message),
            }
        }
        "shouldFallback" => Answer::Result(obj(vec![(
            "fallback",
            Value::Bool(hosts::should_fallback(
                &input.str_of("failureKind"),
                input.num_of("status") as i64,
                &input.str_of("server"),
            )),
        )])),
        "connectivityUp" => Answer::Result(obj(vec![(
            "up",
            Value::Bool(hosts::connectivity_up(
                input.num_of("status") as i64,
                &input.str_of("body"),
            )),
        )])),
        "hostOrder" => {
            let fallbacks: Vec<String> = input
                .arr_of("fallbacks")
                .iter()
                .map(|x| x.as_str().to_string())
                .collect();
            let draws: Vec<f64> = input.arr_of("draws").iter().map(|x| x.as_num()).collect();
            let order = hosts::host_order(
                &input.str_of("primary"),
                &fallbacks,
                input.num_of("maxFallbacks"),
                &draws,
            );
            Answer::Result(obj(vec![(
                "order",
                Value::Arr(order.iter().map(|x| s(x)).collect()),
            )]))
        }
        "preferredHost" => {
            let mut p = hosts::PreferredHost::new(&input.str_of("primary"));
            let mut firsts = Vec::new();
            for st in input.arr_of("steps") {
                match st.str_of("op").as_str() {
                    "fallbackSucceeded" => p.fallback_succeeded(
                        &st.str_of("host"),
                        st.num_of("atMs"),
                        st.num_of("ttlMs"),
                    ),
                    "failed" => p.failed(
                        &st.str_of("host"),
                        &st.str_of("failureKind"),
                        st.num_of("status") as i64,
                    ),
                    "first" => firsts.push(s(&p.first(st.num_of("atMs")))),
                    _ => {}
                }
            }
            Answer::Result(obj(vec![("first", Value::Arr(firsts))]))
        }
        f => Answer::Error(format!("unknown function {}", f)),
    }
}

fn pref_value(p: &Option<preference::Preference>) -> Value {
    match p {
        None => obj(vec![("transport", s("none"))]),
        Some(p) => obj(vec![
            ("transport", s(&p.transport)),
            ("atMs", num(p.at_ms)),
            ("reason", s(&p.reason)),
        ]),
    }
}

fn read_pref(v: Option<&Value>) -> Option<preference::Preference> {
    let v = v?;
    let t = v.str_of("transport");
    if t != "websocket" && t != "http" {
        return None;
    }
    Some(preference::Preference {
        transport: t,
        at_ms: v.num_of("atMs"),
        reason: v.str_of("reason"),
    })
}

fn preference_area(function: &str, input: &Value) -> Result<Value, String> {
    match function {
        "preference" => {
            let ttl = input.num_of("ttlMs");
            let mut cur = read_pref(input.get("start"));
            let mut results = Vec::new();
            for st in input.arr_of("steps") {
                match st.str_of("op").as_str() {
                    "apply" => {
                        cur = preference::apply(
                            cur,
                            &st.str_of("event"),
                            &st.str_of("transport"),
                            st.num_of("atMs"),
                        );
                        results.push(pref_value(&cur));
                    }
                    "start" => {
                        let (t, check) = preference::start(
                            &cur,
                            st.num_of("nowMs"),
                            ttl,
                            st.bool_of("websocket"),
                            st.bool_of("http"),
                        );
                        results.push(obj(vec![
                            ("transport", s(t)),
                            ("checkWebSocket", Value::Bool(check)),
                        ]));
                    }
                    o => return Err(format!("unknown op {}", o)),
                }
            }
            Ok(obj(vec![("results", Value::Arr(results))]))
        }
        "preferenceDecode" => match preference::decode(&input.str_of("text")) {
            Ok(p) => Ok(obj(vec![
                ("preference", pref_value(&p)),
                ("encoded", s(&preference::encode(&p))),
            ])),
            Err(field) => Ok(obj(vec![("errorField", s(field))])),
        },
        f => Err(format!("unknown function {}", f)),
    }
}

fn config_of(c: &Value) -> Result<engine::Config, String> {
    let policy = match c.str_of("policy").as_str() {
        "" | "websocket-first" => engine::Policy::WebSocketFirst,
        "http-first" => engine::Policy::HttpFirst,
        "websocket-check" => engine::Policy::WebSocketCheck,
        p => return Err(format!("unknown policy {}", p)),
    };
    let mut cfg = engine::Config {
        policy,
        ..Default::default()
    };
    if let Some(Value::Bool(b)) = c.get("webSocket") {
        cfg.ws = *b;
    }
    if let Some(Value::Bool(b)) = c.get("http") {
        cfg.http = *b;
    }
    let fb: Option<Vec<String>> = c.get("fallbackHosts").map(|v| match v {
        Value::Arr(a) => a.iter().map(|x| x.as_str().to_string()).collect(),
        _ => Vec::new(),
    });
    match hosts::resolve_hosts(&c.str_of("endpoint"), "", fb.as_deref()) {
        Ok(h) => {
            cfg.primary = h.primary;
            cfg.fallbacks = h.fallbacks;
        }
        Err(e) => return Err(format!("bad hosts: {}: {}", e.field, e.message)),
    }
    if c.has("shortCircuitMs") {
        cfg.short_circuit_ms = c.num_of("shortCircuitMs");
    }
    if c.num_of("connectionStateTtlMs") > 0.0 {
        cfg.connection_state_ttl_ms = c.num_of("connectionStateTtlMs");
    }
    if let Ok(p) = preference::decode(&c.str_of("preference")) {
        cfg.preference = p;
    }
    cfg.remember_transport = c.bool_of("rememberTransport");
    cfg.reconnect_window_ms = c.num_of("reconnectWindowMs");
    cfg.immediate_share = c.num_of("immediateShare");
    cfg.retry_spread = c.num_of("retrySpread");
    cfg.suspended_spread = c.num_of("suspendedSpread");
    cfg.can_renew_token = c.bool_of("canRenewToken");
    cfg.connect_timeout_ms = c.num_of("connectTimeoutMs");
    cfg.idle_slack_ms = c.num_of("idleSlackMs");
    cfg.closing_timeout_ms = c.num_of("closingTimeoutMs");
    cfg.renewal_timeout_ms = c.num_of("renewalTimeoutMs");
    cfg.idle_limit_ms = c.num_of("idleLimitMs");
    if c.has("retryFamily") {
        cfg.retry_family = c.str_of("retryFamily");
    }
    cfg.retry_base_ms = c.num_of("retryBaseMs");
    cfg.retry_cap_ms = c.num_of("retryCapMs");
    cfg.retry_multiplier = c.num_of("retryMultiplier");
    cfg.retry_jitter = c.num_of("retryJitter");
    if c.has("immediateReconnect") {
        cfg.immediate_reconnect = c.str_of("immediateReconnect");
    }
    cfg.immediate_interval_ms = c.num_of("immediateReconnectIntervalMs");
    cfg.adaptive_multiple = c.num_of("adaptiveMultiple");
    cfg.adaptive_floor_ms = c.num_of("adaptiveFloorMs");
    cfg.first_retry_ms = c.num_of("firstRetryMs");
    Ok(cfg)
}

fn scenario(input: &Value) -> Result<Value, String> {
    let empty = Value::Obj(Vec::new());
    let cfg = config_of(input.get("config").unwrap_or(&empty))?;
    let draws: Vec<f64> = input.arr_of("draws").iter().map(|x| x.as_num()).collect();
    let mut e = engine::Engine::new(cfg, draws);
    let mut steps = Vec::new();
    for st in input.arr_of("steps") {
        let ev = events::parse_event(&st.str_of("event"));
        let actions = e.step(st.num_of("atMs"), ev);
        steps.push(obj(vec![(
            "actions",
            Value::Arr(actions.iter().map(|a| s(a)).collect()),
        )]));
    }
    Ok(obj(vec![("steps", Value::Arr(steps))]))
}

fn answer(req: &Value) -> Value {
    let id = req.get("id").cloned().unwrap_or(s(""));
    let area = req.str_of("area");
    let function = req.str_of("function");
    let input = req.get("input").cloned().unwrap_or(Value::Obj(Vec::new()));
    let result: Answer = match area.as_str() {
        "rtb1" => rtb1(&function, &input)
            .map(Answer::Result)
            .unwrap_or_else(Answer::Error),
        "transport" => transport_area(&function, &input)
            .map(Answer::Result)
            .unwrap_or_else(Answer::Error),
        "hosts" => hosts_area(&function, &input),
        "preference" => preference_area(&function, &input)
            .map(Answer::Result)
            .unwrap_or_else(Answer::Error),
        "retry" => retry_area(&function, &input)
            .map(Answer::Result)
            .unwrap_or_else(Answer::Error),
        "scenarios" => scenario(&input)
            .map(Answer::Result)
            .unwrap_or_else(Answer::Error),
        a => Answer::Error(format!("unknown area {}", a)),
    };
    match result {
        Answer::Result(v) => Value::Obj(vec![("id".into(), id), ("result".into(), v)]),
        Answer::FieldError(f, m) => Value::Obj(vec![
            ("id".into(), id),
            (
                "error".into(),
                obj(vec![("field", s(&f)), ("message", s(&m))]),
            ),
        ]),
        Answer::Error(m) => Value::Obj(vec![
            ("id".into(), id),
            ("error".into(), obj(vec![("message", s(&m))])),
        ]),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "generate" {
        let seed: u64 = args[2].parse().unwrap_or(1);
        let count: usize = args[3].parse().unwrap_or(100);
        println!("{}", generate::run(seed, count));
        return;
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        if line.trim().is_empty() {
            continue;
        }
        let req = match json::parse(&line) {
            Ok(v) => v,
            Err(e) => {
                eprintln!("bad request line: {}", e);
                continue;
            }
        };
        let reply = if req.str_of("type") == "hello" {
            obj(vec![
                ("type", s("hello")),
                ("protocol", Value::Num(1.0)),
                (
                    "implements",
                    Value::Arr(vec![
                        s("rtb1"),
                        s("transport"),
                        s("hosts"),
                        s("preference"),
                        s("scenarios"),
                        s("retry"),
                    ]),
                ),
                ("name", s("reconnect-conform (Rust, clean-room port)")),
                ("exactNs", Value::Bool(true)),
            ])
        } else {
            // A bug in one case answers that case with an error instead of
            // ending the run.
            match std::panic::catch_unwind(|| answer(&req)) {
                Ok(v) => v,
                Err(_) => obj(vec![
                    ("id", req.get("id").cloned().unwrap_or(s(""))),
                    (
                        "error",
                        obj(vec![("message", s("the adapter panicked on this case"))]),
                    ),
                ]),
            }
        };
        let _ = writeln!(out, "{}", json::write(&reply));
        let _ = out.flush();
    }
}
