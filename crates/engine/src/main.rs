//! The `fianchetto` binary: UCI with no arguments, subcommands otherwise.

use clap::{Parser, Subcommand};
use fianchetto_engine::commands::{self, eval::EvalArgs, perft::PerftArgs, play::PlayArgs};
use std::process::ExitCode;

/// Fianchetto: a chess engine and a toolbox of classic chess algorithms.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree (move generator test and benchmark).
    Perft(PerftArgs),
    /// Print the static evaluation of a position, term by term.
    Eval(EvalArgs),
    /// Play a game against the computer in the terminal.
    Play(PlayArgs),
    /// Speak UCI on standard input and output (also what no subcommand does).
    Uci,
    /// Search a position and print UCI info lines and the best move.
    Analyse(commands::analyse::AnalyseArgs),
    /// Search fixed positions to a fixed depth: node signature and speed.
    Bench(commands::bench::BenchArgs),
    /// The search ablation (BuhoChess) and move-ordering (Rookie) experiments.
    Ablate(commands::ablate::AblateArgs),
    /// Generate NNUE training data by self-play (whole games, or marlinformat).
    Datagen(commands::datagen::DatagenArgs),
    /// Training data tools: `data stats|convert|merge|dedup` on games-format
    /// and marlinformat files.
    Data(commands::data::DataArgs),
    /// Balanced opening positions for OpenBench: `genfens N seed S [book FILE|None]`.
    Genfens(commands::genfens::GenfensArgs),
    /// Train an NNUE network on games or marlinformat data (CPU, multi-threaded).
    Train(commands::train::TrainArgs),
    /// Read a PGN file, checking every move: count games, plies and errors
    /// (--stats), or write the games back in export format.
    Pgn(commands::pgn::PgnArgs),
    /// List a Polyglot opening book's moves for a position, highest weight first.
    Book(commands::book::BookArgs),
    /// Draw a position as an SVG picture (arrows, marked squares, last move, check).
    Svg(commands::svg::SvgArgs),
    /// Tune parameters: `tune texel` (evaluation weights on game results),
    /// `tune spsa` (any tunables, by games between θ+ and θ−).
    Tune(commands::tune::TuneArgs),
    /// Print the tunable parameters in OpenBench's SPSA format.
    SpsaParams(commands::spsa_params::SpsaParamsArgs),
    /// Fit ProbCut's regressions (Buro) on many positions and write the table.
    FitProbcut(commands::fit_probcut::FitProbcutArgs),
    /// Probe the Syzygy endgame tables: WDL, DTZ and the best move of a
    /// position (`--moves`: every move), or probes per second (`--bench`).
    Syzygy(commands::syzygy::SyzygyArgs),
    /// A local web app on 127.0.0.1: play, analyse, and watch what the
    /// algorithms cost.
    #[cfg(feature = "gui")]
    Gui(fianchetto_gui::GuiArgs),
    /// Play two UCI engines against each other: openings both ways, clock
    /// or nodes, adjudication, PGN, Elo and SPRT (cutechess-cli's last line).
    Match(commands::engine_match::MatchArgs),
}

/// OpenBench passes a request as one argument (`"genfens 10 seed 3 book
/// None"`) followed by `quit`: split a first argument holding spaces into
/// words, and drop a trailing `quit` (the program ends anyway).
fn split_openbench_args(args: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, arg) in args.enumerate() {
        if i == 1 && arg.contains(' ') {
            out.extend(arg.split_whitespace().map(str::to_string));
        } else {
            out.push(arg);
        }
    }
    if out.len() > 2 && out.last().is_some_and(|a| a == "quit") {
        out.pop();
    }
    out
}

fn main() -> ExitCode {
    // FIANCHETTO_CPU and FIANCHETTO_SLIDERS pick the code path (CI runs the
    // binary on each); the library reads no environment variable by itself.
    fianchetto_board::cpu::apply_env_overrides();
    // FIANCHETTO_NNUE_SIMD caps the NNUE kernels (scalar, avx2, avx512), to
    // measure one version against another with the same build.
    if let Err(e) = fianchetto_eval::nnue::Simd::apply_env_override() {
        eprintln!("warning: {e}; the widest version this CPU runs is used");
    }
    let cli = Cli::parse_from(split_openbench_args(std::env::args()));
    let result = match &cli.command {
        Some(Command::Perft(args)) => commands::perft::run(args),
        Some(Command::Eval(args)) => commands::eval::run(args),
        Some(Command::Play(args)) => commands::play::run(args),
        Some(Command::Analyse(args)) => commands::analyse::run(args),
        Some(Command::Bench(args)) => commands::bench::run(args),
        Some(Command::Ablate(args)) => commands::ablate::run(args),
        Some(Command::Datagen(args)) => commands::datagen::run(args),
        Some(Command::Data(args)) => commands::data::run(args),
        Some(Command::Genfens(args)) => commands::genfens::run(args),
        Some(Command::Train(args)) => commands::train::run(args),
        Some(Command::Pgn(args)) => commands::pgn::run(args),
        Some(Command::Book(args)) => commands::book::run(args),
        Some(Command::Svg(args)) => commands::svg::run(args),
        Some(Command::Tune(args)) => commands::tune::run(args),
        Some(Command::SpsaParams(args)) => commands::spsa_params::run(args),
        Some(Command::FitProbcut(args)) => commands::fit_probcut::run(args),
        Some(Command::Syzygy(args)) => commands::syzygy::run(args),
        #[cfg(feature = "gui")]
        Some(Command::Gui(args)) => fianchetto_gui::run(args).map_err(|e| match e {
            fianchetto_gui::StartError::Io(e) => commands::CommandError::Io(e),
            e => commands::CommandError::Usage(e.to_string()),
        }),
        Some(Command::Match(args)) => commands::engine_match::run_match(args),
        Some(Command::Uci) | None => {
            fianchetto_engine::uci::run_stdio();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that went away (`| head`) is not an error worth a message.
        Err(commands::CommandError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// clap's own checks of every subcommand, among them that each
    /// `mut_arg` names a flag the subcommand has (the flags are declared
    /// once in `commands::flags` and overridden per subcommand).
    #[test]
    fn command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
