//! A tournament's results as text: the table printed on the terminal and
//! the Markdown report (`tournament.md`), both from the same
//! [`Tournament`]; rows of a board and seat count best rated first.

use crate::leagues::tournament::{Standing, Tournament};

/// The standings of each board and seat count, best rated (`mu`) first.
fn groups(t: &Tournament) -> Vec<(String, usize, Vec<&Standing>)> {
    let mut out = Vec::new();
    for b in &t.boards {
        for &k in &t.seats {
            let mut rows: Vec<&Standing> = t
                .standings
                .iter()
                .filter(|s| &s.board == b && s.seats == k)
                .collect();
            rows.sort_by(|x, y| y.mu.total_cmp(&x.mu));
            out.push((b.clone(), k, rows));
        }
    }
    out
}

fn lost(v: Option<f64>) -> String {
    v.map_or("–".into(), |v| format!("{v:.1}"))
}

/// The seat counts, "2, 3".
fn seat_counts(t: &Tournament) -> String {
    let counts: Vec<String> = t.seats.iter().map(usize::to_string).collect();
    counts.join(", ")
}

/// What was played, in a line.
fn played_line(t: &Tournament) -> String {
    format!(
        "{} of {} games played ({} with a tied top score, {} stalled), {} reviewed turn by turn, {:.1} s",
        t.played, t.scheduled, t.tied, t.stalled, t.reviewed, t.seconds
    )
}

/// The terminal's table.
pub fn table(t: &Tournament) -> String {
    let mut out = format!(
        "Tournament of {} on {}; tables of {} players; {} a seat order, seed {}\n{}\n",
        t.players.join(", "),
        t.boards.join(", "),
        seat_counts(t),
        super::counted(t.games_per_order, "game"),
        t.seed,
        played_line(t),
    );
    // The widest strategy's name sets the first column (`destination-hungry`).
    let w = t.players.iter().map(|p| p.len()).max().unwrap_or(0).max(12);
    for (board, k, rows) in groups(t) {
        out += &format!("\n{board}, {k} players\n");
        out += &format!(
            "  {:<w$} {:>5} {:>5} {:>4} {:>6} {:>13} {:>6} {:>7} {:>8} {:>6} {:>5} {:>14} {:>6}\n",
            "strategy",
            "games",
            "wins",
            "ties",
            "win %",
            "95 % interval",
            "score",
            "tickets",
            "lost own",
            "others",
            "end",
            "mu ± 2 sigma",
            "rating"
        );
        for s in rows {
            out += &format!(
                "  {:<w$} {:>5} {:>5} {:>4} {:>6.1} {:>13} {:>6.1} {:>7.1} {:>8} {:>6} {:>5} {:>14} {:>6.1}\n",
                s.strategy,
                s.games,
                s.wins,
                s.ties,
                100.0 * s.win_rate,
                format!("{:.1}–{:.1}", 100.0 * s.win_low, 100.0 * s.win_high),
                s.mean_score,
                s.tickets_completed,
                lost(s.lost_own),
                lost(s.lost_others),
                lost(s.lost_end),
                format!("{:.1} ± {:.1}", s.mu, 2.0 * s.sigma),
                s.rating,
            );
        }
    }
    out += "\n(win %: outright top scores; a shared top is a tie, no one's win. tickets: mean \
            completed. lost: mean points lost to own moves, others' claims and the end, over the \
            seats reviewed. rating: Weng-Lin mu - 3 sigma.)\n";
    out
}

/// The Markdown report: the command that made it, how the games were
/// chosen, the figure (`figure`, a file beside the report) and a table per
/// board and seat count, with the columns explained.
pub fn markdown(t: &Tournament, command: &str, figure: Option<&str>) -> String {
    let mut out = format!(
        "# Tournament: {}\n\n```sh\n{command}\n```\n\n{}.\n\n",
        t.players.join(", "),
        played_line(t)
    );
    out += &format!(
        "On each board ({}) and at each seat count ({}), every table of the strategies (a \
         combination of them without repetition; a multiset holding two of them or more when \
         fewer strategies than seats are named) played in each of its rotations (every \
         strategy in every position), {} each. The rotations of one round of a table \
         share a deal (the same seed: tickets and deck by seat position), so each strategy \
         meets the same luck from every seat. Game seeds derive from the seed {} (the board's \
         name, the table and the round mixed by SplitMix64), so the same command plays the \
         same games on any machine and thread count; `tournament-games.csv` lists every seat \
         with its game's seed.\n\n",
        t.boards.join(", "),
        seat_counts(t),
        super::counted(t.games_per_order, "game"),
        t.seed
    );
    if let Some(f) = figure {
        out += &format!(
            "![Weng-Lin ratings per board, mu with 2 sigma either side]({f})\n\n\
             *Each strategy's Weng-Lin rating per board, mu with two standard deviations either \
             side, a colour per seat count.*\n\n"
        );
    }
    for (board, k, rows) in groups(t) {
        out += &format!("## {board}, {k} players\n\n");
        out += "| strategy | games | wins | ties | win rate | 95 % interval | mean score | tickets completed | lost: own moves | lost: others | lost: end | reviewed | mu ± 2 sigma | rating |\n";
        out += "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n";
        for s in rows {
            out += &format!(
                "| {} | {} | {} | {} | {:.1} % | {:.1}–{:.1} % | {:.1} | {:.2} / {:.2} | {} | {} | {} | {} | {:.1} ± {:.1} | {:.1} |\n",
                s.strategy,
                s.games,
                s.wins,
                s.ties,
                100.0 * s.win_rate,
                100.0 * s.win_low,
                100.0 * s.win_high,
                s.mean_score,
                s.tickets_completed,
                s.tickets_held,
                lost(s.lost_own),
                lost(s.lost_others),
                lost(s.lost_end),
                s.reviewed,
                s.mu,
                2.0 * s.sigma,
                s.rating
            );
        }
        out += "\n";
    }
    out += "## The columns\n\n\
        - **games**: seats the strategy played (one a game, unless a table repeats it).\n\
        - **wins**: seats with the game's top score alone; **ties**: seats sharing the top \
          score, counted as no one's win (the wins of a board and seat count sum to its games \
          minus those with a tied top).\n\
        - **win rate**: wins / games, with its 95 % Wilson score interval.\n\
        - **mean score**: the final score, longest-path bonus included; **tickets \
          completed**: completed / held at the end, means a seat.\n\
        - **lost**: the review's split (`ttr-opt review`) of the points between the best \
          final score still reachable and the score made, means over the seats **reviewed**: \
          to the strategy's own moves, to the others' claims, and to the game's end before \
          the plan was done (– where no seat was reviewed).\n\
        - **mu ± 2 sigma**: the Weng-Lin rating (the `skillratings` crate, as the online game \
          rates), from the prior 25 ± 8.3, updated game after game in the schedule's order, \
          each game a free-for-all ranked by score; **rating**: mu − 3 sigma, the \
          conservative value the online game shows.\n";
    out
}
