//! The HTTP side of `fianchetto gui`: a few worker threads take the
//! connections, read one request each ([`super::http`]) and write the app's
//! reply; each live connection (Server-Sent Events) gets a thread of its
//! own.
//!
//! Why Server-Sent Events: the page needs requests and one stream of
//! updates from the server, nothing the browser sends back on a live
//! channel. SSE is plain HTTP (a response that never ends), so it needs no
//! WebSocket library, and the browser's `EventSource` reconnects by itself.
//! Every connection carries one request (`Connection: close`): the app is
//! local, and a connection that cannot be reused cannot be left in a bad
//! state by the request before.

use super::app::{App, Limits, Method, Reply, Subscription};
use super::form::Params;
use super::http::{self, HttpMethod, ReadError, Request};
use super::GuiError;
use crate::commands::CommandError;
use crate::evals::load_network;
use std::io::{BufReader, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The port tried when none is given (any free one if it is taken).
const DEFAULT_PORT: u16 = 8088;
/// The longest URL accepted.
const MAX_URL: usize = 8 * 1024;
/// The largest request body accepted: a PGN at its limit, form-encoded
/// (up to three bytes for one), and the other parameters.
const MAX_BODY: usize = 3 * super::app::MAX_PGN + 1024;
/// Threads answering requests.
const WORKERS: usize = 4;
/// Live connections open at once, all tabs together.
const MAX_STREAMS: usize = 64;
/// A live connection sends a comment this often: it finds a closed tab,
/// and keeps the tab's session alive while it is open.
const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How long a connection may take to send its whole request, however
/// slowly it trickles in, and each write of a reply (or an event) may
/// wait: a client that stalls holds a worker no longer than this.
const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// After refusing a request whose body was not read, this much of it is
/// still read and thrown away (for at most [`DRAIN_TIME`] in all), so that
/// the client sees the refusal rather than a reset connection.
const MAX_DRAIN: u64 = 1 << 20;
const DRAIN_TIME: Duration = Duration::from_secs(1);

/// Arguments of `fianchetto gui`.
#[derive(Debug, clap::Args)]
pub struct GuiArgs {
    /// The port to listen on (default: 8088, or any free port if it is
    /// taken; 0: any free port).
    #[arg(long)]
    pub port: Option<u16>,
    /// The address to listen on. The default, 127.0.0.1, lets no other
    /// machine in; another address opens the app (and the CPU it runs
    /// searches on) to the network it is on.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub bind: IpAddr,
    /// Do not open a browser.
    #[arg(long)]
    pub no_open: bool,
}

/// Runs the app until the process is stopped.
pub fn run(args: &GuiArgs) -> Result<(), CommandError> {
    let listener = bind(args)?;
    let addr = listener.local_addr()?;
    let url = page_url(addr);
    let net = load_network(None).map_err(|e| CommandError::Usage(e.to_string()))?;
    let app = Arc::new(App::new(net, Limits::default()));
    {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        writeln!(out, "Fianchetto GUI: {url}  (Ctrl-C stops it)")?;
        if !addr.ip().is_loopback() {
            writeln!(
                out,
                "warning: listening on {}: other machines can reach the app",
                addr.ip()
            )?;
        }
        out.flush()?;
    }
    let workers = spawn_workers(&listener, &app)?;
    // Closed tabs' sessions are swept once a minute.
    {
        let app = app.clone();
        std::thread::Builder::new()
            .name("gui-expiry".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_secs(60));
                app.expire(Instant::now());
            })?;
    }
    if !args.no_open {
        open_browser(&url);
    }
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// Starts the threads that answer the connections `listener` takes, for
/// `app`; they run until the process ends.
pub fn spawn_workers(
    listener: &TcpListener,
    app: &Arc<App>,
) -> std::io::Result<Vec<std::thread::JoinHandle<()>>> {
    let addr = listener.local_addr()?;
    let streams = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for i in 0..WORKERS {
        let (listener, app, streams) = (listener.try_clone()?, app.clone(), streams.clone());
        let worker = std::thread::Builder::new()
            .name(format!("gui-http-{i}"))
            .spawn(move || loop {
                match listener.accept() {
                    Ok((connection, _)) => serve(&app, connection, addr, &streams),
                    // Out of file descriptors, say: wait for some to close.
                    Err(_) => std::thread::sleep(Duration::from_millis(50)),
                }
            })?;
        workers.push(worker);
    }
    Ok(workers)
}

/// Listens where the arguments say: the port given (an error if taken),
/// or 8088, or any free port.
fn bind(args: &GuiArgs) -> Result<TcpListener, CommandError> {
    let at = |port| TcpListener::bind(SocketAddr::new(args.bind, port));
    match args.port {
        Some(port) => at(port).map_err(|e| {
            CommandError::Usage(format!(
                "cannot listen on {}:{port}: {e} (--port 0 takes any free port)",
                args.bind
            ))
        }),
        None => at(DEFAULT_PORT)
            .or_else(|_| at(0))
            .map_err(|e| CommandError::Usage(format!("cannot listen on {}: {e}", args.bind))),
    }
}

/// The address to open: 127.0.0.1 for an app listening on every address.
fn page_url(addr: SocketAddr) -> String {
    let ip = if addr.ip().is_unspecified() {
        IpAddr::V4(Ipv4Addr::LOCALHOST)
    } else {
        addr.ip()
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// Opens `url` in the default browser, if there is one; any failure is
/// only a missed convenience (the address is printed).
fn open_browser(url: &str) {
    use std::process::{Command, Stdio};
    let command = if cfg!(target_os = "macos") {
        Some(Command::new("open").arg(url).spawn_quiet())
    } else if cfg!(windows) {
        Some(
            Command::new("cmd")
                .args(["/C", "start", "", url])
                .spawn_quiet(),
        )
    } else if std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some()
    {
        // Without a display xdg-open would start a text browser in this
        // terminal.
        Some(Command::new("xdg-open").arg(url).spawn_quiet())
    } else {
        None
    };
    trait Quiet {
        fn spawn_quiet(&mut self) -> std::io::Result<std::process::Child>;
    }
    impl Quiet for Command {
        fn spawn_quiet(&mut self) -> std::io::Result<std::process::Child> {
            self.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
        }
    }
    if let Some(Ok(mut child)) = command {
        // Reap it when it ends, so that no zombie is left.
        std::thread::spawn(move || child.wait());
    }
}

/// Refuses what a page of another site could send: a `Host` that is not
/// this server's loopback name (DNS rebinding) and a cross-site `Origin`.
pub fn check_origin(
    host: Option<&str>,
    origin: Option<&str>,
    addr: SocketAddr,
) -> Result<(), GuiError> {
    let port = addr.port();
    let names = [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        SocketAddr::new(addr.ip(), port).to_string(),
    ];
    let host_ok = !addr.ip().is_loopback() || host.is_some_and(|h| names.iter().any(|n| n == h));
    if !host_ok {
        return Err(GuiError::Forbidden(format!(
            "the app answers as 127.0.0.1:{port} or localhost:{port} only"
        )));
    }
    if let (Some(origin), Some(host)) = (origin, host) {
        if origin != format!("http://{host}") {
            return Err(GuiError::Forbidden(
                "requests from other sites are refused".into(),
            ));
        }
    }
    Ok(())
}

/// What a request asks for: the method, path and parameters (query and
/// body), once the limits and the origin are checked.
fn parse_request(
    request: &Request,
    addr: SocketAddr,
) -> Result<(Method, String, Params), GuiError> {
    let url = &request.target;
    if url.len() > MAX_URL {
        return Err(GuiError::TooLarge {
            what: "the address",
            len: url.len(),
            limit: MAX_URL,
        });
    }
    check_origin(request.header("Host"), request.header("Origin"), addr)?;
    let method = match request.method {
        HttpMethod::Get | HttpMethod::Head => Method::Get,
        HttpMethod::Post => Method::Post,
        HttpMethod::Other => return Err(GuiError::Method),
    };
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let mut params = Params::parse(query)?;
    if method == Method::Post {
        let body = std::str::from_utf8(&request.body)
            .map_err(|_| GuiError::BadInput("the request is not UTF-8".into()))?;
        params.extend(Params::parse(body)?);
    }
    Ok((method, path.to_string(), params))
}

/// Answers the one request of `connection`.
fn serve(app: &App, connection: TcpStream, addr: SocketAddr, streams: &Arc<AtomicUsize>) {
    if connection.set_write_timeout(Some(IO_TIMEOUT)).is_err() {
        return;
    }
    let mut input = BufReader::new(ReadBefore {
        stream: &connection,
        until: Instant::now() + IO_TIMEOUT,
    });
    let mut output = &connection;
    let (reply, head_only) = match http::read_request(&mut input, &mut output, MAX_BODY) {
        Ok(request) => {
            let reply = match parse_request(&request, addr) {
                Ok((method, path, params)) => app.handle(method, &path, &params),
                Err(e) => Reply::error(&e),
            };
            (reply, request.method == HttpMethod::Head)
        }
        Err(ReadError::Refused(e)) => {
            let _ = respond(&connection, &Reply::error(&e), false);
            // Let the client read the refusal: stop writing, and take (a
            // bounded part of) what it is still sending.
            let _ = connection.shutdown(Shutdown::Write);
            input.get_mut().until = Instant::now() + DRAIN_TIME;
            let _ = std::io::copy(&mut input.take(MAX_DRAIN), &mut std::io::sink());
            return;
        }
        Err(ReadError::Closed(_)) => return,
    };
    match reply {
        Reply::Body { .. } => {
            // A tab closed before its answer is not an error worth telling.
            let _ = respond(&connection, &reply, head_only);
        }
        Reply::Events(subscription) => {
            if streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
                streams.fetch_sub(1, Ordering::SeqCst);
                let busy = GuiError::Busy("too many live connections".into());
                let _ = respond(&connection, &Reply::error(&busy), false);
                return;
            }
            let open = streams.clone();
            let spawned = std::thread::Builder::new()
                .name("gui-events".into())
                .spawn(move || {
                    stream(Box::new(connection), &subscription);
                    open.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                streams.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

/// A connection read against a deadline: each read waits only for what is
/// left of the time, so that a client sending a byte now and then cannot
/// make a request last longer than that.
struct ReadBefore<'a> {
    stream: &'a TcpStream,
    until: Instant,
}

impl Read for ReadBefore<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// Writes a whole reply (a stream is not one: nothing is written).
fn respond(mut out: &TcpStream, reply: &Reply, head_only: bool) -> std::io::Result<()> {
    let Reply::Body {
        status,
        content_type,
        body,
        download,
    } = reply
    else {
        return Ok(());
    };
    let disposition = download
        .as_ref()
        .map(|name| format!("attachment; filename=\"{name}\""));
    let mut headers = vec![
        ("Content-Type", *content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy", CSP),
    ];
    if let Some(d) = &disposition {
        headers.push(("Content-Disposition", d));
    }
    http::write_response(&mut out, *status, &headers, body.as_bytes(), head_only)
}

/// The page loads its script and style from this server and nothing else.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'";

/// Writes a session's snapshots as Server-Sent Events until the tab goes
/// (a write fails) or the session is closed (its sender is dropped).
fn stream(mut out: Box<dyn Write + Send>, sub: &Subscription) {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n\
                Cache-Control: no-store\r\nConnection: close\r\n\r\n";
    if out
        .write_all(head.as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        return;
    }
    loop {
        let sent = match sub.events.recv_timeout(KEEP_ALIVE) {
            Ok(mut state) => {
                // Only the newest snapshot matters: skip those queued
                // behind it.
                while let Ok(newer) = sub.events.try_recv() {
                    state = newer;
                }
                out.write_all(format!("event: state\ndata: {state}\n\n").as_bytes())
            }
            Err(RecvTimeoutError::Timeout) => {
                if !sub.touch() {
                    return;
                }
                out.write_all(b": keep-alive\n\n")
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if sent.and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_checked() {
        let local: SocketAddr = "127.0.0.1:8088".parse().unwrap();
        assert!(check_origin(Some("127.0.0.1:8088"), None, local).is_ok());
        assert!(check_origin(Some("localhost:8088"), Some("http://localhost:8088"), local).is_ok());
        // DNS rebinding: another name for this address.
        assert_eq!(
            check_origin(Some("evil.example:8088"), None, local).map_err(|e| e.status()),
            Err(403)
        );
        assert!(check_origin(None, None, local).is_err());
        // Another site's page posting here.
        assert!(check_origin(Some("127.0.0.1:8088"), Some("http://evil.example"), local).is_err());
        // Opened to the network on purpose: any host name.
        let open: SocketAddr = "0.0.0.0:80".parse().unwrap();
        assert!(check_origin(Some("chess.lan"), None, open).is_ok());
    }

    /// Sends `request` to the app at `addr` and returns its whole reply.
    fn exchange(addr: SocketAddr, request: &[u8]) -> String {
        let mut c = TcpStream::connect(addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        // The app may answer before it has read everything (a refusal).
        let _ = c.write_all(request);
        let mut reply = Vec::new();
        let _ = c.read_to_end(&mut reply);
        String::from_utf8_lossy(&reply).into_owned()
    }

    #[test]
    fn the_server_refuses_hostile_requests_and_keeps_serving() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let net = Arc::new(fianchetto_eval::nnue::Network::zero());
        let app = Arc::new(App::new(net, Limits::default()));
        let _workers = spawn_workers(&listener, &app).unwrap();
        let host = format!("Host: {addr}\r\n");
        let get = format!("GET /api/options HTTP/1.1\r\n{host}\r\n");
        let ok = exchange(addr, get.as_bytes());
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        assert!(ok.contains("Content-Security-Policy: "), "{ok}");

        // A body of 100 GB declared (tiny_http died of it), with and
        // without a Host; a head that never ends; an unknown method.
        let huge =
            format!("POST /api/move HTTP/1.1\r\n{host}Content-Length: 99999999999\r\n\r\nabc");
        let reply = exchange(addr, huge.as_bytes());
        assert!(reply.starts_with("HTTP/1.1 413 "), "{reply}");
        assert!(reply.contains("99999999999 bytes long"), "{reply}");
        let reply = exchange(
            addr,
            b"POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
        );
        assert!(reply.starts_with("HTTP/1.1 413 "), "{reply}");
        let mut endless = b"GET / HTTP/1.1\r\nX: ".to_vec();
        endless.extend(std::iter::repeat_n(b'a', 200_000));
        let reply = exchange(addr, &endless);
        assert!(reply.starts_with("HTTP/1.1 413 "), "{reply}");
        let reply = exchange(addr, format!("BREW / HTTP/1.1\r\n{host}\r\n").as_bytes());
        assert!(reply.starts_with("HTTP/1.1 405 "), "{reply}");
        // A HEAD gets the headers alone.
        let reply = exchange(addr, format!("HEAD / HTTP/1.1\r\n{host}\r\n").as_bytes());
        assert!(
            reply.starts_with("HTTP/1.1 200 OK\r\n") && reply.ends_with("\r\n\r\n"),
            "{reply}"
        );

        // A client that sends a byte now and then is dropped once the
        // request's time is up (10 s), not served a byte at a time forever.
        let started = Instant::now();
        let mut slow = TcpStream::connect(addr).unwrap();
        slow.set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut dropped = false;
        for _ in 0..40 {
            std::thread::sleep(Duration::from_millis(500));
            if slow.write_all(b"X").is_err() {
                dropped = true;
                break;
            }
            let mut probe = [0u8; 1];
            slow.set_nonblocking(true).unwrap();
            let closed = matches!(slow.read(&mut probe), Ok(0));
            slow.set_nonblocking(false).unwrap();
            if closed {
                dropped = true;
                break;
            }
        }
        assert!(dropped, "a trickling client kept its connection");
        assert!(started.elapsed() < Duration::from_secs(15));

        // Still serving, and a session made now plays.
        assert_eq!(exchange(addr, get.as_bytes()), ok);
        let reply = exchange(
            addr,
            format!("POST /api/session HTTP/1.1\r\n{host}Content-Length: 0\r\n\r\n").as_bytes(),
        );
        assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
        assert!(reply.contains("\"session\":\""), "{reply}");
    }

    #[test]
    fn urls_name_a_reachable_address() {
        assert_eq!(
            page_url("0.0.0.0:9000".parse().unwrap()),
            "http://127.0.0.1:9000/"
        );
        assert_eq!(
            page_url("127.0.0.1:8088".parse().unwrap()),
            "http://127.0.0.1:8088/"
        );
    }
}
