//! Malformed networks refused with what is wrong, and network files read
//! with errors that name the file.

use super::*;

// ---- Malformed networks --------------------------------------------------------

/// FNV-1a, as the file's checksum, continued from `h`.
fn fnv1a(h: u32, bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// A version 2 file with its checksum (bytes 48..52, over every other
/// byte) redone.
fn resummed(mut b: Vec<u8>) -> Vec<u8> {
    let sum = fnv1a(fnv1a(0x811C_9DC5, &b[..48]), &b[52..]);
    b[48..52].copy_from_slice(&sum.to_le_bytes());
    b
}

/// `bytes` (version 2) with the `i16` at `at` set to `value` and the
/// checksum redone.
fn patched(bytes: &[u8], at: usize, value: i16) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 2].copy_from_slice(&value.to_le_bytes());
    resummed(b)
}

/// `bytes` (version 2) with the header word at `at` set to `value` and the
/// checksum redone.
fn with_word(bytes: &[u8], at: usize, value: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 4].copy_from_slice(&value.to_le_bytes());
    resummed(b)
}

fn parts(hidden: usize) -> (Vec<i16>, Vec<i16>, Vec<i16>) {
    (
        vec![1; INPUTS * hidden],
        vec![0; hidden],
        vec![1; 2 * hidden],
    )
}

#[test]
fn parts_of_the_wrong_length_are_refused() {
    let (w, b, o) = parts(16);
    assert_eq!(
        Network::try_from_parts(16, w[1..].to_vec(), b.clone(), o.clone(), 0),
        Err(NetError::Shape {
            part: "feature weights",
            expected: INPUTS * 16,
            got: INPUTS * 16 - 1,
        })
    );
    assert!(matches!(
        Network::try_from_parts(16, w.clone(), vec![0; 17], o.clone(), 0),
        Err(NetError::Shape {
            part: "feature biases",
            got: 17,
            ..
        })
    ));
    assert!(matches!(
        Network::try_from_parts(16, w.clone(), b.clone(), vec![0; 16], 0),
        Err(NetError::Shape {
            part: "output weights",
            got: 16,
            ..
        })
    ));
    // A bucketed architecture needs rows for every bucket and a bias per
    // output bucket.
    let arch = Arch::plain(16)
        .with_king_buckets(KingBuckets::MIRRORED_4)
        .with_output_buckets(8);
    assert!(matches!(
        Network::new(arch, w.clone(), b.clone(), vec![0; 16 * 16], vec![0; 8]),
        Err(NetError::Shape {
            part: "feature weights",
            expected: 49_152,
            ..
        })
    ));
    assert!(matches!(
        Network::new(
            arch,
            vec![0; 4 * INPUTS * 16],
            b.clone(),
            vec![0; 16 * 16],
            vec![0; 1]
        ),
        Err(NetError::Shape {
            part: "output biases",
            expected: 8,
            got: 1,
        })
    ));
    let message = Network::try_from_parts(24, w, b, o, 0)
        .expect_err("24 is no multiple of 16")
        .to_string();
    assert!(message.contains("hidden size 24"), "{message}");
}

#[test]
fn output_weights_beyond_the_bound_are_refused_by_index() {
    let max = MAX_OUTPUT_WEIGHT;
    assert_eq!(max, 128, "i16::MAX / QA");
    let (w, b, mut o) = parts(16);
    o[5] = max;
    o[6] = -max;
    let ok = Network::try_from_parts(16, w.clone(), b.clone(), o.clone(), 0)
        .expect("the bound itself is accepted");
    for (index, value) in [(7usize, max + 1), (20, -max - 1), (31, i16::MIN)] {
        let mut bad = o.clone();
        bad[index] = value;
        let expect = Err(NetError::OutputWeight {
            bucket: 0,
            index,
            value,
            max: max.into(),
        });
        assert_eq!(
            Network::try_from_parts(16, w.clone(), b.clone(), bad.clone(), 0),
            expect
        );
        assert!(Network::from_parts(16, w.clone(), b.clone(), bad, 0).is_none());
        // The same weight in a file.
        let at = HEADER_SIZE + 2 * (INPUTS * 16 + 16 + index);
        let bytes = patched(&ok.to_bytes(), at, value);
        assert_eq!(Network::from_bytes(&bytes), expect);
        assert!(matches!(
            Nnue::from_bytes(&bytes),
            Err(NetError::OutputWeight { .. })
        ));
    }
    // In the third output bucket of a bucketed net.
    let arch = Arch::plain(16).with_output_buckets(4);
    let mut out = vec![0; arch.out_weight_count()];
    out[2 * 32 + 9] = 200;
    let message = Network::new(arch, w, b, out, vec![0; 4])
        .expect_err("200 is out of range")
        .to_string();
    assert!(
        message.contains("output weight 9 (output bucket 2) is 200"),
        "{message}"
    );
}

#[test]
fn feature_weights_that_could_overflow_the_accumulator_are_refused() {
    let hidden = 16;
    let (mut w, mut b, o) = parts(hidden);
    // Neuron 3: bias 767 + 32 × 1000 = 32 767, just in range.
    b[3] = -767;
    w[100 * hidden + 3] = 1000;
    let ok = Network::try_from_parts(hidden, w.clone(), b.clone(), o.clone(), 0)
        .expect("exactly 32767 is accepted");
    // One more on the bias, or on the weight, overflows.
    let mut bad_bias = b.clone();
    bad_bias[3] = -768;
    assert_eq!(
        Network::try_from_parts(hidden, w.clone(), bad_bias, o.clone(), 0),
        Err(NetError::FeatureRange {
            neuron: 3,
            bias: 768,
            feature: 100,
            weight: 1000,
            total: 32_768,
        })
    );
    let mut bad_weight = w.clone();
    bad_weight[700 * hidden + 9] = -1024;
    assert!(matches!(
        Network::try_from_parts(hidden, bad_weight, b.clone(), o.clone(), 0),
        Err(NetError::FeatureRange {
            neuron: 9,
            feature: 700,
            weight: 1024,
            ..
        })
    ));
    // The same in a file: a weight, then a bias.
    let bytes = ok.to_bytes();
    let weight_at = HEADER_SIZE + 2 * (500 * hidden + 12);
    assert!(matches!(
        Network::from_bytes(&patched(&bytes, weight_at, i16::MIN)),
        Err(NetError::FeatureRange {
            neuron: 12,
            feature: 500,
            weight: 32_768,
            ..
        })
    ));
    let bias_at = HEADER_SIZE + 2 * (INPUTS * hidden + 3);
    assert!(matches!(
        Nnue::from_bytes(&patched(&bytes, bias_at, 800)),
        Err(NetError::FeatureRange {
            neuron: 3,
            bias: 800,
            ..
        })
    ));
}

#[test]
fn bad_files_are_refused_naming_what_is_wrong() {
    let arch = Arch::plain(16)
        .with_king_buckets(KingBuckets::MIRRORED_4)
        .with_output_buckets(8);
    let net = random_arch_net(arch, 20);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&net));
    let refused = |b: &[u8]| match Network::from_bytes(b) {
        Ok(_) => panic!("a bad file was accepted"),
        Err(e) => e.to_string(),
    };
    let has = |message: String, want: &str| {
        assert!(message.contains(want), "{want:?} not in {message:?}");
    };
    has(refused(&bytes[..20]), "20 bytes, shorter than its header");
    has(refused(&bytes[..100]), "100 bytes, shorter than its header");
    let mut b = bytes.clone();
    b[0] = b'X';
    has(refused(&b), "magic bytes");
    has(refused(&with_word(&bytes, 8, 3)), "format version 3");
    has(refused(&with_word(&bytes, 12, 24)), "hidden size 24");
    has(refused(&with_word(&bytes, 12, 8192)), "hidden size 8192");
    has(refused(&with_word(&bytes, 16, 2)), "activation 2");
    has(
        refused(&with_word(&bytes, 20, 5)),
        "declares 5 buckets, the map uses 4",
    );
    has(refused(&with_word(&bytes, 20, 3)), "square 16 has bucket 3");
    has(refused(&with_word(&bytes, 20, 40)), "40 king buckets");
    has(refused(&with_word(&bytes, 24, 2)), "flags 0x2");
    has(refused(&with_word(&bytes, 28, 0)), "0 output buckets");
    has(refused(&with_word(&bytes, 28, 17)), "17 output buckets");
    has(refused(&with_word(&bytes, 32, 2)), "output bucket rule 2");
    has(refused(&with_word(&bytes, 36, 0)), "QA=0");
    has(refused(&with_word(&bytes, 40, 5000)), "QB=5000");
    has(refused(&with_word(&bytes, 116, 1)), "byte 116 is 1");
    // A smaller output-bucket count makes the file too long for its header.
    has(refused(&with_word(&bytes, 28, 4)), "needs");
    has(refused(&bytes[..bytes.len() - 2]), "truncated or padded");
    let mut long = bytes.clone();
    long.push(0);
    has(refused(&resummed(long)), "truncated or padded");
    let mut b = bytes.clone();
    let last = b.len() - 1;
    b[last] ^= 1;
    has(refused(&b), "checksum mismatch");
    // The header is covered by the checksum too.
    let mut b = bytes.clone();
    b[60] ^= 1;
    has(refused(&b), "checksum mismatch");
}

#[test]
fn version_1_files_still_load() {
    // s7, the default net until s8, is a version 1 file, kept in the
    // crate beside the default.
    let shipped = include_bytes!("../../nets/s7-h256-w0.nnue");
    assert_eq!(shipped[8], 1, "s7-h256-w0.nnue is FIANNUE v1");
    let net = Network::from_bytes(shipped).expect("the v1 net loads");
    assert_eq!(*net.arch(), Arch::plain(256));
    assert_eq!(
        net.arch().to_string(),
        "(768 -> 256)x2 SCReLU -> 1, QA 255 QB 64 scale 400"
    );
    // Written back as v2 and as v1, it is the same network.
    assert_eq!(Network::from_bytes(&net.to_bytes()).as_ref(), Ok(&net));
    assert_eq!(net.to_bytes_v1().as_deref(), Some(&shipped[..]));
    // v1 cannot describe a bucketed net.
    assert!(bucketed_net(16, 0).to_bytes_v1().is_none());
    // A corrupted v1 file is refused as before.
    let mut b = shipped.to_vec();
    b[1000] ^= 4;
    assert!(matches!(
        Network::from_bytes(&b),
        Err(NetError::Checksum { .. })
    ));
    let mut b = shipped.to_vec();
    b[12] = 2;
    assert_eq!(Network::from_bytes(&b), Err(NetError::Architecture(2)));
}

#[test]
fn the_architecture_prints_as_one_line() {
    let arch = Arch::plain(1024)
        .with_king_buckets(KingBuckets::MIRRORED_4)
        .with_output_buckets(8);
    assert_eq!(
        arch.to_string(),
        "(768x4 mirrored-4 -> 1024)x2 SCReLU -> 1 x8 output buckets, QA 255 QB 64 scale 400"
    );
    assert_eq!(
        format!("{:?}", bucketed_net(16, 0)),
        "Network { (768x9 mirrored-9 -> 16)x2 SCReLU -> 1 x8 output buckets, QA 255 QB 64 scale 400 }"
    );
    for (name, buckets) in KingBuckets::NAMED {
        assert_eq!(KingBuckets::named(name), Some(*buckets));
        assert_eq!(buckets.name(), Some(*name));
    }
}

#[test]
fn the_shipped_network_loads_and_plays_sensibly() {
    use fianchetto_eval::nnue::embedded_network;
    let net = embedded_network().expect("the embedded network passes every check");
    let mut nnue = Nnue::embedded().expect("the embedded network passes every check");
    assert!(Arc::ptr_eq(nnue.network(), &net));
    // A queen up is winning for the side that has it, whoever is to move.
    let up =
        Bitboards::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let down =
        Bitboards::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert!(nnue.evaluate(&up).value() > 400);
    assert!(nnue.evaluate(&down).value() < -400);
    let start = Bitboards::startpos();
    assert!(nnue.evaluate(&start).value().abs() < 100);
}

// ---- Files -----------------------------------------------------------------

#[test]
fn nets_read_from_files_and_errors_name_the_file() {
    use fianchetto_eval::select::LoadNetError;
    let dir = std::env::temp_dir();
    let path = dir.join(format!("fianchetto-from-file-{}.nnue", std::process::id()));
    let net = random_net(32, 5);
    std::fs::write(&path, net.to_bytes()).unwrap();
    let read = Network::from_file(&path).unwrap();
    assert_eq!(read.to_bytes(), net.to_bytes());
    let board = Bitboards::startpos();
    let mut from_file = Nnue::from_file(&path).unwrap();
    let mut from_bytes = Nnue::new(Arc::new(net));
    assert_eq!(from_file.evaluate(&board), from_bytes.evaluate(&board));

    // Not a network: the error names the file and says what is wrong.
    std::fs::write(&path, b"not a network").unwrap();
    let err = Nnue::from_file(&path).unwrap_err();
    assert!(matches!(err, LoadNetError::Net { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with(&format!("network {}: ", path.display())),
        "{err}"
    );
    let _ = std::fs::remove_file(&path);

    // Missing: the path, then what the system says.
    let missing = dir.join("fianchetto-no-such-net.nnue");
    let err = Nnue::from_file(&missing).unwrap_err();
    match &err {
        LoadNetError::Io { path, source } => {
            assert_eq!(path, &missing);
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("{other}"),
    }
    assert!(
        err.to_string()
            .starts_with(&format!("cannot read network {}: ", missing.display())),
        "{err}"
    );
    assert!(Network::from_file(&missing).is_err());
}
