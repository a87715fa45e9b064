//! The HTTP side of `fianchetto gui`: tiny_http serves the app's replies
//! from a few worker threads, and each live connection (Server-Sent
//! Events) from a thread of its own.
//!
//! Why tiny_http and Server-Sent Events: the page needs requests and one
//! stream of updates from the server, nothing the browser sends back on a
//! live channel. tiny_http is a plain HTTP/1.1 server on std threads with
//! four small dependencies and no async runtime, quick to build on a small
//! machine; SSE is plain HTTP (a response that never ends), so it needs no
//! WebSocket library, and the browser's `EventSource` reconnects by itself.

use super::app::{App, Limits, Method, Reply, Subscription};
use super::form::Params;
use super::GuiError;
use crate::commands::CommandError;
use crate::evals::load_network;
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
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
    let server = tiny_http::Server::from_listener(listener, None)
        .map_err(|e| CommandError::Usage(format!("cannot serve on {addr}: {e}")))?;
    let server = Arc::new(server);
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
    let streams = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for i in 0..WORKERS {
        let (server, app, streams) = (server.clone(), app.clone(), streams.clone());
        let worker = std::thread::Builder::new()
            .name(format!("gui-http-{i}"))
            .spawn(move || {
                while let Ok(request) = server.recv() {
                    serve(&app, request, addr, &streams);
                }
            })?;
        workers.push(worker);
    }
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

/// The value of the header `name`.
fn header<'a>(request: &'a tiny_http::Request, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
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

/// Reads the request's body, up to [`MAX_BODY`].
fn read_body(request: &mut tiny_http::Request) -> Result<String, GuiError> {
    let too_large = |len| GuiError::TooLarge {
        what: "the request",
        len,
        limit: MAX_BODY,
    };
    if let Some(len) = request.body_length().filter(|&l| l > MAX_BODY) {
        return Err(too_large(len));
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| GuiError::BadInput(format!("the request could not be read: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large(body.len()));
    }
    String::from_utf8(body).map_err(|_| GuiError::BadInput("the request is not UTF-8".into()))
}

/// What a request asks for: the method, path and parameters (query and
/// body), once the limits and the origin are checked.
fn parse_request(
    request: &mut tiny_http::Request,
    addr: SocketAddr,
) -> Result<(Method, String, Params), GuiError> {
    let url = request.url().to_string();
    if url.len() > MAX_URL {
        return Err(GuiError::TooLarge {
            what: "the address",
            len: url.len(),
            limit: MAX_URL,
        });
    }
    check_origin(header(request, "Host"), header(request, "Origin"), addr)?;
    let method = match request.method() {
        tiny_http::Method::Get | tiny_http::Method::Head => Method::Get,
        tiny_http::Method::Post => Method::Post,
        _ => return Err(GuiError::Method),
    };
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let mut params = Params::parse(query)?;
    if method == Method::Post {
        params.extend(Params::parse(&read_body(request)?)?);
    }
    Ok((method, path.to_string(), params))
}

fn serve(app: &App, mut request: tiny_http::Request, addr: SocketAddr, streams: &Arc<AtomicUsize>) {
    let reply = match parse_request(&mut request, addr) {
        Ok((method, path, params)) => app.handle(method, &path, &params),
        Err(e) => Reply::error(&e),
    };
    match reply {
        Reply::Body {
            status,
            content_type,
            body,
            download,
        } => {
            let mut response = tiny_http::Response::from_string(body).with_status_code(status);
            let disposition = download.map(|name| format!("attachment; filename=\"{name}\""));
            let headers = [
                ("Content-Type", Some(content_type)),
                ("Cache-Control", Some("no-store")),
                ("X-Content-Type-Options", Some("nosniff")),
                ("Content-Security-Policy", Some(CSP)),
                ("Content-Disposition", disposition.as_deref()),
            ];
            for (name, value) in headers {
                if let Some(h) = value
                    .and_then(|v| tiny_http::Header::from_bytes(name.as_bytes(), v.as_bytes()).ok())
                {
                    response.add_header(h);
                }
            }
            // A tab closed before its answer is not an error worth telling.
            let _ = request.respond(response);
        }
        Reply::Events(subscription) => {
            if streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
                streams.fetch_sub(1, Ordering::SeqCst);
                let busy = GuiError::Busy("too many live connections".into());
                let _ = request.respond(
                    tiny_http::Response::from_string(busy.to_string()).with_status_code(503),
                );
                return;
            }
            let writer = request.into_writer();
            let open = streams.clone();
            let spawned = std::thread::Builder::new()
                .name("gui-events".into())
                .spawn(move || {
                    stream(writer, &subscription);
                    open.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                streams.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
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
