//! `fianchetto match`: two UCI engines play each other through the
//! `fianchetto-uci` client (which holds the match logic); this parses the
//! arguments, shows progress and prints the results, the last line as
//! cutechess-cli writes it.

use super::CommandError;
use fianchetto_tune::progress::Progress;
use fianchetto_uci::matches::{
    read_openings, run, start_position, Adjudication, EngineSpec, Event, Limit, MatchConfig, Sprt,
};
use fianchetto_uci::EngineConfig;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `fianchetto match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// Engine A's command line (the engine under test: results are its).
    #[arg(long)]
    pub a: String,
    /// Engine B's command line.
    #[arg(long)]
    pub b: String,
    /// An option for engine A, `Name=Value` (repeatable).
    #[arg(long = "a-opt", value_name = "NAME=VALUE")]
    pub a_opt: Vec<String>,
    /// An option for engine B, `Name=Value` (repeatable).
    #[arg(long = "b-opt", value_name = "NAME=VALUE")]
    pub b_opt: Vec<String>,
    /// Games to play (the most, with --sprt).
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// A clock per side: seconds for the game + increment (`10+0.1`).
    #[arg(long, conflicts_with = "nodes", required_unless_present = "nodes")]
    pub tc: Option<String>,
    /// A fixed number of nodes per move instead of a clock.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings: an EPD file (one position a line) or a PGN file (each
    /// game's moves); each is played twice, colours swapped. The start
    /// position without it.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Write the games here (PGN with clock and score comments), each as
    /// soon as it ends.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Stop once a sequential test on game pairs decides between
    /// A − B = ELO0 and ELO1 (α = β = 0.05), e.g. `0,5`.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Milliseconds a move may end past its clock before it loses on time.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Adjudicate a win once the scores have been at least SCORE
    /// centipawns for one side for PLIES plies in a row (`0,0`: never).
    #[arg(long, value_name = "SCORE,PLIES", default_value = "1000,8")]
    pub resign: String,
    /// Adjudicate a draw from ply FROM once the scores have stayed within
    /// SCORE centipawns of 0 for PLIES plies in a row (off by default).
    #[arg(long, value_name = "FROM,SCORE,PLIES")]
    pub draw: Option<String>,
    /// A game reaching this ply is drawn.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Seconds a search without a clock (--nodes) may take before the
    /// engine counts as hung.
    #[arg(long, default_value_t = 60)]
    pub hang_timeout: u64,
    /// No progress bar and no line per game: the results only.
    #[arg(long)]
    pub quiet: bool,
}

/// `a,b,…` as numbers, exactly `n` of them.
fn numbers<T: std::str::FromStr>(flag: &str, text: &str, n: usize) -> Result<Vec<T>, CommandError> {
    let values: Option<Vec<T>> = text.split(',').map(|v| v.trim().parse().ok()).collect();
    values.filter(|v| v.len() == n).ok_or_else(|| {
        CommandError::Usage(format!(
            "--{flag} takes {n} comma-separated numbers, got `{text}`"
        ))
    })
}

fn engine(
    flag: &str,
    line: &str,
    opts: &[String],
    hang: Duration,
) -> Result<EngineSpec, CommandError> {
    let mut config = EngineConfig::from_command_line(line)
        .ok_or_else(|| CommandError::Usage(format!("--{flag} needs an engine command")))?;
    config.search_timeout = hang;
    let mut spec = EngineSpec::new(config);
    for opt in opts {
        let (name, value) = opt.split_once('=').ok_or_else(|| {
            CommandError::Usage(format!("--{flag}-opt takes Name=Value, got `{opt}`"))
        })?;
        spec.options
            .push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(spec)
}

fn config(args: &MatchArgs) -> Result<MatchConfig, CommandError> {
    let hang = Duration::from_secs(args.hang_timeout.max(1));
    let limit = match (&args.tc, args.nodes) {
        (Some(tc), _) => tc
            .parse::<Limit>()
            .map_err(|e| CommandError::Usage(e.to_string()))?,
        (None, Some(n)) => Limit::Nodes(n.max(1)),
        (None, None) => return Err(CommandError::Usage("give --tc or --nodes".into())),
    };
    let mut config = MatchConfig::new(
        engine("a", &args.a, &args.a_opt, hang)?,
        engine("b", &args.b, &args.b_opt, hang)?,
        limit,
    );
    config.games = args.games;
    config.concurrency = args.concurrency.max(1);
    config.margin = Duration::from_millis(args.margin);
    config.openings = match &args.openings {
        Some(path) => read_openings(path).map_err(|e| CommandError::Usage(e.to_string()))?,
        None => vec![start_position()],
    };
    if let Some(text) = &args.sprt {
        let e: Vec<f64> = numbers("sprt", text, 2)?;
        config.sprt = Some(Sprt::new(e[0], e[1]));
    }
    let resign: Vec<i64> = numbers("resign", &args.resign, 2)?;
    let mut rules = Adjudication {
        resign_score: resign[0].clamp(0, i64::from(i32::MAX)) as i32,
        resign_plies: resign[1].clamp(0, i64::from(u32::MAX)) as u32,
        max_plies: args.max_plies,
        ..Adjudication::default()
    };
    if let Some(text) = &args.draw {
        let d: Vec<u32> = numbers("draw", text, 3)?;
        rules.draw_from_ply = d[0];
        rules.draw_score = d[1].min(i32::MAX as u32) as i32;
        rules.draw_plies = d[2];
    }
    config.adjudication = rules;
    Ok(config)
}

/// Runs `match`.
pub fn run_match(args: &MatchArgs) -> Result<(), CommandError> {
    let config = config(args)?;
    let mut pgn = match &args.pgn {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| {
                CommandError::Usage(format!("cannot write {}: {e}", path.display()))
            })?,
        )),
        None => None,
    };
    let progress = Progress::new(config.games as u64, "games", !args.quiet);
    let mut write_error = None;
    let summary = run(&config, |event| match event {
        Event::Game { record, summary } => {
            if let Some(out) = pgn.as_mut() {
                let written = writeln!(out, "{}", record.pgn_text()).and_then(|()| out.flush());
                if let Err(e) = written {
                    write_error.get_or_insert(e);
                }
            }
            let t = &summary.tally;
            if !args.quiet {
                let white = record.pgn.tags.get("White").unwrap_or("?");
                let black = record.pgn.tags.get("Black").unwrap_or("?");
                progress.line(&format!(
                    "game {:4}: {white} - {black} {} ({})",
                    record.number,
                    record.result.as_str(),
                    record.reason
                ));
            }
            progress.inc(&format!("+{} ={} -{}", t.wins, t.draws, t.losses));
        }
        Event::Restarted { which, reason } => {
            progress.line(&format!("engine {which} restarted after: {reason}"));
        }
    });
    progress.finish();
    let summary = summary.map_err(|e| CommandError::Usage(e.to_string()))?;
    if let Some(e) = write_error {
        return Err(CommandError::Io(e));
    }
    crate::say!("{}", summary.elo_line());
    if let Some(line) = summary.sprt_line() {
        crate::say!("{line}");
    }
    crate::say!("{}", summary.faults_line());
    crate::say!("{}", summary.score_line());
    Ok(())
}
