//! A loopback HTTP server for provider tests: it answers a fixed list of canned responses,
//! one per connection, records each request, and stops by itself (after the last response,
//! or when no client comes for a while).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the server waits for the next connection before giving up.
const IDLE: Duration = Duration::from_secs(10);

pub struct Canned {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Pause before answering (to provoke a client timeout).
    pub delay: Duration,
}

impl Canned {
    pub fn json(body: serde_json::Value) -> Canned {
        Canned::raw(200, &body.to_string())
    }

    pub fn raw(status: u16, body: &str) -> Canned {
        Canned {
            status,
            headers: Vec::new(),
            body: body.to_owned(),
            delay: Duration::ZERO,
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Canned {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    pub fn delayed(mut self, delay: Duration) -> Canned {
        self.delay = delay;
        self
    }
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    pub path: String,
    /// Header names lowercased.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).expect("request body is JSON")
    }
}

pub struct Server {
    pub base: String,
    handle: JoinHandle<Vec<Recorded>>,
}

impl Server {
    /// The requests the server saw (waits for it to finish).
    pub fn requests(self) -> Vec<Recorded> {
        self.handle.join().expect("server thread")
    }
}

pub fn serve(responses: Vec<Canned>) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    listener.set_nonblocking(true).expect("nonblocking");
    let handle = std::thread::spawn(move || {
        let mut seen = Vec::new();
        for canned in responses {
            let Some(stream) = accept(&listener) else {
                break;
            };
            if let Some(r) = answer(stream, &canned) {
                seen.push(r);
            }
        }
        seen
    });
    Server { base, handle }
}

fn accept(listener: &TcpListener) -> Option<TcpStream> {
    let deadline = Instant::now() + IDLE;
    while Instant::now() < deadline {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).ok()?;
                return Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => return None,
        }
    }
    None
}

fn answer(stream: TcpStream, canned: &Canned) -> Option<Recorded> {
    stream.set_read_timeout(Some(IDLE)).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut parts = request_line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    std::thread::sleep(canned.delay);
    let mut response = format!(
        "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        canned.status,
        canned.body.len()
    );
    for (n, v) in &canned.headers {
        response.push_str(&format!("{n}: {v}\r\n"));
    }
    response.push_str("\r\n");
    response.push_str(&canned.body);
    // The client may have given up already (timeout tests); that is fine.
    let mut stream = stream;
    let _ = stream.write_all(response.as_bytes());
    let _ = stream.flush();
    Some(Recorded {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}
