//! The HTTP/1.1 of `fianchetto gui`: one request per connection, read with
//! every part bounded before it is read, and a reply written whole.
//!
//! Why our own: the app needs little of HTTP (a request line, a few
//! headers, a form body of known length; a reply, or a stream that never
//! ends), and it must survive any bytes sent to it. tiny_http, used until
//! now, drains an unread body by allocating the length the client declared,
//! so one request claiming a body of 100 GB stopped the app (and every game
//! it held) with an allocation failure; its request head had no limit
//! either. Here the head is at most [`MAX_HEAD`] bytes and
//! [`MAX_HEADERS`] lines, a body over the caller's limit is refused before
//! any of it is read, and nothing is allocated by what a client declares.

use super::GuiError;
use std::io::{self, BufRead, Read, Write};

/// The longest request head (request line and headers) accepted.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most header lines accepted.
pub const MAX_HEADERS: usize = 64;

/// A request's method, as far as the app tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HttpMethod {
    /// `GET`.
    Get,
    /// `HEAD`: a `GET` whose reply has no body.
    Head,
    /// `POST`.
    Post,
    /// Any other.
    Other,
}

/// A request, read whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The method.
    pub method: HttpMethod,
    /// The request target (path and query).
    pub target: String,
    /// The headers in order, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body (empty without one).
    pub body: Vec<u8>,
}

impl Request {
    /// The value of the first header called `name` (in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why no request was read.
#[derive(Debug)]
pub enum ReadError {
    /// The request is malformed or over a limit: answer with this error
    /// (its body, if any, is left unread).
    Refused(GuiError),
    /// The connection closed, failed or timed out before a whole request
    /// came: there is nobody to answer.
    Closed(io::Error),
}

impl From<GuiError> for ReadError {
    fn from(e: GuiError) -> ReadError {
        ReadError::Refused(e)
    }
}

fn bad(message: &str) -> ReadError {
    ReadError::Refused(GuiError::BadInput(message.to_string()))
}

/// Reads one request from `input`, its body up to `max_body` bytes. A
/// client that asks to be told first (`Expect: 100-continue`) is told on
/// `output` once its body's length is accepted.
pub fn read_request(
    input: &mut impl BufRead,
    output: &mut impl Write,
    max_body: usize,
) -> Result<Request, ReadError> {
    let mut budget = MAX_HEAD;
    let request_line = read_line(input, &mut budget)?;
    let mut parts = request_line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("the request line is not `METHOD TARGET HTTP/1.1`"));
    };
    if !version.starts_with("HTTP/1.") || target.is_empty() {
        return Err(bad("the request line is not `METHOD TARGET HTTP/1.1`"));
    }
    let method = match method {
        "GET" => HttpMethod::Get,
        "HEAD" => HttpMethod::Head,
        "POST" => HttpMethod::Post,
        _ => HttpMethod::Other,
    };
    let target = target.to_string();
    let mut headers = Vec::new();
    loop {
        let line = read_line(input, &mut budget)?;
        if line.is_empty() {
            break;
        }
        if headers.len() == MAX_HEADERS {
            return Err(GuiError::TooLarge {
                what: "the request's header list",
                len: MAX_HEADERS + 1,
                limit: MAX_HEADERS,
            }
            .into());
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(bad("a header line has no `:`"));
        };
        if name.is_empty() || name.bytes().any(|b| b.is_ascii_whitespace()) {
            // Folded lines (a leading space) are obsolete and refused.
            return Err(bad("a header name is empty or holds a space"));
        }
        headers.push((name.to_string(), value.trim().to_string()));
    }
    let mut request = Request {
        method,
        target,
        headers,
        body: Vec::new(),
    };
    if request.header("Transfer-Encoding").is_some() {
        return Err(bad(
            "a request body needs a Content-Length (chunked bodies are not accepted)",
        ));
    }
    let mut length: Option<u64> = None;
    for (_, value) in request
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
    {
        let parsed = Some(value)
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(|| bad("the Content-Length is not a number"))?;
        if length.is_some_and(|l| l != parsed) {
            return Err(bad("two different Content-Lengths"));
        }
        length = Some(parsed);
    }
    let length = length.unwrap_or(0);
    if length > max_body as u64 {
        return Err(GuiError::TooLarge {
            what: "the request",
            len: usize::try_from(length).unwrap_or(usize::MAX),
            limit: max_body,
        }
        .into());
    }
    if length > 0 {
        if request
            .header("Expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
        {
            output
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .and_then(|()| output.flush())
                .map_err(ReadError::Closed)?;
        }
        // Within `max_body`, checked above.
        request.body = vec![0; length as usize];
        input
            .read_exact(&mut request.body)
            .map_err(ReadError::Closed)?;
    }
    Ok(request)
}

/// One line of the head, without its line end (CRLF, or a bare LF), taken
/// out of `budget`.
fn read_line(input: &mut impl BufRead, budget: &mut usize) -> Result<String, ReadError> {
    let mut line = Vec::new();
    // One byte more than the budget, to tell a line at the limit from one
    // over it.
    let read = input
        .take(*budget as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(ReadError::Closed)?;
    if read > *budget {
        return Err(GuiError::TooLarge {
            what: "the request's head",
            len: read,
            limit: MAX_HEAD,
        }
        .into());
    }
    *budget -= read;
    if line.last() != Some(&b'\n') {
        return Err(ReadError::Closed(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the connection closed inside the request's head",
        )));
    }
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line).map_err(|_| bad("the request's head is not UTF-8"))
}

/// The reason phrase of a status the app sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Content Too Large",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// Writes a whole reply: the status line, `headers` (a value that holds a
/// control character, which could end the header, is left out), the body's
/// length, `Connection: close`, and the body unless `head_only`.
pub fn write_response(
    output: &mut impl Write,
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
    head_only: bool,
) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        if !value.chars().any(char::is_control) {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    output.write_all(head.as_bytes())?;
    if !head_only {
        output.write_all(body)?;
    }
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], max_body: usize) -> (Result<Request, ReadError>, Vec<u8>) {
        let mut out = Vec::new();
        let r = read_request(&mut io::BufReader::new(bytes), &mut out, max_body);
        (r, out)
    }

    fn refused(bytes: &[u8], max_body: usize) -> GuiError {
        match read(bytes, max_body).0 {
            Err(ReadError::Refused(e)) => e,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn requests_are_read_whole() {
        let (r, out) = read(
            b"POST /api/move?x=1 HTTP/1.1\r\nHost: 127.0.0.1:8088\r\ncontent-length: 9\r\n\r\nmove=e2e4",
            100,
        );
        let r = r.unwrap();
        assert_eq!(r.method, HttpMethod::Post);
        assert_eq!(r.target, "/api/move?x=1");
        assert_eq!(r.header("HOST"), Some("127.0.0.1:8088"));
        assert_eq!(r.body, b"move=e2e4");
        assert!(out.is_empty());
        // A bare LF ends lines too; no body without a length.
        let r = read(b"HEAD / HTTP/1.0\nX-A:  b \n\n", 100).0.unwrap();
        assert_eq!((r.method, r.header("x-a")), (HttpMethod::Head, Some("b")));
        assert!(r.body.is_empty());
        let r = read(b"PUT / HTTP/1.1\r\n\r\n", 100).0.unwrap();
        assert_eq!(r.method, HttpMethod::Other);
        // A client that waits for leave to send its body gets it.
        let (r, out) = read(
            b"POST / HTTP/1.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\nab",
            100,
        );
        assert_eq!(r.unwrap().body, b"ab");
        assert_eq!(out, b"HTTP/1.1 100 Continue\r\n\r\n");
    }

    #[test]
    fn declared_sizes_are_refused_before_anything_is_read() {
        // 100 GB declared, three bytes sent: refused by the declaration,
        // nothing allocated for it.
        let e = refused(
            b"POST /api/move HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\nabc",
            1000,
        );
        assert!(
            matches!(
                e,
                GuiError::TooLarge {
                    len: 99_999_999_999,
                    limit: 1000,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(e.status(), 413);
        let e = refused(
            b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            1000,
        );
        assert_eq!(e.status(), 400, "{e}");
        for length in ["-5", "+5", "5 5", "0x10", ""] {
            let request = format!("POST / HTTP/1.1\r\nContent-Length: {length}\r\n\r\n");
            assert_eq!(refused(request.as_bytes(), 1000).status(), 400, "{length}");
        }
        let e = refused(
            b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            1000,
        );
        assert_eq!(e.status(), 400);
        let e = refused(
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
            1000,
        );
        assert!(e.to_string().contains("Content-Length"), "{e}");
    }

    #[test]
    fn heads_are_bounded() {
        // One endless header line.
        let mut long = b"GET / HTTP/1.1\r\nX: ".to_vec();
        long.extend(std::iter::repeat_n(b'a', 10 * MAX_HEAD));
        let e = refused(&long, 0);
        assert!(
            matches!(
                e,
                GuiError::TooLarge {
                    limit: MAX_HEAD,
                    ..
                }
            ),
            "{e}"
        );
        // Many short ones, over the whole head's budget or the line count.
        let mut many = b"GET / HTTP/1.1\r\n".to_vec();
        for i in 0..MAX_HEADERS + 1 {
            many.extend(format!("X-{i}: 1\r\n").as_bytes());
        }
        many.extend(b"\r\n");
        assert_eq!(refused(&many, 0).status(), 413);
        // A head exactly at the budget is read.
        let mut exact = b"GET / HTTP/1.1\r\nX: ".to_vec();
        let fill = MAX_HEAD - exact.len() - 4;
        exact.extend(std::iter::repeat_n(b'a', fill));
        exact.extend(b"\r\n\r\n");
        assert_eq!(exact.len(), MAX_HEAD);
        assert!(read(&exact, 0).0.is_ok());
        exact.insert(20, b'a');
        assert_eq!(refused(&exact, 0).status(), 413);
    }

    #[test]
    fn malformed_heads_are_refused_and_cut_ones_closed() {
        for bytes in [
            &b"GET /\r\n\r\n"[..],
            b"GET / HTTP/1.1 extra\r\n\r\n",
            b"GET  HTTP/1.1\r\n\r\n",
            b"GET / SPDY/3\r\n\r\n",
            b"\x00\x01\x02\r\n\r\n",
            b"GET / HTTP/1.1\r\nno colon\r\n\r\n",
            b"GET / HTTP/1.1\r\n folded: x\r\n\r\n",
            b"GET / HTTP/1.1\r\n: x\r\n\r\n",
            b"GET / HTTP/1.1\r\nX: \xff\xfe\r\n\r\n",
        ] {
            assert_eq!(refused(bytes, 0).status(), 400, "{bytes:?}");
        }
        for bytes in [
            &b""[..],
            b"GET / HTTP/1.1",
            b"GET / HTTP/1.1\r\nHost: x\r\n",
            b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc",
        ] {
            assert!(
                matches!(read(bytes, 100).0, Err(ReadError::Closed(_))),
                "{bytes:?}"
            );
        }
    }

    #[test]
    fn replies_are_written_whole_and_headers_cannot_be_injected() {
        let mut out = Vec::new();
        write_response(
            &mut out,
            413,
            &[
                ("Content-Type", "text/plain"),
                (
                    "Content-Disposition",
                    "attachment; filename=\"a\r\nSet-Cookie: x\"",
                ),
            ],
            b"too big",
            false,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "HTTP/1.1 413 Content Too Large\r\nContent-Type: text/plain\r\n\
             Content-Length: 7\r\nConnection: close\r\n\r\ntoo big"
        );
        let mut out = Vec::new();
        write_response(&mut out, 200, &[], b"body", true).unwrap();
        assert!(String::from_utf8(out)
            .unwrap()
            .ends_with("Content-Length: 4\r\nConnection: close\r\n\r\n"));
    }
}
