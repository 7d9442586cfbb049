//! `deals`: the luck of the deal, every hand valued (the library is
//! [`crate::plans::deals`]).

use crate::solve::limits::Limits;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::{budget, load_board, proven_status, write_csv, write_json, FilesArgs};
use crate::plans::deals::{deals_within, DealOptions, DealReport};

#[derive(clap::Args)]
pub(super) struct DealsArgs {
    /// Train cars a player (default: the board's own).
    #[arg(long, short = 'c', value_parser = budget)]
    cars: Option<u32>,
    /// Ticket cards dealt in a hand, 1 to 8 (default: the board's deal, 3
    /// unless its `rules.deal` says otherwise: Europe 4, Switzerland 5).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=8))]
    hand: Option<u64>,
    /// Cards a player must keep, 1 to the hand (default: the board's, 2
    /// unless it says otherwise).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=8))]
    keep: Option<u64>,
    /// Cards of the hand dealt from the long-route deck (the board's tickets
    /// marked "long": true), the rest from the others (default: the
    /// board's, 0 unless it says otherwise; Europe as printed: 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=8))]
    long: Option<u64>,
    /// Value a seeded uniform sample of N hands instead of every hand (for
    /// decks with too many hands to list).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=2_000_000))]
    sample: Option<u64>,
    /// The sample's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    files: FilesArgs,
}

pub(super) fn run_deals(args: &DealsArgs, limits: &Limits) -> Result<ExitCode> {
    let board = load_board(args.files.board.as_ref())?;
    // The board's own deal, unless the command line says otherwise; a
    // hand given alone keeps the board's long share only if it fits.
    let deal = board.rules.deal;
    let hand = args.hand.map_or(deal.dealt() as usize, |h| h as usize);
    let long = args
        .long
        .map_or((deal.long as usize).min(hand), |l| l as usize);
    let keep = args
        .keep
        .map_or((deal.keep as usize).min(hand), |k| k as usize);
    let options = DealOptions {
        cars: args.cars.unwrap_or(board.cars),
        hand,
        long,
        keep,
        sample: args.sample.map(|n| (n as usize, args.seed)),
    };
    if options.keep > options.hand {
        return Err(super::usage(format!(
            "--keep {} is above --hand {}",
            options.keep, options.hand
        )));
    }
    let out = args.files.out_dir(&board)?;
    eprintln!(
        "valuing hands of {} keeping at least {} at {} cars ...",
        options.hand, options.keep, options.cars
    );
    let bar = indicatif::ProgressBar::new_spinner();
    let report = crate::solve::worker_pool(args.files.threads)?
        .install(|| deals_within(&board, &options, limits, &|| bar.inc(1)))
        .context("valuing the deal failed")?;
    bar.finish_and_clear();
    let stem = format!("deals-{}-{}", options.hand, options.keep);
    let json = out.join(format!("{stem}.json"));
    let hands = out.join(format!("{stem}.csv"));
    let tickets = out.join(format!("{stem}-tickets.csv"));
    write_json(&json, &report)?;
    write_csv(
        &hands,
        report.hands.iter().map(|h| HandCsv {
            hand: h.hand.join("; "),
            best: h.best,
            keep: h.keep.join("; "),
        }),
    )?;
    write_csv(&tickets, report.tickets.iter())?;
    let mut written = vec![json, hands, tickets];
    if args.files.plot {
        written.extend(crate::output::plot::deals(&report, &out.join(&stem))?);
    }
    super::answer(args.files.json, &report, || table(&report), &written)?;
    Ok(proven_status(report.all_proven))
}

/// A hand as a CSV row.
#[derive(serde::Serialize)]
struct HandCsv {
    hand: String,
    best: i64,
    keep: String,
}

/// The report as text.
fn table(r: &DealReport) -> String {
    let long = if r.long > 0 {
        format!(" ({} from the long-route deck)", r.long)
    } else {
        String::new()
    };
    let mut out = format!(
        "The deal on {}: hands of {} tickets{long}, keeping at least {}, {} cars a player\n",
        r.board, r.hand, r.keep, r.cars
    );
    out += &format!(
        "{} hands valued{} ({} subsets solved{}) in {:.1} s\n\n",
        r.hands_valued,
        if r.sampled {
            format!(
                ", a uniform sample (seed {}) of {} possible",
                r.seed, r.hands_possible
            )
        } else {
            ", every one".to_string()
        },
        r.solves,
        if r.all_proven {
            ", every one proven"
        } else {
            "; a time limit left some unproven"
        },
        r.seconds
    );
    out += &format!(
        "Best score a hand allows: min {}, p10 {:.0}, p25 {:.0}, median {:.0}, p75 {:.0}, p90 {:.0}, max {}\n",
        r.min, r.p10, r.p25, r.median, r.p75, r.p90, r.max
    );
    out += &format!(
        "{:.1} % of hands are within 10 % of the best hand\n\n",
        100.0 * r.within_10_percent
    );
    out += "Tickets by their value as a card (the mean best score of the hands holding them)\n";
    out += &format!(
        "  {:<40} {:>6} {:>10} {:>7}\n",
        "ticket", "points", "mean best", "kept"
    );
    for t in &r.tickets {
        out += &format!(
            "  {:<40} {:>6} {:>10.1} {:>6.0}%\n",
            t.ticket,
            t.points,
            t.mean_best,
            100.0 * t.kept_share
        );
    }
    for (title, hands) in [
        ("The best hands", &r.best_hands),
        ("The worst hands", &r.worst_hands),
    ] {
        out += &format!("\n{title}\n");
        for h in hands {
            out += &format!(
                "  {:>4}  {}  (keep {})\n",
                h.best,
                h.hand.join(", "),
                h.keep.join(", ")
            );
        }
    }
    out
}
