//! The scenario grammar: events in, failures as text (fixtures/scenarios.json
//! `grammar`, docs/engine.md "Events").

#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    pub kind: String,
    pub status: i64,
    pub server: String,
}

impl Failure {
    pub fn new(kind: &str) -> Failure {
        Failure {
            kind: kind.to_string(),
            status: 0,
            server: String::new(),
        }
    }
    /// `<kind>[:<status>[:<server>]]`: the status only for http-status and
    /// disconnected, the server only for http-status.
    pub fn text(&self) -> String {
        match self.kind.as_str() {
            "http-status" => {
                if self.server.is_empty() {
                    format!("http-status:{}", self.status)
                } else {
                    format!("http-status:{}:{}", self.status, self.server)
                }
            }
            "disconnected" => format!("disconnected:{}", self.status),
            k => k.to_string(),
        }
    }
    pub fn is_disconnected_5xx(&self) -> bool {
        self.kind == "disconnected" && (500..=504).contains(&self.status)
    }
}

pub fn parse_failure(t: &str) -> Option<Failure> {
    let mut parts = t.splitn(3, ':');
    let kind = parts.next()?;
    if !matches!(
        kind,
        "dns"
            | "unreachable"
            | "refused"
            | "timeout"
            | "http-status"
            | "disconnected"
            | "token"
            | "other"
    ) {
        return None;
    }
    let status: i64 = parts.next().map(|s| s.parse().unwrap_or(0)).unwrap_or(0);
    let server = parts.next().unwrap_or("").to_string();
    let mut f = Failure::new(kind);
    if kind == "http-status" || kind == "disconnected" {
        f.status = status;
    }
    if kind == "http-status" {
        f.server = server;
    }
    Some(f)
}

#[derive(Clone, Debug, Default)]
pub struct Details {
    pub max_idle_ms: f64,
    pub ttl_ms: f64,
    pub error: Option<Failure>,
}

#[derive(Clone, Debug)]
pub enum Event {
    Connect,
    Close,
    Viable(u64),
    Connected(u64, Details),
    /// failed or closed: the failure, None for a clean close.
    Lost(u64, Option<Failure>),
    Timer(String, u64),
    Connectivity(u64, bool),
    WebSocketCheck(u64, bool),
    NetworkUp,
    NetworkDown,
    Fatal(Failure),
    Details(u64, Details),
    Activity(u64, Option<f64>),
    Token(u64, Option<Failure>),
    /// The SDK's Auth#authorize was called (RTC8).
    Authorize,
    /// dialed T<n> rtt=<ms>: the transport's TCP (and TLS) connection is up
    /// after rtt milliseconds.
    Dialed(u64, f64),
    Unknown,
}

fn id_of(t: Option<&&str>, prefix: char) -> Option<u64> {
    let t = t?;
    let rest = t.strip_prefix(prefix)?;
    rest.parse().ok()
}

fn parse_details(words: &[&str]) -> Details {
    let mut d = Details::default();
    for w in words {
        if let Some(v) = w.strip_prefix("maxIdleInterval=") {
            d.max_idle_ms = v.parse().unwrap_or(0.0);
        } else if let Some(v) = w.strip_prefix("connectionStateTtl=") {
            d.ttl_ms = v.parse().unwrap_or(0.0);
        } else if let Some(v) = w.strip_prefix("error=") {
            d.error = parse_failure(v);
        }
    }
    d
}

pub fn parse_event(text: &str) -> Event {
    let w: Vec<&str> = text.split_whitespace().collect();
    let first = match w.first() {
        Some(f) => *f,
        None => return Event::Unknown,
    };
    let t = || id_of(w.get(1), 'T').unwrap_or(0);
    let c = || id_of(w.get(1), 'C').unwrap_or(0);
    match first {
        "connect" => Event::Connect,
        "close" => Event::Close,
        "viable" => Event::Viable(t()),
        "connected" => Event::Connected(t(), parse_details(&w[2.min(w.len())..])),
        "details" => Event::Details(t(), parse_details(&w[2.min(w.len())..])),
        "failed" | "closed" => Event::Lost(t(), w.get(2).and_then(|f| parse_failure(f))),
        "timer" => {
            let name = w.get(1).copied().unwrap_or("").to_string();
            let id = id_of(w.get(2), 'T').unwrap_or(0);
            Event::Timer(name, id)
        }
        "connectivity" => Event::Connectivity(c(), w.get(2) == Some(&"up")),
        "websocket-check" => Event::WebSocketCheck(c(), w.get(2) == Some(&"up")),
        "network-up" => Event::NetworkUp,
        "network-down" => Event::NetworkDown,
        "authorize" => Event::Authorize,
        "dialed" => {
            let rtt = w
                .get(2)
                .and_then(|x| x.strip_prefix("rtt="))
                .and_then(|x| x.parse::<f64>().ok())
                .filter(|x| x.is_finite())
                .unwrap_or(0.0);
            Event::Dialed(t(), rtt.max(0.0))
        }
        "fatal" => match w.get(1).and_then(|f| parse_failure(f)) {
            Some(f) => Event::Fatal(f),
            None => Event::Unknown,
        },
        "activity" => {
            let at = w
                .get(2)
                .and_then(|x| x.strip_prefix("at="))
                .and_then(|x| x.parse().ok());
            Event::Activity(t(), at)
        }
        "token" => {
            if w.get(2) == Some(&"renewed") {
                Event::Token(c(), None)
            } else {
                let f = w
                    .get(3)
                    .and_then(|f| parse_failure(f))
                    .unwrap_or_else(|| Failure::new("other"));
                Event::Token(c(), Some(f))
            }
        }
        _ => Event::Unknown,
    }
}
