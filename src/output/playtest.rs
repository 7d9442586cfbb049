//! A playtest's results as text: the table printed on the terminal and the
//! Markdown report (`playtest.md`), both from the same [`Playtest`], and
//! the rows of its CSVs.

use serde::Serialize;

use crate::leagues::playtest::{CityUse, HoleKind, Playtest, RouteUse, SeatCount, LISTED};

/// What was played, in a line.
fn played_line(p: &Playtest) -> String {
    let holes = |k: HoleKind| p.holes.iter().filter(|h| h.ending.hole == Some(k)).count();
    format!(
        "{} of {} games played in {:.1} s; rule holes: {} stalls, {} move caps, {} with no \
         legal move, {} engine errors",
        p.played,
        p.scheduled,
        p.seconds,
        holes(HoleKind::Stall),
        holes(HoleKind::MoveCap),
        holes(HoleKind::NoLegalMove),
        holes(HoleKind::EngineError),
    )
}

/// The optimum in a line.
fn optimum_line(p: &Playtest) -> String {
    format!(
        "the single-player optimum at {} cars: {} points{}, {} routes, {} tickets",
        p.optimum.cars,
        p.optimum.score,
        if p.optimum.proven {
            " (proven)"
        } else {
            " (not proven: the best plan found)"
        },
        p.optimum.routes,
        p.optimum.tickets
    )
}

fn pct(v: f64) -> String {
    format!("{:.1}", 100.0 * v)
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "–"
    }
}

/// The most and the least used of `rows` (most first, least last), each
/// end [`LISTED`] long, without overlap.
fn ends<T>(rows: &[T]) -> (&[T], &[T]) {
    let n = rows.len();
    let top = LISTED.min(n);
    let bottom = LISTED.min(n - top);
    (&rows[..top], &rows[n - bottom..])
}

/// The cities some ticket of the board names (the others are never
/// desired), most desired first.
fn on_tickets(cities: &[CityUse]) -> Vec<CityUse> {
    cities
        .iter()
        .filter(|c| c.on_tickets > 0)
        .cloned()
        .collect()
}

/// The replay command of a hole: `ttr-opt playtest -b BOARD --players
/// ORDER --replay SEED`.
pub fn replay_command(board: &str, order: &[String], seed: u64) -> String {
    format!(
        "ttr-opt playtest -b {board} --players {} --replay {seed}",
        order.join(",")
    )
}

/// The terminal's table.
pub fn table(p: &Playtest, board_arg: &str) -> String {
    let mut out = format!(
        "Playtest of {} by {}; {} a seat order, seed {}\n{}\n{}\n",
        p.board,
        p.players.join(", "),
        super::counted(p.games_per_order, "game"),
        p.seed,
        played_line(p),
        optimum_line(p),
    );
    let w = p.players.iter().map(|s| s.len()).max().unwrap_or(0).max(12);
    for c in &p.counts {
        out += &format!(
            "\n{} players: {} games, {} tied ({} %), {} failed\n",
            c.seats,
            c.games,
            c.tied,
            pct(c.tie_share),
            c.failed
        );
        out += &format!(
            "  {:<w$} {:>5} {:>5} {:>6} {:>13} {:>7} {:>6}\n",
            "style", "games", "wins", "win %", "95 % interval", "share %", "score"
        );
        for s in &c.styles {
            let t = &s.standing;
            out += &format!(
                "  {:<w$} {:>5} {:>5} {:>6} {:>13} {:>7} {:>6.1}\n",
                t.strategy,
                t.games,
                t.wins,
                pct(t.win_rate),
                format!("{}–{}", pct(t.win_low), pct(t.win_high)),
                pct(s.win_share),
                t.mean_score
            );
        }
        let (most, least) = ends(&c.routes);
        out += "  routes (claimed % of games, by the winner %, in the optimum): most ";
        out += &most
            .iter()
            .take(5)
            .map(|r| {
                format!(
                    "{}–{} {}/{}{}",
                    r.from,
                    r.to,
                    pct(r.claimed),
                    pct(r.by_winner),
                    if r.in_optimum { " opt" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        out += "; least ";
        out += &least
            .iter()
            .rev()
            .take(5)
            .map(|r| {
                format!(
                    "{}–{} {}{}",
                    r.from,
                    r.to,
                    pct(r.claimed),
                    if r.in_optimum { " opt" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let named = on_tickets(&c.cities);
        let (most, least) = ends(&named);
        out += "\n  cities (on a ticket kept, % of games): most ";
        out += &most
            .iter()
            .take(5)
            .map(|x| format!("{} {}", x.city, pct(x.desired)))
            .collect::<Vec<_>>()
            .join(", ");
        out += "; least ";
        out += &least
            .iter()
            .rev()
            .take(5)
            .map(|x| format!("{} {}", x.city, pct(x.desired)))
            .collect::<Vec<_>>()
            .join(", ");
        out += "\n";
    }
    if p.holes.is_empty() {
        out += "\nNo rule hole met.\n";
    } else {
        out += &format!("\nRule holes ({}; the first 10):\n", p.holes.len());
        for h in p.holes.iter().take(10) {
            out += &format!(
                "  {} at {} players, game {}: {}{}\n    {}\n",
                h.ending.hole.map_or("", |k| k.label()),
                h.seats,
                h.game,
                h.ending.message,
                if h.reproduced {
                    ""
                } else {
                    " (NOT reproduced by its replay)"
                },
                replay_command(board_arg, &h.order, h.seed)
            );
        }
    }
    out
}

fn route_rows(rows: &[RouteUse]) -> String {
    let mut out = String::from(
        "| route | cars | claimed | by the winner | in the optimum |\n|---|--:|--:|--:|:-:|\n",
    );
    for r in rows {
        out += &format!(
            "| {} – {} | {} | {} % | {} % | {} |\n",
            r.from,
            r.to,
            r.length,
            pct(r.claimed),
            pct(r.by_winner),
            yes(r.in_optimum)
        );
    }
    out
}

fn city_rows(rows: &[CityUse]) -> String {
    let mut out = String::from(
        "| city | on a ticket kept | tickets a game | by the winner | optimum's tickets | optimum's network |\n\
         |---|--:|--:|--:|:-:|:-:|\n",
    );
    for c in rows {
        out += &format!(
            "| {} | {} % | {:.2} | {} % | {} | {} |\n",
            c.city,
            pct(c.desired),
            c.tickets,
            pct(c.by_winner),
            yes(c.optimum_ticket),
            yes(c.optimum_network)
        );
    }
    out
}

/// How far the games' claims agree with the optimum: the share of the
/// optimum's routes among the most claimed, in words.
fn agreement(c: &SeatCount) -> String {
    let opt = c.routes.iter().filter(|r| r.in_optimum).count();
    if opt == 0 {
        return String::new();
    }
    let top = &c.routes[..opt.min(c.routes.len())];
    let shared = top.iter().filter(|r| r.in_optimum).count();
    let never = c.routes.iter().filter(|r| r.claimed == 0.0).count();
    format!(
        "Of the {opt} routes of the optimal plan, {shared} are among the {opt} most claimed; \
         {never} routes were never claimed.\n\n"
    )
}

/// The Markdown report: the command, what was played, and per seat count
/// the styles' win rates, the most and least claimed routes and desired
/// cities beside the optimum, then every rule hole with its replay.
pub fn markdown(p: &Playtest, command: &str, board_arg: &str, figure: Option<&str>) -> String {
    let mut out = format!(
        "# Playtest: {}\n\n```sh\n{command}\n```\n\n{}; {}.\n\n",
        p.board,
        played_line(p),
        optimum_line(p)
    );
    out += &format!(
        "AI-based playtesting after de Mesentier Silva, Lee, Togelius and Nealen (2017): the \
         strategies {} play every table of them at each seat count in each rotation, {} \
         each, the rotations of a round sharing a deal (the schedule of `ttr-opt tournament`; \
         game seeds derive from the seed {}, so the same command plays the same games on any \
         machine and thread count).\n\n",
        p.players.join(", "),
        super::counted(p.games_per_order, "game"),
        p.seed
    );
    if let Some(f) = figure {
        out += &format!(
            "![Win rates per style and seat count, with 95 % Wilson intervals]({f})\n\n\
             *Each style's win rate (outright top scores over the games it sat in) with its 95 % \
             Wilson interval, a colour per seat count.*\n\n"
        );
    }
    for c in &p.counts {
        out += &format!(
            "## {} players\n\n{} games, {} with a tied top score ({} %), {} stopped by an error.\n\n",
            c.seats,
            c.games,
            c.tied,
            pct(c.tie_share),
            c.failed
        );
        out += "### The styles\n\n| style | games | wins | ties | win rate | 95 % interval | share of all wins | mean score | tickets completed / held |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n";
        for s in &c.styles {
            let t = &s.standing;
            out += &format!(
                "| {} | {} | {} | {} | {} % | {}–{} % | {} % | {:.1} | {:.2} / {:.2} |\n",
                t.strategy,
                t.games,
                t.wins,
                t.ties,
                pct(t.win_rate),
                pct(t.win_low),
                pct(t.win_high),
                pct(s.win_share),
                t.mean_score,
                t.tickets_completed,
                t.tickets_held
            );
        }
        out += &format!("| (tied) | | | | | | {} % | | |\n\n", pct(c.tie_share));
        let (most, least) = ends(&c.routes);
        out += &agreement(c);
        out += "### The most claimed routes\n\n";
        out += &route_rows(most);
        out += "\n### The least claimed routes\n\n";
        out += &route_rows(least);
        let named = on_tickets(&c.cities);
        let (most, least) = ends(&named);
        out += "\n### The most desired cities\n\n";
        out += &city_rows(most);
        out += &format!(
            "\n### The least desired cities\n\n(Of the {} cities some ticket names; {} \
             others no ticket names.)\n\n",
            named.len(),
            c.cities.len() - named.len()
        );
        out += &city_rows(least);
        out += "\n";
    }
    out += "## Rule holes\n\n";
    if p.holes.is_empty() {
        out += "None: every game ended by the rules (a player down to 2 cars or fewer, then the \
                last round), none by the stall rule or the move cap, and the engine refused no \
                move.\n\n";
    } else {
        const SHOWN: usize = 50;
        if p.holes.len() > SHOWN {
            out += &format!(
                "{} games met a hole; the first {SHOWN} are listed, every one is in \
                 `playtest-holes.csv`.\n\n",
                p.holes.len()
            );
        }
        out += "| kind | players | game | seed | what happened | reproduced | replay |\n|---|--:|--:|--:|---|:-:|---|\n";
        for h in p.holes.iter().take(SHOWN) {
            out += &format!(
                "| {} | {} | {} | {} | {} | {} | `{}` |\n",
                h.ending.hole.map_or("", |k| k.label()),
                h.seats,
                h.game,
                h.seed,
                h.ending.message.replace('|', "\\|"),
                if h.reproduced { "yes" } else { "**no**" },
                replay_command(board_arg, &h.order, h.seed)
            );
        }
        out += "\n";
    }
    out += "## The columns\n\n\
        - **win rate**: the style's outright top scores over the games it sat in, with the 95 % \
          Wilson score interval; a shared top score is a tie, no one's win. **share of all \
          wins**: its wins over all the games of the seat count; with the tied games' share \
          the shares sum to 100 %.\n\
        - **claimed**: the share of the games in which a player claimed the route (either \
          track of a double route); **by the winner**: of the games with an outright winner, \
          the share in which the winner claimed it; **in the optimum**: one proven optimal \
          plan of a single player at the board's car budget uses it (`ttr-opt solve`; another \
          optimal plan may differ, `ttr-opt optima` lists them).\n\
        - **on a ticket kept**: the share of the games in which a ticket some player held at \
          the end names the city; **tickets a game**: the mean number of such tickets; **by \
          the winner**: of the games with an outright winner, the share in which the winner \
          held one; **optimum's tickets** / **network**: a ticket the optimal plan completes \
          names the city / its routes reach it.\n\
        - **rule holes**: a game ended by the stall rule (every player passed: nobody could \
          move), stopped by the simulation's move cap, or stopped by an error (a player with \
          no legal move, a move the engine refused, a game that could not be set up). Each is \
          played again alone from its seed and seat order; the replay command prints how it \
          ends.\n";
    out
}

/// A row of `playtest-styles.csv`.
#[derive(Serialize)]
pub struct StyleRow<'a> {
    /// Players at the table.
    pub seats: usize,
    /// The strategy.
    pub strategy: &'a str,
    /// Seats it played.
    pub games: usize,
    /// Outright wins.
    pub wins: usize,
    /// Shared top scores.
    pub ties: usize,
    /// Wins over games.
    pub win_rate: f64,
    /// Wilson interval, low end.
    pub win_low: f64,
    /// High end.
    pub win_high: f64,
    /// Wins over all the games of the seat count.
    pub win_share: f64,
    /// Mean final score.
    pub mean_score: f64,
}

/// The rows of `playtest-styles.csv`.
pub fn style_rows(p: &Playtest) -> Vec<StyleRow<'_>> {
    p.counts
        .iter()
        .flat_map(|c| {
            c.styles.iter().map(move |s| StyleRow {
                seats: c.seats,
                strategy: &s.standing.strategy,
                games: s.standing.games,
                wins: s.standing.wins,
                ties: s.standing.ties,
                win_rate: s.standing.win_rate,
                win_low: s.standing.win_low,
                win_high: s.standing.win_high,
                win_share: s.win_share,
                mean_score: s.standing.mean_score,
            })
        })
        .collect()
}

/// A row of `playtest-holes.csv`.
#[derive(Serialize)]
pub struct HoleRow {
    /// The kind.
    pub kind: &'static str,
    /// Players at the table.
    pub seats: usize,
    /// The game's number in the schedule.
    pub game: u64,
    /// The seed.
    pub seed: u64,
    /// The strategies in turn order, comma-separated.
    pub order: String,
    /// Moves made.
    pub moves: usize,
    /// What happened.
    pub message: String,
    /// The replay ended the same way.
    pub reproduced: bool,
    /// The command that replays it.
    pub replay: String,
}

/// The header of `playtest-holes.csv`: [`HoleRow`]'s fields.
pub const HOLES_HEADER: &str = "kind,seats,game,seed,order,moves,message,reproduced,replay";

/// `playtest-holes.csv`: the header alone when no hole was met.
pub fn holes_csv(p: &Playtest, board_arg: &str) -> Result<Vec<u8>, csv::Error> {
    let rows = hole_rows(p, board_arg);
    if rows.is_empty() {
        return Ok(format!("{HOLES_HEADER}\n").into_bytes());
    }
    crate::output::rows::to_csv(rows)
}

/// The rows of `playtest-holes.csv`.
pub fn hole_rows(p: &Playtest, board_arg: &str) -> Vec<HoleRow> {
    p.holes
        .iter()
        .map(|h| HoleRow {
            kind: h.ending.hole.map_or("", |k| k.label()),
            seats: h.seats,
            game: h.game,
            seed: h.seed,
            order: h.order.join(","),
            moves: h.ending.moves,
            message: h.ending.message.clone(),
            reproduced: h.reproduced,
            replay: replay_command(board_arg, &h.order, h.seed),
        })
        .collect()
}
