//! `bench` (the paper's model against the sweep, every board swept, the
//! generated boards) and `generate` (a seeded random board): the
//! developers' commands.

use crate::solve::limits::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{
    budget, load_board, positive_seconds, proven_status, threads, usage, write_csv, write_text,
};
use crate::analysis::bench::{
    balance_board, balance_markdown, boards_markdown, generated_markdown,
    generated_sweeps_markdown, paper_against_sweep, solve_board, solve_generated, solve_markdown,
    sweep_board, sweep_generated,
};
use crate::board::Board;

#[derive(clap::Args)]
pub(super) struct BenchArgs {
    /// Smallest budget.
    #[arg(long, default_value_t = 1, value_parser = budget)]
    from: u32,
    /// Largest budget.
    #[arg(long, default_value_t = 50, value_parser = budget)]
    to: u32,
    /// Time limit in seconds for the paper's model at each budget.
    #[arg(long, default_value_t = 10.0, value_parser = positive_seconds)]
    paper_limit: f64,
    /// Directory for the tables: bench.md and bench.csv (boards.* with
    /// --boards, generated.* with --generated).
    #[arg(long, value_name = "DIR", default_value = "output/bench")]
    out: PathBuf,
    /// Worker threads for the sweep, 1 to 64 (the paper's model runs on as many).
    #[arg(long, default_value_t = 2, value_parser = threads)]
    threads: usize,
    /// Instead of the paper's model: sweep each board FILE from 1 car to its
    /// own car count, one board at a time, and record wall time, the slowest
    /// budget and peak memory in boards.md and boards.csv. With no FILE,
    /// every board in data/.
    #[arg(long, value_name = "FILE", num_args = 0.., conflicts_with = "generated")]
    boards: Option<Vec<PathBuf>>,
    /// Instead of the paper's model: time the balance report (`ttr-opt
    /// balance`) of each board FILE at its own car count, one board at a
    /// time, and record wall and CPU time and peak memory in balance.md and
    /// balance.csv. With no FILE, every board in data/.
    #[arg(long, value_name = "FILE", num_args = 0.., conflicts_with_all = ["boards", "generated"])]
    balance: Option<Vec<PathBuf>>,
    /// Instead of the paper's model: solve each board FILE at its own car
    /// count as `ttr-opt solve` does (two lanes, both cores) and on one
    /// lane, alternated, --runs times each, and record the medians and the
    /// LPs in solve.md and solve.csv. With no FILE, every board in data/.
    #[arg(long, value_name = "FILE", num_args = 0.., conflicts_with_all = ["boards", "balance", "generated"])]
    solve: Option<Vec<PathBuf>>,
    /// Instead of the paper's model: solve the generated boards of seeds
    /// 1..N (`ttr-opt generate`) at their own car count with the default
    /// method, 300 s each at most, and record the distribution of times and
    /// peak memory in generated.md and generated.csv.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1000))]
    generated: Option<u64>,
    /// With --generated: sweep each generated board from 1 car to its own
    /// car count instead of solving its own car count alone, and record
    /// wall and CPU time per board and their distribution in
    /// generated-sweep.md and generated-sweep.csv.
    #[arg(long, requires = "generated")]
    sweep: bool,
    /// Instead of the paper's model: the online game under load. Starts
    /// `ttr-opt play` on 127.0.0.1 with a fresh database, plays --games
    /// games at once (two scripted WebSocket players and an easy bot each)
    /// for --seconds, at --pause and then flat out, and records moves a
    /// second, the time from a move to its answer (p50, p99), the server's
    /// memory and CPU, and any error or lost move in play.md and play.csv.
    #[arg(long, conflicts_with_all = ["boards", "balance", "generated", "solve"])]
    play: bool,
    /// Instead of the paper's model: the coach and the review. The coach's
    /// answer at the start of a 4-player game on every board in data/
    /// (the first player, every choice of the first tickets weighed), for
    /// --runs deals each; and the review of --runs 4-player games on the
    /// USA board; and the coach before every move of --runs 3- and
    /// 4-player Europe games. Records coach.md, coach.csv, coach-review.csv
    /// and coach-games.csv.
    #[arg(long, conflicts_with_all = ["boards", "balance", "generated", "play", "solve"])]
    coach: bool,
    /// With --coach: deals per board, and games reviewed (1 to 100); with
    /// --solve: runs of each board on one lane and on two.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=100))]
    runs: u64,
    /// With --play: games at once, 1 to 1000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1000))]
    games: u64,
    /// With --play: seconds of play once every game has started.
    #[arg(long, default_value_t = 60.0, value_parser = positive_seconds)]
    seconds: f64,
    /// With --play: the players' and bots' pause before each move, in
    /// milliseconds (0 to 60000); a second run then plays flat out.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pause: u64,
}

pub(super) fn run_bench(args: &BenchArgs, _limits: &Limits) -> Result<ExitCode> {
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    if let Some(files) = &args.boards {
        return bench_boards(files, args);
    }
    if let Some(files) = &args.balance {
        return bench_balance(files, args);
    }
    if let Some(files) = &args.solve {
        return bench_solve(files, args);
    }
    if let Some(count) = args.generated {
        return bench_generated(count, args);
    }
    if args.play {
        return bench_play(args);
    }
    if args.coach {
        return bench_coach(args);
    }
    if args.from > args.to {
        return Err(usage(format!(
            "--from {} is above --to {}",
            args.from, args.to
        )));
    }
    let board = load_board(None)?;
    let bench = paper_against_sweep(
        &board,
        args.from,
        args.to,
        args.paper_limit,
        args.threads,
        &|line| eprintln!("{line}"),
    )?;
    let md = bench.markdown("USA");
    out!("{md}");
    write_text(&args.out.join("bench.md"), &md)?;
    write_csv(&args.out.join("bench.csv"), bench.rows())?;
    Ok(ExitCode::SUCCESS)
}

/// `bench --boards`: every board swept, one at a time.
fn bench_boards(files: &[PathBuf], args: &BenchArgs) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for (name, board) in named_boards(files)? {
        eprintln!("sweeping {name} from 1 to {} cars ...", board.cars);
        let row = sweep_board(&board, &name, args.threads)?;
        eprintln!(
            "{name}: {}/{} proven in {:.1} s",
            row.proven, row.budgets, row.wall_seconds
        );
        rows.push(row);
    }
    let md = boards_markdown(&rows, args.threads);
    out!("{md}");
    write_text(&args.out.join("boards.md"), &md)?;
    let all_proven = rows.iter().all(|r| r.proven == r.budgets);
    write_csv(&args.out.join("boards.csv"), rows)?;
    Ok(proven_status(all_proven))
}

/// `bench --balance`: every board's balance report, one at a time.
fn bench_balance(files: &[PathBuf], args: &BenchArgs) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for (name, board) in named_boards(files)? {
        eprintln!("balance report of {name} at {} cars ...", board.cars);
        let row = balance_board(&board, &name, args.threads)?;
        eprintln!("{name}: {:.1} s", row.wall_seconds);
        rows.push(row);
    }
    let md = balance_markdown(&rows, args.threads);
    out!("{md}");
    write_text(&args.out.join("balance.md"), &md)?;
    let complete = rows.iter().all(|r| r.unfinished == 0);
    write_csv(&args.out.join("balance.csv"), rows)?;
    Ok(proven_status(complete))
}

/// `bench --solve`: every board at its own car count, one lane and two.
fn bench_solve(files: &[PathBuf], args: &BenchArgs) -> Result<ExitCode> {
    let mut rows = Vec::new();
    for (name, board) in named_boards(files)? {
        eprintln!(
            "solving {name} at {} cars, {} runs each ...",
            board.cars, args.runs
        );
        let row = solve_board(&board, &name, args.runs as usize)?;
        eprintln!(
            "{name}: one lane {:.2} s, two lanes {:.2} s",
            row.one_lane_seconds, row.two_lanes_seconds
        );
        rows.push(row);
    }
    let md = solve_markdown(&rows);
    out!("{md}");
    write_text(&args.out.join("solve.md"), &md)?;
    write_csv(&args.out.join("solve.csv"), rows)?;
    Ok(ExitCode::SUCCESS)
}

/// The boards of `files` (every board in `data/` if none), each loaded
/// (a bad file is an error naming it) and named by its file name without
/// `.json`.
fn named_boards(files: &[PathBuf]) -> Result<Vec<(String, Board)>> {
    let files = if files.is_empty() {
        shipped_boards()?
    } else {
        files.to_vec()
    };
    files
        .iter()
        .map(|file| {
            let board = load_board(Some(file))?;
            let name = file
                .file_stem()
                .map_or_else(|| board.name.clone(), |s| s.to_string_lossy().into_owned());
            Ok((name, board))
        })
        .collect()
}

/// The boards in `data/`, by name.
fn shipped_boards() -> Result<Vec<PathBuf>> {
    let dir = std::path::Path::new("data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| {
            format!(
                "cannot read {} (run from the repository's root, or name the board files)",
                dir.display()
            )
        })?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// `bench --generated N`: seeds 1..=N, one solve each (a sweep each with
/// `--sweep`).
fn bench_generated(count: u64, args: &BenchArgs) -> Result<ExitCode> {
    if args.sweep {
        let mut rows = Vec::new();
        for seed in 1..=count {
            eprintln!("sweeping generated board {seed} ...");
            let row = sweep_generated(seed, args.threads)?;
            eprintln!(
                "seed {seed}: {}/{} proven in {:.1} s",
                row.proven, row.budgets, row.wall_seconds
            );
            rows.push(row);
        }
        let md = generated_sweeps_markdown(&rows, args.threads);
        out!("{md}");
        write_text(&args.out.join("generated-sweep.md"), &md)?;
        let all_proven = rows.iter().all(|r| r.proven == r.budgets);
        write_csv(&args.out.join("generated-sweep.csv"), rows)?;
        return Ok(proven_status(all_proven));
    }
    let mut rows = Vec::new();
    for seed in 1..=count {
        let row = solve_generated(seed)?;
        eprintln!(
            "seed {seed}: {} {} ({}) in {:.1} s",
            row.status, row.score, row.method, row.seconds
        );
        rows.push(row);
    }
    let md = generated_markdown(&rows);
    out!("{md}");
    write_text(&args.out.join("generated.md"), &md)?;
    let all_proven = rows.iter().all(|r| r.status == "optimal");
    write_csv(&args.out.join("generated.csv"), rows)?;
    Ok(proven_status(all_proven))
}

/// `bench --play`: the online game under load, at a pace and flat out.
fn bench_play(args: &BenchArgs) -> Result<ExitCode> {
    let mut runs = Vec::new();
    for pause in [args.pause, 0] {
        let options = crate::play::load::LoadOptions {
            binary: std::env::current_exe().context("cannot find this program's file")?,
            games: args.games as usize,
            seconds: args.seconds,
            dir: std::env::temp_dir().join(format!("ttr-opt-load-{}", std::process::id())),
            pause: std::time::Duration::from_millis(pause),
        };
        eprintln!("pause {pause} ms:");
        let report = crate::play::load::run(&options, &|line| eprintln!("{line}"))
            .map_err(|e| anyhow::anyhow!("the load benchmark failed: {e}"))?;
        let _ = std::fs::remove_dir_all(&options.dir);
        runs.push(report);
        if pause == 0 {
            break;
        }
    }
    let command = format!(
        "ttr-opt bench --play --games {} --seconds {} --pause {}",
        args.games, args.seconds, args.pause
    );
    let md = crate::play::load::markdown(&runs, &crate::analysis::bench::machine(), &command);
    out!("{md}");
    write_text(&args.out.join("play.md"), &md)?;
    let clean = runs.iter().all(|r| r.errors == 0 && r.lost == 0);
    write_csv(&args.out.join("play.csv"), runs)?;
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `bench --coach`: the coach at the start of a game on every shipped
/// board, and reviews of USA games.
fn bench_coach(args: &BenchArgs) -> Result<ExitCode> {
    use crate::leagues::bench::{coach_at_start, coach_through_game, markdown, review_game};
    let mut coach = Vec::new();
    for file in shipped_boards()? {
        let board = load_board(Some(&file))?;
        let name = file
            .file_stem()
            .map_or_else(|| board.name.clone(), |s| s.to_string_lossy().into_owned());
        for seed in 1..=args.runs {
            let row = coach_at_start(&board, &name, seed, 10.0)?;
            eprintln!(
                "coach, {name}, deal {seed}: {} choices, best {} in {:.2} s",
                row.choices, row.score, row.seconds
            );
            coach.push(row);
        }
    }
    let usa = Board::usa();
    let mut reviews = Vec::new();
    let pool = crate::solve::worker_pool(args.threads)?;
    for seed in 1..=args.runs {
        let row = pool.install(|| review_game(&usa, seed))?;
        eprintln!(
            "review, USA game {seed}: {} states, {} solves in {:.2} s",
            row.states, row.solves, row.seconds
        );
        reviews.push(row);
    }
    let europe = load_board(Some(&PathBuf::from("data/europe.json")))?;
    let mut games = Vec::new();
    for seed in 1..=args.runs {
        let row = coach_through_game(&europe, seed, 10.0)?;
        eprintln!(
            "coach through Europe game {seed}: {} of {} answers proven, median {:.2} s, slowest {:.2} s",
            row.proven, row.answers, row.median, row.slowest
        );
        games.push(row);
    }
    let command = format!(
        "ttr-opt bench --coach --runs {} --threads {}",
        args.runs, args.threads
    );
    let md = markdown(
        &coach,
        &reviews,
        &games,
        &crate::analysis::bench::machine(),
        &command,
    );
    out!("{md}");
    write_text(&args.out.join("coach.md"), &md)?;
    let proven = coach.iter().all(|r| r.proven)
        && reviews.iter().all(|r| r.proven)
        && games.iter().all(|g| g.proven == g.answers);
    write_csv(&args.out.join("coach.csv"), coach)?;
    write_csv(&args.out.join("coach-review.csv"), reviews)?;
    write_csv(&args.out.join("coach-games.csv"), games)?;
    Ok(proven_status(proven))
}

#[derive(clap::Args)]
pub(super) struct GenerateArgs {
    /// The seed: the same seed gives the same board on every machine.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the board here instead of printing it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub(super) fn run_generate(args: &GenerateArgs, _limits: &Limits) -> Result<ExitCode> {
    let text = serde_json::to_string_pretty(&crate::board::generate::board_json(args.seed))?;
    // Validated like any board file before anyone sees it.
    Board::from_json(&text, &format!("generated board {}", args.seed))?;
    match &args.out {
        Some(path) => write_text(path, &(text + "\n"))?,
        None => outln!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
