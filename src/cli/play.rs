//! `play`: the online game server (the server is [`crate::play`]).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};

use crate::play::hub::Offer;
use crate::play::{Config, DEFAULT_DB};

#[derive(clap::Args)]
pub(super) struct PlayArgs {
    /// A board file to offer besides the shipped boards (repeat for more;
    /// the first is the lobby's default). Its key is the file name without
    /// `.json`.
    #[arg(long, short = 'b', value_name = "FILE")]
    board: Vec<PathBuf>,
    /// The SQLite database holding accounts and games (created if
    /// missing). The default folder, play-data/, is ignored by git; saved
    /// games go to a saves/ folder beside the database.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_DB)]
    db: PathBuf,
    /// Address to listen on. The default, 127.0.0.1, lets only this
    /// machine in; 0.0.0.0 opens the server to the network (see
    /// docs/play.md for TLS in front of it).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8046)]
    port: u16,
    /// A page origin allowed besides the server's own address, such as
    /// the public https:// address of a proxy in front of it (repeat for
    /// more). Browsers on other sites are refused.
    #[arg(long, value_name = "URL")]
    origin: Vec<String>,
    /// A bot's pause before each of its moves, in milliseconds (0 to
    /// 60000), so that people can follow.
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    bot_delay: u64,
    /// The coach's time limit in seconds: for one answer during a game,
    /// and for each plan of a finished game's review. Past it the best plan
    /// found is shown with its proven bound.
    #[arg(long, default_value_t = 10.0, value_parser = super::positive_seconds)]
    coach_limit: f64,
    /// Deal game N from seed SEED + N instead of at random, so that a
    /// browser test plays the same game each time. Hidden: whoever knows
    /// the seed knows every deck.
    #[arg(long, value_name = "SEED", hide = true)]
    deal_seed: Option<u64>,
    /// The shortest real-time turn a game may ask for, in seconds, instead
    /// of 20. Hidden: for tests, which play timeouts in a second.
    #[arg(long, value_name = "SECONDS", hide = true, default_value_t = crate::play::timer::MIN_TURN_SECS, value_parser = clap::value_parser!(u32).range(1..=600))]
    min_turn_seconds: u32,
}

/// Runs the game server; `time_limit` (the global `--time-limit`) applies
/// to each coach's answer and review plan, as `--coach-limit` does (the
/// shorter of the two), never to the server's uptime.
pub(super) fn run_play(args: &PlayArgs, time_limit: Option<f64>) -> Result<ExitCode> {
    let mut offers = Vec::new();
    for path in &args.board {
        let (_, json) = crate::board::Board::load_with_text(path)?;
        let key = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| "board".into());
        offers.push(Offer {
            key,
            json,
            file: path.display().to_string(),
        });
    }
    for o in &args.origin {
        if !(o.starts_with("http://") || o.starts_with("https://")) {
            return Err(super::usage(format!(
                "--origin {o}: an origin is http:// or https:// and a host, such as https://ttr.example.org"
            )));
        }
    }
    let config = Config {
        db: args.db.clone(),
        boards: Config::offers(offers),
        origins: args.origin.clone(),
        bot_delay: Duration::from_millis(args.bot_delay),
        seed: args.deal_seed,
        coach_limit: time_limit.map_or(args.coach_limit, |t| t.min(args.coach_limit)),
        min_turn_secs: args.min_turn_seconds,
        shelve_after: crate::play::shelf::SHELVE_AFTER,
        finished_in_memory: crate::play::shelf::MAX_FINISHED_AWAKE,
    };
    let addr = SocketAddr::new(args.host, args.port);
    let boards = config.boards.len();
    crate::play::serve(config, addr, |at, warnings| {
        for w in warnings {
            eprintln!("warning: {w}");
        }
        // Printed and flushed at once: scripts wait for this line.
        println!(
            "playing {boards} boards on http://{at}/ (database {}; Ctrl-C stops)",
            args.db.display()
        );
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
    })
    .map_err(|e| anyhow!(e))
    .with_context(|| format!("cannot run the game server on {addr}"))?;
    crate::solve::limits::clear_interrupt();
    eprintln!("stopped");
    Ok(ExitCode::SUCCESS)
}
