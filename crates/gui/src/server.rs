//! The HTTP side of `fianchetto gui`: [axum] routes every request to the
//! app ([`App::handle`]) and turns its replies into responses, live ones
//! as Server-Sent Events ([`axum::response::Sse`]); hyper serves the
//! connections, one request each, on tokio.
//!
//! What a request may be is enforced by the framework, before the app sees
//! it:
//!
//! - a head (request line and headers) over [`MAX_HEAD`] bytes, or with
//!   more than [`MAX_HEADERS`] headers, is refused by hyper's parser (431)
//!   without reading further (`http1::Builder::max_buf_size`,
//!   `max_headers`), and a head not complete within [`IO_TIMEOUT`] closes
//!   the connection (`header_read_timeout`);
//! - a body over [`MAX_BODY`] is refused (413): a declared
//!   `Content-Length` over it at once, before a byte of the body is read or
//!   a buffer is reserved for it; a chunked body once it passes the limit
//!   ([`DefaultBodyLimit`]); a request not read within [`IO_TIMEOUT`] gets
//!   408;
//! - a `Host` other than the address the app listens on (DNS rebinding)
//!   and a cross-site `Origin` are refused (403): see [`check_origin`]; so
//!   is a POST that `Referer` or `Sec-Fetch-Site` says comes from another
//!   site (see [`check_sender`]); two `Host` headers are refused (400).
//!
//! A write that the client does not take within [`IO_TIMEOUT`] (it
//! stopped reading, a live stream's included) drops the connection; a
//! refused request's unread rest is read and thrown away for up to a
//! second, so that the client sees the refusal rather than a reset.
//!
//! Why Server-Sent Events: the page needs requests and one stream of
//! updates from the server, nothing the browser sends back on a live
//! channel. SSE is plain HTTP (a response that never ends), and the
//! browser's `EventSource` reconnects by itself. Every connection carries
//! one request (no keep-alive): the app is local, and a connection that
//! cannot be reused cannot be left in a bad state by the request before.

use super::app::{App, Limits, Method, Reply, Subscription};
use super::params::Params;
use super::GuiError;
use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method as HttpMethod, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::Router;
use fianchetto_eval::select::load_network;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::Semaphore;

/// The port tried when none is given (any free one if it is taken).
const DEFAULT_PORT: u16 = 8088;
/// The largest request head (request line and headers) accepted, in bytes.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most headers a request may have.
pub const MAX_HEADERS: usize = 64;
/// The longest URL accepted.
pub const MAX_URL: usize = 8 * 1024;
/// The largest request body accepted: a PGN at its limit, form-encoded
/// (up to three bytes for one), and the other parameters.
pub const MAX_BODY: usize = 3 * super::app::MAX_PGN + 1024;
/// Threads answering requests.
const WORKERS: usize = 4;
/// Connections served at once; more wait to be accepted.
const MAX_CONNECTIONS: usize = 256;
/// Live connections open at once, all tabs together.
const MAX_STREAMS: usize = 64;
/// A live connection sends a comment this often: it finds a closed tab,
/// and keeps the tab's session alive while it is open.
const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How long a connection may take to send its request head, and then its
/// body, however slowly it trickles in; and how long a live connection
/// that reads nothing is kept.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// Events queued for a live connection's socket.
const EVENT_QUEUE: usize = 4;
/// After a connection ends with part of the request unread (a refusal),
/// this much of it is still read and thrown away, for at most
/// [`DRAIN_TIME`], so that the client sees the refusal rather than a reset
/// connection.
const MAX_DRAIN: usize = 1 << 20;
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

/// Why the app could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The address cannot be listened on, or the network cannot be loaded.
    #[error("{0}")]
    Usage(String),
    /// Writing the address, or starting the threads, failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Runs the app until the process is stopped.
pub fn run(args: &GuiArgs) -> Result<(), StartError> {
    let listener = bind(args)?;
    let addr = listener.local_addr()?;
    let url = page_url(addr);
    let net = load_network(None).map_err(|e| StartError::Usage(e.to_string()))?;
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
    let runtime = runtime()?;
    runtime.block_on(serve(listener, app))?;
    Ok(())
}

/// The runtime the server runs on.
fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(WORKERS)
        .thread_name("gui-http")
        .enable_all()
        .build()
}

/// Serves `app` on `listener` from a thread of its own (with its own
/// runtime) until the process ends: what tests and programs that embed
/// the app call.
pub fn spawn(listener: TcpListener, app: Arc<App>) -> std::io::Result<std::thread::JoinHandle<()>> {
    let runtime = runtime()?;
    std::thread::Builder::new()
        .name("gui-server".into())
        .spawn(move || {
            let _ = runtime.block_on(serve(listener, app));
        })
}

/// Accepts the connections of `listener` and answers each with
/// [`router`], under the limits on heads and headers; runs until the
/// listener fails.
pub async fn serve(listener: TcpListener, app: Arc<App>) -> std::io::Result<()> {
    let addr = listener.local_addr()?;
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let router = router(app, addr);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors, say: wait for some to close.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            // A client that goes away or sends nonsense ends its own
            // connection; hyper has answered what deserves an answer.
            let _ = connection()
                .serve_connection(TokioIo::new(Lingering::new(stream, IO_TIMEOUT)), service)
                .await;
            drop(slot);
        });
    }
}

/// How each connection is served: one request, a head of at most
/// [`MAX_HEAD`] bytes and [`MAX_HEADERS`] headers, read within
/// [`IO_TIMEOUT`].
fn connection() -> http1::Builder {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(IO_TIMEOUT)
        .max_buf_size(MAX_HEAD)
        .max_headers(MAX_HEADERS)
        .keep_alive(false)
        .title_case_headers(true);
    builder
}

/// A connection whose writes each wait at most a set time (a client that
/// stops reading, a live one included, is dropped rather than held), and
/// that, when hyper is done with it, stops writing and reads (and throws
/// away) what the client is still sending, a bounded amount for a bounded
/// time, before it is closed.
struct Lingering {
    stream: Option<tokio::net::TcpStream>,
    /// How long one write may wait for the client to read.
    write_timeout: Duration,
    /// When the write waiting now gives up.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Lingering {
    fn new(stream: tokio::net::TcpStream, write_timeout: Duration) -> Lingering {
        Lingering {
            stream: Some(stream),
            write_timeout,
            deadline: None,
        }
    }

    fn stream(&mut self) -> std::io::Result<&mut tokio::net::TcpStream> {
        self.stream
            .as_mut()
            .ok_or_else(|| std::io::ErrorKind::NotConnected.into())
    }

    /// `poll` of a write, given up with `TimedOut` once it has waited
    /// [`Lingering::write_timeout`].
    fn bounded<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: impl FnOnce(Pin<&mut tokio::net::TcpStream>, &mut Context<'_>) -> Poll<std::io::Result<T>>,
    ) -> Poll<std::io::Result<T>> {
        let stream = match self.stream() {
            Ok(s) => s,
            Err(e) => return Poll::Ready(Err(e)),
        };
        match poll(Pin::new(stream), cx) {
            Poll::Ready(r) => {
                self.deadline = None;
                Poll::Ready(r)
            }
            Poll::Pending => {
                let timeout = self.write_timeout;
                let deadline = self
                    .deadline
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                match deadline.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(std::io::ErrorKind::TimedOut.into())),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncRead for Lingering {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        match self.stream() {
            Ok(s) => Pin::new(s).poll_read(cx, buf),
            Err(e) => Poll::Ready(Err(e)),
        }
    }
}

impl AsyncWrite for Lingering {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.bounded(cx, |s, cx| s.poll_write(cx, buf))
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.bounded(cx, |s, cx| s.poll_flush(cx))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.bounded(cx, |s, cx| s.poll_shutdown(cx))
    }
}

impl Drop for Lingering {
    fn drop(&mut self) {
        let Some(mut stream) = self.stream.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let _ = stream.shutdown().await;
            let mut buf = [0u8; 8192];
            let mut left = MAX_DRAIN;
            let drain = async {
                while left > 0 {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => left = left.saturating_sub(n),
                    }
                }
            };
            let _ = tokio::time::timeout(DRAIN_TIME, drain).await;
        });
    }
}

/// What the handlers share.
#[derive(Clone)]
struct Server {
    app: Arc<App>,
    addr: SocketAddr,
    streams: Arc<AtomicUsize>,
}

/// The app's routes for `app` listening on `addr` (the address the `Host`
/// of each request must name): every path goes to [`App::handle`], behind
/// the checks on the request's size, host and origin.
pub fn router(app: Arc<App>, addr: SocketAddr) -> Router {
    let server = Server {
        app,
        addr,
        streams: Arc::new(AtomicUsize::new(0)),
    };
    Router::new()
        .fallback(handle)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(server.clone(), guard))
        .with_state(server)
}

/// The checks made before a request is read: its declared body, its URL,
/// its host and origin; then the whole request must arrive within
/// [`IO_TIMEOUT`].
async fn guard(State(server): State<Server>, request: Request, next: Next) -> Response {
    if let Err(e) = admit(&request, server.addr) {
        return error(&e);
    }
    match tokio::time::timeout(IO_TIMEOUT, next.run(request)).await {
        Ok(response) => response,
        Err(_) => (StatusCode::REQUEST_TIMEOUT, "the request took too long").into_response(),
    }
}

/// Whether a request may go on to the app (see [`guard`]).
fn admit(request: &Request, addr: SocketAddr) -> Result<(), GuiError> {
    let headers = request.headers();
    if let Some(length) = headers.get(header::CONTENT_LENGTH) {
        let length = length
            .to_str()
            .ok()
            .and_then(|l| l.trim().parse::<u64>().ok())
            .ok_or_else(|| GuiError::BadInput("a malformed Content-Length".into()))?;
        if length > MAX_BODY as u64 {
            return Err(GuiError::TooLarge {
                what: "the request",
                len: usize::try_from(length).unwrap_or(usize::MAX),
                limit: MAX_BODY,
            });
        }
    }
    let url = request.uri().to_string();
    if url.len() > MAX_URL {
        return Err(GuiError::TooLarge {
            what: "the address",
            len: url.len(),
            limit: MAX_URL,
        });
    }
    // Two `Host`s (or two `Origin`s…) could be read one way here and
    // another way by a proxy or a browser: refused.
    for name in [
        header::HOST,
        header::ORIGIN,
        header::REFERER,
        SEC_FETCH_SITE,
    ] {
        if headers.get_all(&name).iter().nth(1).is_some() {
            return Err(GuiError::BadInput(format!(
                "a request with more than one {name} header"
            )));
        }
    }
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    let host = text(header::HOST);
    let origin = text(header::ORIGIN);
    check_origin(host, origin, addr)?;
    if !matches!(*request.method(), HttpMethod::GET | HttpMethod::HEAD) {
        check_sender(host, origin, text(header::REFERER), text(SEC_FETCH_SITE))?;
    }
    Ok(())
}

/// The header a browser names the site that makes a request with.
const SEC_FETCH_SITE: header::HeaderName = header::HeaderName::from_static("sec-fetch-site");

/// Refuses a state-changing request (a POST) that a browser says comes
/// from another site, whichever header says it: `Sec-Fetch-Site` other
/// than `same-origin` or `none` (typed in, a bookmark), or, without an
/// `Origin` (checked by [`check_origin`]), a `Referer` on another host.
/// A request with none of them (a script, `curl`) is taken.
pub fn check_sender(
    host: Option<&str>,
    origin: Option<&str>,
    referer: Option<&str>,
    fetch_site: Option<&str>,
) -> Result<(), GuiError> {
    let cross = || {
        Err(GuiError::Forbidden(
            "requests from other sites are refused".into(),
        ))
    };
    if let Some(site) = fetch_site {
        if !site.trim().eq_ignore_ascii_case("same-origin")
            && !site.trim().eq_ignore_ascii_case("none")
        {
            return cross();
        }
    }
    if let (None, Some(referer)) = (origin, referer) {
        let from = referer
            .strip_prefix("http://")
            .map(|rest| rest.split(['/', '?', '#']).next().unwrap_or(""));
        match (from, host) {
            (Some(from), Some(host)) if from.eq_ignore_ascii_case(host) => {}
            _ => return cross(),
        }
    }
    Ok(())
}

/// Answers one request: the method, path and parameters (query and form
/// body) to the app, its reply back.
async fn handle(
    State(server): State<Server>,
    method: HttpMethod,
    uri: Uri,
    body: Bytes,
) -> Response {
    let method = match method {
        HttpMethod::GET | HttpMethod::HEAD => Method::Get,
        HttpMethod::POST => Method::Post,
        _ => return error(&GuiError::Method),
    };
    let params = match parameters(method, &uri, &body) {
        Ok(params) => params,
        Err(e) => return error(&e),
    };
    match server.app.handle(method, uri.path(), &params) {
        Reply::Events(subscription) => events(&server.streams, subscription),
        reply => respond(reply),
    }
}

/// The query's parameters, then (for a POST) the body's.
fn parameters(method: Method, uri: &Uri, body: &[u8]) -> Result<Params, GuiError> {
    let mut params = Params::parse(uri.query().unwrap_or("").as_bytes())?;
    if method == Method::Post {
        params.extend(Params::parse(body)?);
    }
    Ok(params)
}

/// The page loads its script and style from this server and nothing else.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'";

/// The reply for an error.
fn error(e: &GuiError) -> Response {
    respond(Reply::error(e))
}

/// A whole reply as a response (a stream is answered by [`events`]).
fn respond(reply: Reply) -> Response {
    let Reply::Body {
        status,
        content_type,
        body,
        download,
    } = reply
    else {
        return error(&GuiError::NotFound("a stream".into()));
    };
    let mut response = Response::new(Body::from(body));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers: &mut HeaderMap = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    if let Some(value) = download
        .and_then(|name| HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")).ok())
    {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}

/// Holds one of the [`MAX_STREAMS`] live connections while it lives.
struct StreamSlot(Arc<AtomicUsize>);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A session's snapshots as Server-Sent Events, until the tab goes (the
/// connection closes or reads nothing for [`IO_TIMEOUT`]) or the session
/// is closed (its sender is dropped). A thread per live connection waits
/// on the session's channel and hands the events to the response.
fn events(streams: &Arc<AtomicUsize>, sub: Subscription) -> Response {
    if streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        streams.fetch_sub(1, Ordering::SeqCst);
        return error(&GuiError::Busy("too many live connections".into()));
    }
    let slot = StreamSlot(streams.clone());
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(EVENT_QUEUE);
    let spawned = std::thread::Builder::new()
        .name("gui-events".into())
        .spawn(move || {
            let _slot = slot;
            forward(&sub, &tx);
        });
    if spawned.is_err() {
        return error(&GuiError::Busy("cannot start a live connection".into()));
    }
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|event| (Ok::<_, Infallible>(event), rx))
    });
    let mut response = Sse::new(stream).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream; charset=utf-8"),
    );
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Hands the snapshots of `sub` to `tx` as events (and a comment when
/// there is none for [`KEEP_ALIVE`]) until the session or the connection
/// ends.
fn forward(sub: &Subscription, tx: &tokio::sync::mpsc::Sender<Event>) {
    loop {
        let event = match sub.events.recv_timeout(KEEP_ALIVE) {
            Ok(mut state) => {
                // Only the newest snapshot matters: skip those queued
                // behind it.
                while let Ok(newer) = sub.events.try_recv() {
                    state = newer;
                }
                Event::default().event("state").data(state)
            }
            Err(RecvTimeoutError::Timeout) => {
                if !sub.touch() {
                    return;
                }
                Event::default().comment("keep-alive")
            }
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if !send_within(tx, event, IO_TIMEOUT) {
            return;
        }
    }
}

/// Queues `event`, waiting up to `time` for room; false when the
/// connection is gone or reads nothing for that long.
fn send_within(tx: &tokio::sync::mpsc::Sender<Event>, mut event: Event, time: Duration) -> bool {
    let until = Instant::now() + time;
    loop {
        match tx.try_send(event) {
            Ok(()) => return true,
            Err(TrySendError::Closed(_)) => return false,
            Err(TrySendError::Full(back)) => {
                if Instant::now() >= until {
                    return false;
                }
                event = back;
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

/// Listens where the arguments say: the port given (an error if taken),
/// or 8088, or any free port.
fn bind(args: &GuiArgs) -> Result<TcpListener, StartError> {
    let at = |port| TcpListener::bind(SocketAddr::new(args.bind, port));
    match args.port {
        Some(port) => at(port).map_err(|e| {
            StartError::Usage(format!(
                "cannot listen on {}:{port}: {e} (--port 0 takes any free port)",
                args.bind
            ))
        }),
        None => at(DEFAULT_PORT)
            .or_else(|_| at(0))
            .map_err(|e| StartError::Usage(format!("cannot listen on {}: {e}", args.bind))),
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

/// Refuses what a page of another site could send: a `Host` that does not
/// name the address the app listens on, `addr` (DNS rebinding: another
/// name resolving to it), and a cross-site `Origin`.
///
/// The host is that address with or without the port (`[…]` around an
/// IPv6 one); listening on a loopback address, `localhost`, `127.0.0.1`
/// and `[::1]` name it too. An app listening on every address
/// (`--bind 0.0.0.0`) cannot tell its names and takes any host.
pub fn check_origin(
    host: Option<&str>,
    origin: Option<&str>,
    addr: SocketAddr,
) -> Result<(), GuiError> {
    let port = addr.port();
    let ip = match addr.ip() {
        IpAddr::V4(ip) => ip.to_string(),
        IpAddr::V6(ip) => format!("[{ip}]"),
    };
    let mut names = vec![ip];
    if addr.ip().is_loopback() {
        names.extend(["localhost", "127.0.0.1", "[::1]"].map(String::from));
    }
    let named = |host: &str| {
        let name = match host.rsplit_once(':') {
            // `[::1]` alone has colons but no port after its bracket.
            Some((name, p)) if !p.contains(']') && p == port.to_string() => name,
            Some((_, p)) if !p.contains(']') => return false,
            _ => host,
        };
        names.iter().any(|n| n.eq_ignore_ascii_case(name))
    };
    let host_ok = addr.ip().is_unspecified() || host.is_some_and(named);
    if !host_ok {
        return Err(GuiError::Forbidden(format!(
            "the app answers as {}:{port} only",
            names.join(&format!(":{port} or "))
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    #[test]
    fn hosts_and_origins_are_checked() {
        let local: SocketAddr = "127.0.0.1:8088".parse().unwrap();
        for host in [
            "127.0.0.1:8088",
            "localhost:8088",
            "127.0.0.1",
            "localhost",
            "[::1]:8088",
        ] {
            assert!(check_origin(Some(host), None, local).is_ok(), "{host}");
        }
        assert!(check_origin(Some("localhost:8088"), Some("http://localhost:8088"), local).is_ok());
        // DNS rebinding: another name for this address, or another port.
        for host in [
            "evil.example:8088",
            "evil.example",
            "127.0.0.1:9999",
            "localhost:",
        ] {
            assert_eq!(
                check_origin(Some(host), None, local).map_err(|e| e.status()),
                Err(403),
                "{host}"
            );
        }
        assert!(check_origin(None, None, local).is_err());
        // Another site's page posting here.
        assert!(check_origin(Some("127.0.0.1:8088"), Some("http://evil.example"), local).is_err());
        // Bound to one address of the network: that address only.
        let lan: SocketAddr = "192.168.1.5:80".parse().unwrap();
        assert!(check_origin(Some("192.168.1.5:80"), None, lan).is_ok());
        assert!(check_origin(Some("192.168.1.5"), None, lan).is_ok());
        assert!(check_origin(Some("localhost:80"), None, lan).is_err());
        assert!(check_origin(Some("chess.lan"), None, lan).is_err());
        let v6: SocketAddr = "[::1]:8088".parse().unwrap();
        assert!(check_origin(Some("[::1]:8088"), None, v6).is_ok());
        assert!(check_origin(Some("[::1]"), None, v6).is_ok());
        // Opened to every address on purpose: any host name.
        let open: SocketAddr = "0.0.0.0:80".parse().unwrap();
        assert!(check_origin(Some("chess.lan"), None, open).is_ok());
    }

    #[test]
    fn cross_site_senders_are_refused_whatever_header_names_them() {
        let host = Some("127.0.0.1:8088");
        let ok = |origin, referer, site| check_sender(host, origin, referer, site).is_ok();
        assert!(ok(None, None, None));
        assert!(ok(None, None, Some("same-origin")));
        assert!(ok(None, None, Some("none")));
        assert!(ok(None, Some("http://127.0.0.1:8088/"), None));
        assert!(ok(None, Some("http://127.0.0.1:8088"), Some("same-origin")));
        assert!(ok(Some("http://127.0.0.1:8088"), None, Some("same-origin")));
        assert!(!ok(None, None, Some("cross-site")));
        assert!(!ok(None, None, Some("same-site")));
        assert!(!ok(None, None, Some("Cross-Site")));
        assert!(!ok(None, Some("http://evil.example/"), None));
        assert!(!ok(None, Some("http://evil.example"), Some("cross-site")));
        assert!(!ok(None, Some("http://127.0.0.1:8088.evil.example/"), None));
        assert!(!ok(None, Some("http://127.0.0.1:9999/"), None));
        assert!(!ok(None, Some("https://127.0.0.1:8088/"), None));
        assert!(!ok(None, Some("junk"), None));
        assert!(!ok(Some("http://127.0.0.1:8088"), None, Some("cross-site")));
    }

    #[test]
    fn cross_site_posts_and_two_hosts_are_refused_over_http() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let net = Arc::new(fianchetto_eval::nnue::Network::zero());
        let app = Arc::new(App::new(net, Limits::default()));
        let _server = spawn(listener, app).unwrap();
        let host = format!("Host: {addr}\r\n");
        let reply = exchange(
            addr,
            format!("POST /api/session HTTP/1.1\r\n{host}Content-Length: 0\r\n\r\n").as_bytes(),
        );
        assert!(reply.starts_with("HTTP/1.1 200 "), "{reply}");
        let start = reply.find("\"session\":\"").unwrap() + 11;
        let id = reply[start..start + 32].to_string();
        let play = |extra: &str| {
            let body = format!("session={id}&move=e2e4");
            exchange(
                addr,
                format!(
                    "POST /api/move HTTP/1.1\r\n{host}{extra}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            )
        };
        for extra in [
            "Referer: http://evil.example/\r\nSec-Fetch-Site: cross-site\r\n",
            "Referer: http://evil.example/\r\n",
            "Sec-Fetch-Site: cross-site\r\n",
            "Sec-Fetch-Site: same-site\r\n",
            "Origin: http://evil.example\r\n",
        ] {
            let reply = play(extra);
            assert!(reply.starts_with("HTTP/1.1 403 "), "{extra}: {reply}");
        }
        // Two `Host`s, the first this app's: refused, whichever comes first.
        let port = addr.port();
        for hosts in [
            format!("{host}Host: evil.example:{port}\r\n"),
            format!("Host: evil.example:{port}\r\n{host}"),
            format!("{host}{host}"),
        ] {
            let reply = exchange(
                addr,
                format!("GET /api/state?session={id} HTTP/1.1\r\n{hosts}\r\n").as_bytes(),
            );
            assert!(reply.starts_with("HTTP/1.1 400 "), "{hosts}: {reply}");
        }
        // Nothing was played; the page's own request plays.
        let reply = play(&format!(
            "Origin: http://{addr}\r\nReferer: http://{addr}/\r\nSec-Fetch-Site: same-origin\r\n"
        ));
        assert!(reply.starts_with("HTTP/1.1 200 "), "{reply}");
        assert!(
            reply.contains("\"ply\":1") || reply.contains("e2e4"),
            "{reply}"
        );
    }

    #[test]
    fn idle_and_trickling_connections_delay_no_one() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let net = Arc::new(fianchetto_eval::nnue::Network::zero());
        let app = Arc::new(App::new(net, Limits::default()));
        let _server = spawn(listener, app).unwrap();
        let get = format!("GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        let started = Instant::now();
        // 8 connections that send nothing, 200 that send a byte a second.
        let idle: Vec<TcpStream> = (0..8).map(|_| TcpStream::connect(addr).unwrap()).collect();
        let mut slow: Vec<TcpStream> = (0..200)
            .map(|_| TcpStream::connect(addr).unwrap())
            .collect();
        let head = b"POST /api/move HTTP/1.1\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        for second in 0..4 {
            for c in &mut slow {
                let _ = c.write_all(&head[second..=second]);
            }
            let asked = Instant::now();
            let reply = exchange(addr, get.as_bytes());
            let took = asked.elapsed();
            assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
            assert!(
                took < Duration::from_secs(1),
                "GET / took {took:?} beside 8 idle and 200 slow connections"
            );
            std::thread::sleep(Duration::from_millis(1000).saturating_sub(took));
        }
        // A connection that never sends a byte is closed once the head's
        // time is up, not held.
        let mut quiet = idle.into_iter().next().unwrap();
        quiet
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut rest = Vec::new();
        let _ = quiet.read_to_end(&mut rest);
        let held = started.elapsed();
        assert!(
            held < IO_TIMEOUT + Duration::from_secs(5),
            "an idle connection was held {held:?}"
        );
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

    /// A request head of `headers` headers after `Host`, each `size` bytes.
    fn head(host: &str, headers: usize, size: usize) -> Vec<u8> {
        let mut head = format!("GET /api/options HTTP/1.1\r\n{host}").into_bytes();
        for i in 0..headers {
            let name = format!("X-{i:04}: ");
            head.extend(name.as_bytes());
            head.extend(std::iter::repeat_n(
                b'a',
                size.saturating_sub(name.len() + 2),
            ));
            head.extend(b"\r\n");
        }
        head.extend(b"\r\n");
        head
    }

    #[test]
    fn the_server_refuses_hostile_requests_and_keeps_serving() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let net = Arc::new(fianchetto_eval::nnue::Network::zero());
        let app = Arc::new(App::new(net, Limits::default()));
        let _server = spawn(listener, app).unwrap();
        let host = format!("Host: {addr}\r\n");
        let get = format!("GET /api/options HTTP/1.1\r\n{host}\r\n");
        let ok = exchange(addr, get.as_bytes());
        assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
        assert!(ok.contains("Content-Security-Policy: "), "{ok}");
        assert!(ok.contains("\"algorithms\":[\"pvs\","), "{ok}");

        // A body of 100 GB declared (tiny_http died of it), with and
        // without a Host: refused before a byte of it is read.
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
        // A chunked body over the limit: refused once it passes it.
        let mut chunked =
            format!("POST /api/new HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n")
                .into_bytes();
        for _ in 0..(MAX_BODY / 4096 + 2) {
            chunked.extend(b"1000\r\n");
            chunked.extend(std::iter::repeat_n(b'a', 4096));
            chunked.extend(b"\r\n");
        }
        chunked.extend(b"0\r\n\r\n");
        let reply = exchange(addr, &chunked);
        assert!(reply.starts_with("HTTP/1.1 413 "), "{reply}");

        // Heads: up to 16 KiB and 64 headers served; over either, refused.
        let fits = head(&host, 63, 200);
        assert!(fits.len() < MAX_HEAD);
        let reply = exchange(addr, &fits);
        assert!(reply.starts_with("HTTP/1.1 200 "), "{reply}");
        let reply = exchange(addr, &head(&host, 64, 100));
        assert!(reply.starts_with("HTTP/1.1 431 "), "65 headers: {reply}");
        // A count of headers is not a length in bytes.
        assert!(!reply.contains("bytes"), "65 headers: {reply}");
        let long = head(&host, 1, MAX_HEAD + 100);
        let reply = exchange(addr, &long);
        assert!(
            reply.starts_with("HTTP/1.1 431 "),
            "a head over 16 KiB: {reply}"
        );
        let mut endless = b"GET / HTTP/1.1\r\nX: ".to_vec();
        endless.extend(std::iter::repeat_n(b'a', 200_000));
        let reply = exchange(addr, &endless);
        assert!(reply.starts_with("HTTP/1.1 431 "), "{reply}");

        // Another host name for this address (DNS rebinding).
        let port = addr.port();
        let rebound = format!("GET /api/options HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n");
        let reply = exchange(addr, rebound.as_bytes());
        assert!(reply.starts_with("HTTP/1.1 403 "), "{reply}");
        let named = format!("GET /api/options HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n");
        let reply = exchange(addr, named.as_bytes());
        assert!(reply.starts_with("HTTP/1.1 200 "), "{reply}");

        let reply = exchange(addr, format!("BREW / HTTP/1.1\r\n{host}\r\n").as_bytes());
        assert!(reply.starts_with("HTTP/1.1 405 "), "{reply}");
        // A HEAD gets the headers alone.
        let reply = exchange(addr, format!("HEAD / HTTP/1.1\r\n{host}\r\n").as_bytes());
        assert!(
            reply.starts_with("HTTP/1.1 200 OK\r\n") && reply.ends_with("\r\n\r\n"),
            "{reply}"
        );

        // A client that sends a byte now and then is dropped once the
        // head's time is up (10 s), not served a byte at a time forever.
        let started = Instant::now();
        let mut slow = TcpStream::connect(addr).unwrap();
        slow.set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut dropped = false;
        let _ = slow.write_all(b"GET / HTTP/1.1\r\nX-Slow: ");
        for _ in 0..40 {
            std::thread::sleep(Duration::from_millis(500));
            if slow.write_all(b"X").is_err() {
                dropped = true;
                break;
            }
            let mut probe = [0u8; 1];
            slow.set_nonblocking(true).unwrap();
            // An answer (a refusal) or the end of the connection.
            let closed = match slow.read(&mut probe) {
                Ok(_) => true,
                Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
            };
            slow.set_nonblocking(false).unwrap();
            if closed {
                dropped = true;
                break;
            }
        }
        assert!(dropped, "a trickling client kept its connection");
        assert!(started.elapsed() < Duration::from_secs(15));

        // Still serving, and a session made now plays.
        assert_eq!(
            exchange(addr, get.as_bytes()).lines().next(),
            ok.lines().next()
        );
        let reply = exchange(
            addr,
            format!("POST /api/session HTTP/1.1\r\n{host}Content-Length: 0\r\n\r\n").as_bytes(),
        );
        assert!(reply.starts_with("HTTP/1.1 200 OK\r\n"), "{reply}");
        assert!(reply.contains("\"session\":\""), "{reply}");
        let start = reply.find("\"session\":\"").unwrap() + 11;
        let id = &reply[start..start + 32];
        // The live stream sends the state as an event.
        let mut events = TcpStream::connect(addr).unwrap();
        events
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        events
            .write_all(format!("GET /api/events?session={id} HTTP/1.1\r\n{host}\r\n").as_bytes())
            .unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !String::from_utf8_lossy(&seen).contains("event: state\ndata: {") {
            let n = events.read(&mut buf).unwrap();
            assert!(n > 0, "{}", String::from_utf8_lossy(&seen));
            seen.extend(&buf[..n]);
        }
        let seen = String::from_utf8_lossy(&seen);
        assert!(seen.starts_with("HTTP/1.1 200 OK\r\n"), "{seen}");
        assert!(seen.contains("Content-Type: text/event-stream"), "{seen}");
    }

    #[test]
    fn a_client_that_stops_reading_is_dropped() {
        let runtime = runtime().unwrap();
        let waited = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let client = tokio::net::TcpStream::connect(listener.local_addr().unwrap())
                .await
                .unwrap();
            let (server, _) = listener.accept().await.unwrap();
            let mut conn = Lingering::new(server, Duration::from_millis(300));
            let started = Instant::now();
            let chunk = vec![0u8; 1 << 16];
            // The client reads nothing: the socket's buffers fill, then a
            // write waits, and gives up.
            let failed = loop {
                if let Err(e) = conn.write_all(&chunk).await {
                    break e;
                }
                assert!(started.elapsed() < Duration::from_secs(20), "never gave up");
            };
            assert_eq!(failed.kind(), std::io::ErrorKind::TimedOut);
            drop(client);
            started.elapsed()
        });
        assert!(waited < Duration::from_secs(20), "{waited:?}");
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
