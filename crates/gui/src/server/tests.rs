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
    let addr = serve();
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
    let addr = serve();
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

/// Serves an app with the default limits on a free local port: its address.
fn serve() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let net = Arc::new(fianchetto_eval::nnue::Network::zero());
    let app = Arc::new(App::new(net, Limits::default()));
    spawn(listener, app).unwrap();
    addr
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
    let addr = serve();
    let host = format!("Host: {addr}\r\n");
    let get = format!("GET /api/options HTTP/1.1\r\n{host}\r\n");
    let ok = exchange(addr, get.as_bytes());
    assert!(ok.starts_with("HTTP/1.1 200 OK\r\n"), "{ok}");
    assert!(ok.contains("Content-Security-Policy: "), "{ok}");
    assert!(ok.contains("\"algorithms\":[\"pvs\","), "{ok}");

    // A body of 100 GB declared (tiny_http died of it), with and
    // without a Host: refused before a byte of it is read.
    let huge = format!("POST /api/move HTTP/1.1\r\n{host}Content-Length: 99999999999\r\n\r\nabc");
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
        format!("POST /api/new HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n\r\n").into_bytes();
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
