//! Arbitrary bytes as one HTTP connection to the web app: the same router,
//! limits and hyper settings as `fianchetto gui` serves a socket with
//! (`server::serve_connection`), over an in-memory stream. The client
//! sends the bytes, closes its side and reads the answer; nothing may
//! panic, and every connection must end (an event stream is cut after a
//! second).
#![no_main]

use fianchetto_gui::app::{App, Limits};
use fianchetto_gui::server::{router, serve_connection};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct Fixture {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let net = fianchetto_eval::select::load_network(None).expect("the embedded network loads");
        let app = Arc::new(App::new(net, Limits::default()));
        Fixture {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime"),
            // The dictionary carries `Host: 127.0.0.1:8080`.
            router: router(app, "127.0.0.1:8080".parse().expect("an address")),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let f = fixture();
    let data = data.to_vec();
    f.runtime.block_on(async {
        let (mut client, server) = tokio::io::duplex(1 << 20);
        let served = tokio::spawn(serve_connection(f.router.clone(), server));
        let talk = async {
            let _ = client.write_all(&data).await;
            let _ = client.shutdown().await;
            let mut answer = Vec::new();
            let _ = client.read_to_end(&mut answer).await;
            answer
        };
        let _ = tokio::time::timeout(Duration::from_secs(1), talk).await;
        drop(client);
        let _ = served.await;
    });
});
