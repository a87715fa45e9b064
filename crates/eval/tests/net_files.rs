//! Network and weights files that are not what they claim: refused fast,
//! by their metadata and header, without reading them whole, and the
//! errors name the file.

use fianchetto_eval::nnue::{format::NetError, Arch, Network, Nnue, Quant};
use fianchetto_eval::select::{load_network, read_weights, EvalChoice, EvalName, EMBEDDED};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fianchetto-net-files-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `f`'s result, or a failure when it takes more than `secs` seconds (a
/// read that hangs or grows without bound).
fn within<T: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("{what} took more than {secs} s"))
}

/// Every way a network file is loaded, each an error message.
fn load_errors(path: &Path) -> Vec<String> {
    vec![
        load_network(Some(path)).unwrap_err().to_string(),
        Network::from_file(path).unwrap_err().to_string(),
        Nnue::from_file(path).unwrap_err().to_string(),
    ]
}

/// The weights error of `path` (through the file-reading entry points).
fn weights_errors(path: &Path) -> Vec<String> {
    let net = load_network(None).unwrap();
    let choice = EvalChoice::new(EvalName::Classical, &net);
    vec![
        choice
            .with_weights_file(Some(path))
            .unwrap_err()
            .to_string(),
        read_weights(path).unwrap_err(),
    ]
}

#[test]
fn an_oversized_net_with_a_valid_header_is_refused_by_its_size_unread() {
    let dir = folder("sparse");
    let path = dir.join("huge.nnue");
    let bytes = load_network(Some(Path::new(EMBEDDED))).unwrap().to_bytes();
    let header = &bytes[..fianchetto_eval::nnue::format::HEADER_SIZE];
    std::fs::write(&path, header).unwrap();
    // Sparse: 2 GiB long, nothing written past the header.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    let start = Instant::now();
    let p = path.clone();
    let errors = within(20, "an oversized net", move || load_errors(&p));
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "took {:?}: the file was read",
        start.elapsed()
    );
    for err in errors {
        assert!(
            err.contains(&path.display().to_string())
                && err.contains("2147483648 bytes")
                && err.contains(&format!("needs {}", bytes.len())),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_net_file_that_grows_past_its_header_length_is_refused() {
    let dir = folder("padded");
    let path = dir.join("padded.nnue");
    let mut bytes = Network::zero().to_bytes();
    bytes.push(0);
    std::fs::write(&path, &bytes).unwrap();
    for err in load_errors(&path) {
        assert!(
            err.contains("padded.nnue") && err.contains("truncated or padded"),
            "{err}"
        );
    }
    // The right length loads.
    bytes.pop();
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(Network::from_file(&path).unwrap(), Network::zero());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_directory_is_refused_as_a_net_or_weights_file() {
    let dir = folder("dir");
    let errors = load_errors(&dir)
        .into_iter()
        .chain(weights_errors(&dir).into_iter().take(1));
    for err in errors {
        assert!(
            err.contains(&dir.display().to_string()) && err.contains("a directory"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_as_a_net_and_as_weights_without_reading_it() {
    let zero = Path::new("/dev/zero");
    for err in within(10, "/dev/zero as a net", move || load_errors(zero)) {
        assert!(
            err.contains("/dev/zero") && err.contains("a device"),
            "{err}"
        );
    }
    let errors = within(10, "/dev/zero as weights", move || weights_errors(zero));
    assert!(
        errors[0].contains("/dev/zero") && errors[0].contains("a device"),
        "{}",
        errors[0]
    );
    assert!(errors[1].contains("a device"), "{}", errors[1]);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_as_a_net_and_as_weights_without_blocking() {
    let dir = folder("fifo");
    let fifo = dir.join("net.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !matches!(made, Ok(s) if s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let p = fifo.clone();
    let errors = within(10, "a FIFO as a net", move || {
        let mut all = load_errors(&p);
        all.extend(weights_errors(&p).into_iter().take(1));
        all
    });
    for err in errors {
        assert!(
            err.contains(&fifo.display().to_string()) && err.contains("a FIFO"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_weights_file_over_the_limit_is_refused_unread() {
    let dir = folder("weights");
    let path = dir.join("big.txt");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(fianchetto_eval::select::MAX_WEIGHTS_BYTES + 1)
        .unwrap();
    let errors = weights_errors(&path);
    assert!(
        errors[0].contains("big.txt") && errors[0].contains("larger than 1048576 bytes"),
        "{}",
        errors[0]
    );
    // Text that is not UTF-8 says so (and where).
    std::fs::write(&path, b"pawn_mg 100\n\xff\n").unwrap();
    let errors = weights_errors(&path);
    assert!(
        errors[0].contains("big.txt") && errors[0].contains("not UTF-8 text (byte 12"),
        "{}",
        errors[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_output_bias_beyond_the_evaluation_range_is_refused() {
    let h = 16;
    let arch = Arch::plain(h);
    let max = arch.quant.max_output_bias();
    assert_eq!(max, 30_999 * 255 * 64 / 400);
    let net = |bias: i32| {
        Network::try_from_parts(
            h,
            vec![0; arch.ft_weight_count()],
            vec![0; h],
            vec![0; 2 * h],
            bias,
        )
    };
    assert!(net(max as i32).is_ok());
    assert!(net(-(max as i32)).is_ok());
    for bias in [i32::MAX, i32::MIN, max as i32 + 1, -(max as i32) - 1] {
        let err = net(bias).unwrap_err();
        assert_eq!(
            err,
            NetError::OutputBias {
                bucket: 0,
                value: bias,
                max
            }
        );
        assert!(err.to_string().contains("output bias"), "{err}");
    }
    // The same bias in a file (written through the format, checksum and
    // all) is refused on loading, naming the file.
    let dir = folder("bias");
    let path = dir.join("bias.nnue");
    let mut parts = fianchetto_eval::nnue::format::parse(&Network::zero().to_bytes()).unwrap();
    parts.out_bias[0] = i32::MAX;
    std::fs::write(&path, fianchetto_eval::nnue::format::write(&parts)).unwrap();
    for err in load_errors(&path) {
        assert!(
            err.contains("bias.nnue") && err.contains(&format!("is {}", i32::MAX)),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_net_whose_output_sum_could_wrap_its_i32_is_refused() {
    // QA 1023 lets each output weight reach 32 (i16::MAX / QA); 128 of
    // them at +32, times QA², reach 4.3e9, past i32::MAX: a position with
    // every activation at QA would wrap the sum into a wrong evaluation.
    let quant = Quant {
        qa: 1023,
        ..Quant::DEFAULT
    };
    let arch = Arch {
        quant,
        ..Arch::plain(64)
    };
    let net = |out: Vec<i16>| {
        Network::new(
            arch,
            vec![0; arch.ft_weight_count()],
            vec![0; 64],
            out,
            vec![0],
        )
    };
    let err = net(vec![32; 128]).unwrap_err();
    let worst = 1023i64 * 1023 * 32 * 128;
    assert_eq!(err, NetError::OutputRange { bucket: 0, worst });
    assert!(err.to_string().contains("i32 sum"), "{err}");
    // Weights of both signs count apart: half +32 and half -32 reach half
    // as far each way, and fit.
    let mixed: Vec<i16> = (0..128)
        .map(|i| if i % 2 == 0 { 32 } else { -32 })
        .collect();
    assert!(net(mixed).is_ok());
    // The embedded network is well inside the bound.
    assert!(load_network(None).is_ok());
}
