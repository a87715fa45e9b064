//! Which requests reach the app: size, host, origin and sender checks.

use super::*;

/// Whether a request may go on to the app (see [`guard`]).
pub(super) fn admit(request: &Request, addr: SocketAddr) -> Result<(), GuiError> {
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
