//! `fianchetto tune texel`, `tune spsa`, `spsa-params` and `fit-probcut`
//! driven as a user runs them, on tiny inputs.

use fianchetto_eval::Params;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fianchetto"))
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("fianchetto-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// `tune spsa` on `params` for `iterations` iterations of one game pair at
/// 150 nodes a move, writing to `out`; its standard output.
fn tiny_spsa(params: &Path, out: &Path, iterations: u32) -> String {
    ok(&bin()
        .args([
            "tune",
            "spsa",
            "--games-per-iteration",
            "2",
            "--nodes",
            "150",
            "--quiet",
        ])
        .arg("--iterations")
        .arg(iterations.to_string())
        .arg("--params")
        .arg(params)
        .arg("--out")
        .arg(out)
        .output()
        .expect("runs"))
}

/// The binary with `args`, then `--data data --out out`.
fn on_data(args: &[&str], data: &Path, out: &Path) -> Output {
    bin()
        .args(args)
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .output()
        .expect("runs")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A few quiet positions with results: white is better in the 1-0 ones.
const EPD: &str = "\
# position, result
r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - c9 \"1/2-1/2\";
rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - c9 \"1-0\";
4k3/8/8/8/8/8/PPP5/R3K3 w - - [1.0]
4k3/8/8/8/8/8/PP6/R3K3 b - - 0 40 [1.0]
4k3/pp6/8/8/8/8/8/4K3 w - - [0.0]
r3k3/ppp5/8/8/8/8/5PPP/6K1 b - - [0.0]
";

#[test]
fn texel_writes_loadable_weights_and_a_plot() {
    let d = dir("texel");
    let data = d.join("data.epd");
    std::fs::write(&data, EPD).expect("write");
    let out = d.join("weights.txt");
    let text = ok(&on_data(
        &["tune", "texel", "--epochs", "5", "--quiet"],
        &data,
        &out,
    ));
    assert!(text.contains("K = "), "{text}");
    assert_eq!(text.matches("epoch ").count(), 5, "{text}");
    let weights = std::fs::read_to_string(&out).expect("written");
    let p = Params::from_text(Params::zero(), &weights).expect("loads");
    assert_eq!(p.phase_weight, Params::classical().phase_weight);
    let svg = std::fs::read_to_string(d.join("weights.txt.svg")).expect("plot");
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));

    // A line without a result is named.
    std::fs::write(&data, "4k3/8/8/8/8/8/8/R3K3 w - -\n").expect("write");
    let bad = on_data(&["tune", "texel", "--quiet"], &data, &out);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains(":1: no game result"), "{err}");
}

#[test]
fn spsa_params_and_a_tiny_spsa_run() {
    let d = dir("spsa");
    let listed = ok(&bin()
        .args(["spsa-params", "--only", "bishop_pair,tempo"])
        .output()
        .expect("runs"));
    assert_eq!(listed.lines().count(), 4, "{listed}");
    assert!(listed.starts_with("bishop_pair[0], int, "), "{listed}");
    let params = d.join("params.txt");
    std::fs::write(&params, &listed).expect("write");
    let out = d.join("out");
    let text = tiny_spsa(&params, &out, 2);
    assert!(text.contains("iteration     2"), "{text}");
    let csv = std::fs::read_to_string(out.join("trajectory.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(csv.starts_with("iteration,\"bishop_pair[0]\""), "{csv}");
    let final_params = std::fs::read_to_string(out.join("final.txt")).expect("final");
    assert!(fianchetto_tune::spsa::parse_params(&final_params).is_ok());
    let weights = std::fs::read_to_string(out.join("weights.txt")).expect("weights");
    assert!(Params::from_text(Params::zero(), &weights).is_ok());
    assert!(out.join("trajectory.svg").exists());

    // Search tunables alone are tuned with the engine's own evaluation, NNUE.
    std::fs::write(&params, "rfp_margin, int, 120, 40, 250, 8, 0.002\n").expect("write");
    let text = tiny_spsa(&params, &d.join("out-search"), 1);
    assert!(text.contains("evaluation nnue"), "{text}");
    assert!(text.contains("rfp_margin"), "{text}");

    // An unknown name is refused before any game, naming it.
    let err = spsa_refused(&params, "no_such_weight, int, 1, 0, 2, 1, 0.002\n", &[]);
    assert!(err.contains("no_such_weight"), "{err}");
    // Evaluation weights belong to the classical evaluation: with another
    // one they are refused before any game, naming the weight.
    let err = spsa_refused(
        &params,
        "tempo[0], int, 10, 0, 40, 2, 0.002\n",
        &["--eval", "nnue"],
    );
    assert!(
        err.contains("tempo[0]") && err.contains("--eval classical"),
        "{err}"
    );
    // A malformed line is named.
    let err = spsa_refused(&params, "tempo[0], int, 1\n", &[]);
    assert!(err.contains("line 1"), "{err}");
}

/// `tune spsa` (with `extra` arguments) on `params` holding `text`: refused
/// with exit status 2; its standard error.
fn spsa_refused(params: &Path, text: &str, extra: &[&str]) -> String {
    std::fs::write(params, text).expect("write");
    let bad = bin()
        .args(["tune", "spsa", "--quiet"])
        .args(extra)
        .arg("--params")
        .arg(params)
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    String::from_utf8_lossy(&bad.stderr).into_owned()
}

#[test]
fn fit_probcut_writes_a_table_the_search_reads() {
    let d = dir("probcut");
    let data = d.join("positions.epd");
    std::fs::write(&data, EPD).expect("write");
    let table = d.join("probcut.txt");
    let text = ok(&on_data(
        &["fit-probcut", "--pairs", "1:2,1:3", "--quiet"],
        &data,
        &table,
    ));
    assert!(text.contains("    1:3   all "), "{text}");
    let fits = fianchetto_search::pvs::probcut::parse_fits(
        &std::fs::read_to_string(&table).expect("written"),
    )
    .expect("parses");
    assert!(fits.iter().all(|f| f.shallow == 1));
    let bad = bin()
        .args(["fit-probcut", "--pairs", "5:2"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
}
