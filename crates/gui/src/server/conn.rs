//! The connection under hyper: writes with a deadline, and a refused
//! request's unread rest drained before the socket closes.

use super::*;

/// A connection whose writes each wait at most a set time (a client that
/// stops reading, a live one included, is dropped rather than held), and
/// that, when hyper is done with it, stops writing and reads (and throws
/// away) what the client is still sending, a bounded amount for a bounded
/// time, before it is closed.
pub(super) struct Lingering {
    stream: Option<tokio::net::TcpStream>,
    /// How long one write may wait for the client to read.
    write_timeout: Duration,
    /// When the write waiting now gives up.
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Lingering {
    pub(super) fn new(stream: tokio::net::TcpStream, write_timeout: Duration) -> Lingering {
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
