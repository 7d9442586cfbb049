//! What `tune` aims at, and how far one board is from it.
//!
//! The targets follow the balance report's own definitions
//! ([`crate::analysis::balance`]), so that a tuned board's claims are
//! re-derived by running `balance` on it: a ticket is *dead* when no
//! optimum at the car count completes it and no budget's reported optimum
//! does; *generous* when every optimum at the car count completes it and
//! the optima of at least half the budgets do; *off the band* when its
//! points per car on its cheapest connection are further than the band
//! from the board's median rate. The deal's spread (its 10th to 90th
//! percentile over the seeded sample `balance` values) is measured with
//! the same sample.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::analysis::balance::{deal_sample, ticket_table, TicketValue};
use crate::analysis::{standings_within, FAMILY_LOSS};
use crate::board::{Board, RouteId};
use crate::leagues::tournament::{self, Setup, TournamentError};
use crate::plans::deals::{deals_within, DealError};
use crate::solve::limits::Limits;
use crate::solve::sweep::{all_proven, sweep_with, Prior};
use crate::solve::SolveError;

/// The targets and the limits of the search, as a targets file writes
/// them (every field optional).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Targets {
    /// No dead ticket (in no optimum at the car count, in none of the
    /// budgets' optima).
    pub dead: bool,
    /// No generous ticket (in every optimum at the car count and in the
    /// optima of at least half the budgets).
    pub generous: bool,
    /// Every ticket's points per car within this fraction of the board's
    /// median rate (0.05: within 5 %); `null` leaves the rates free.
    pub rate_band: Option<f64>,
    /// The deal's spread (90th less 10th percentile of the sampled hands'
    /// values) at most this many points; `null`: no wider than the board's
    /// own.
    pub max_spread: Option<f64>,
    /// The most points a ticket may move, up or down.
    pub max_step: u32,
    /// The tickets that may change, by name ("Los Angeles – Miami");
    /// `null`: every ticket of one trip.
    pub tickets: Option<Vec<String>>,
    /// The strategy styles' win rates within a band of each other, played
    /// by the tournament's bots (as Smith and Anton target them); `null`:
    /// not asked.
    pub win_rates: Option<Styles>,
    /// The most cars a route's length may move, up or down (its points
    /// then the rule card's); 0: routes stay as they are.
    pub route_step: u32,
    /// The routes that may change, by name ("Paris – Zagrab", either
    /// order); `null`: every route alone in its pair of cities.
    pub routes: Option<Vec<String>>,
    /// Whether a ticket may be taken out of the deck, where no change of
    /// its points within `max_step` reaches its miss (or it has several
    /// trips, whose points do not change).
    pub remove: bool,
    /// Tickets that may come into the deck, each in place of one taken
    /// out on the same terms as `remove` (the deck keeps its size).
    pub add: Vec<NewTicket>,
}

/// A candidate ticket of a targets file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTicket {
    /// One city, as the board names it.
    pub from: String,
    /// The other city.
    pub to: String,
    /// Its points.
    pub points: u32,
}

/// Styles of play whose win rates should be close on a fair board: a
/// seeded tournament of the bots ([`crate::leagues::tournament`]) on the
/// board, every revision playing the same deals.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Styles {
    /// The strategies, by name (`ttr-opt tournament --players`).
    pub players: Vec<String>,
    /// Players at a table (every table of that many of `players` plays).
    pub seats: usize,
    /// Games of each table in each of its rotations.
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// The most the highest win rate may exceed the lowest (0.15: 15
    /// points of percentage).
    pub band: f64,
}

impl Default for Styles {
    /// The four styles of the tournament that play the board's tickets
    /// in different ways, all at one table: 25 deals, each played in the
    /// table's 4 rotations (100 games).
    fn default() -> Styles {
        Styles {
            players: ["planner", "long-route", "route-focus", "destination-hungry"]
                .map(String::from)
                .to_vec(),
            seats: 4,
            games: 25,
            seed: 1,
            band: 0.15,
        }
    }
}

impl Default for Targets {
    fn default() -> Targets {
        Targets {
            dead: true,
            generous: true,
            rate_band: Some(DEFAULT_BAND),
            max_spread: None,
            max_step: 3,
            tickets: None,
            win_rates: None,
            route_step: 0,
            routes: None,
            remove: false,
            add: Vec::new(),
        }
    }
}

/// The default band around the median rate: 5 %, so that on a board
/// priced at one point per car a 20-car ticket may be worth 19 to 21.
pub const DEFAULT_BAND: f64 = 0.05;

/// A targets file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TargetsError {
    /// The file could not be read.
    #[error("cannot read {file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid JSON, or a field is unknown or of the wrong
    /// type (serde's message names it).
    #[error("{file}: {message}")]
    Json {
        /// The file.
        file: String,
        /// What is wrong, with its line and column.
        message: String,
    },
    /// A field's value is out of its range.
    #[error("{file}: field `{field}`: {message}")]
    Field {
        /// The file.
        file: String,
        /// The field.
        field: &'static str,
        /// What is wrong with its value.
        message: String,
    },
}

impl Targets {
    /// Reads a targets file.
    pub fn load(path: &Path) -> Result<Targets, TargetsError> {
        let file = path.display().to_string();
        let text = crate::board::input::read_text(path).map_err(|source| TargetsError::Io {
            file: file.clone(),
            source,
        })?;
        Targets::from_json(&text, &file)
    }

    /// Parses and checks a targets file's text; `file` names it in messages.
    pub fn from_json(text: &str, file: &str) -> Result<Targets, TargetsError> {
        let targets: Targets = serde_json::from_str(text).map_err(|e| TargetsError::Json {
            file: file.to_string(),
            message: e.to_string(),
        })?;
        let field = |field, message: &str| TargetsError::Field {
            file: file.to_string(),
            field,
            message: message.to_string(),
        };
        if targets
            .rate_band
            .is_some_and(|b| !b.is_finite() || !(0.0..=1.0).contains(&b))
        {
            return Err(field("rate_band", "expected a fraction from 0 to 1"));
        }
        if targets
            .max_spread
            .is_some_and(|s| !s.is_finite() || s < 0.0)
        {
            return Err(field(
                "max_spread",
                "expected a number of points, 0 or more",
            ));
        }
        if !(1..=100).contains(&targets.max_step) {
            return Err(field(
                "max_step",
                "expected a whole number of points from 1 to 100",
            ));
        }
        if let Some(styles) = &targets.win_rates {
            styles.check().map_err(|m| field("win_rates", &m))?;
        }
        if targets.route_step > MAX_ROUTE_STEP {
            return Err(field(
                "route_step",
                &format!("expected a whole number of cars from 0 to {MAX_ROUTE_STEP}"),
            ));
        }
        for (i, t) in targets.add.iter().enumerate() {
            if !crate::board::input::TICKET_POINTS.contains(&t.points) {
                return Err(field(
                    "add",
                    &format!("add[{i}].points: expected a whole number from 1 to 1000"),
                ));
            }
        }
        if targets.add.len() > MAX_CANDIDATES {
            return Err(field(
                "add",
                &format!("{} candidates; at most {MAX_CANDIDATES}", targets.add.len()),
            ));
        }
        Ok(targets)
    }

    /// Whether route `id` of `board` may change: `routes` names it, or
    /// names none.
    pub fn route_allowed(&self, board: &Board, id: RouteId) -> bool {
        self.routes
            .as_ref()
            .is_none_or(|names| names.iter().any(|n| names_route(board, id, n)))
    }

    /// Checks that every ticket named in `tickets` is a ticket of
    /// `board`, every route named in `routes` a route of it, and every
    /// city of `add` a city of it.
    pub fn check_names(&self, board: &Board, file: &str) -> Result<(), TargetsError> {
        let error = |field, message| TargetsError::Field {
            file: file.to_string(),
            field,
            message,
        };
        for (i, name) in self.tickets.iter().flatten().enumerate() {
            if !board.cards.iter().any(|c| &c.name == name) {
                let m = format!("tickets[{i}]: no ticket {name:?} on {}", board.name);
                return Err(error("tickets", m));
            }
        }
        for (i, name) in self.routes.iter().flatten().enumerate() {
            if !board.route_ids().any(|id| names_route(board, id, name)) {
                let m = format!(
                    "routes[{i}]: no route {name:?} on {} (write \"From – To\")",
                    board.name
                );
                return Err(error("routes", m));
            }
        }
        for (i, t) in self.add.iter().enumerate() {
            for (end, city) in [("from", &t.from), ("to", &t.to)] {
                if board.city_id(city).is_none() {
                    let m = format!("add[{i}].{end}: no city {city:?} on {}", board.name);
                    return Err(error("add", m));
                }
            }
        }
        Ok(())
    }
}

/// Whether `name` names route `id` of `board`: "From – To", either way.
fn names_route(board: &Board, id: RouteId, name: &str) -> bool {
    let r = board.route(id);
    let (a, b) = (&board.city(r.a).name, &board.city(r.b).name);
    name == format!("{a} – {b}") || name == format!("{b} – {a}")
}

/// The most cars a route may move: a route of 1 car made 6 is another
/// board, not a tuning.
pub const MAX_ROUTE_STEP: u32 = 5;

/// The most candidate tickets a targets file may list: each is measured in
/// place of every ticket that may leave the deck.
pub const MAX_CANDIDATES: usize = 50;

/// The most games a win-rate target may play on one board.
pub const MAX_STYLE_GAMES: u64 = 20_000;

impl Styles {
    /// The tournament it plays on `board`, whose games are seeded by
    /// `key` (the base board's name, so that every revision of it plays
    /// the same deals).
    pub fn setup(&self, key: &str, board: &Board) -> Setup {
        Setup {
            players: self.players.clone(),
            boards: vec![(key.to_string(), board.clone())],
            seats: vec![self.seats],
            games: self.games,
            seed: self.seed,
            review: 0,
        }
    }

    /// Whether it can be played, as a message naming the field.
    fn check(&self) -> Result<(), String> {
        if !self.band.is_finite() || !(0.0..=1.0).contains(&self.band) {
            return Err("band: expected a fraction from 0 to 1".into());
        }
        // The tournament's own checks (strategies, seats, games) on a
        // board that stands for any: they do not depend on it.
        let setup = self.setup("usa", &Board::usa());
        setup.check().map_err(|e| e.to_string())?;
        let (games, _) = tournament::size(&setup);
        if games > MAX_STYLE_GAMES {
            return Err(format!(
                "{games} games a board; at most {MAX_STYLE_GAMES} (fewer players, seats or games)"
            ));
        }
        Ok(())
    }
}

/// The styles' win rates on one board.
#[derive(Clone, Debug, Serialize)]
pub struct WinRates {
    /// Games played.
    pub games: usize,
    /// Each style's win rate (a shared top score is no one's win), in
    /// the target's order.
    pub styles: Vec<StyleRate>,
    /// The highest win rate less the lowest.
    pub spread: f64,
}

/// One style's win rate.
#[derive(Clone, Debug, Serialize)]
pub struct StyleRate {
    /// The strategy.
    pub strategy: String,
    /// Its seats that won alone, over its seats.
    pub win_rate: f64,
}

/// The styles' win rates on `board`: their tournament, seeded by `key`
/// ([`Styles::setup`]), on `threads` workers (the same games on any
/// number); `None` where the call's `limits` stopped it before every game
/// was played.
pub fn win_rates(
    board: &Board,
    key: &str,
    styles: &Styles,
    threads: usize,
    limits: &Limits,
) -> Result<Option<WinRates>, TournamentError> {
    let setup = styles.setup(key, board);
    let (t, scheduled, _) =
        crate::solve::worker_pool(threads)?.install(|| tournament::run(&setup, limits, &|| {}))?;
    if t.played < scheduled.len() {
        return Ok(None);
    }
    let rates: Vec<StyleRate> = styles
        .players
        .iter()
        .map(|p| StyleRate {
            strategy: p.clone(),
            win_rate: t
                .standings
                .iter()
                .find(|s| &s.strategy == p)
                .map_or(0.0, |s| s.win_rate),
        })
        .collect();
    let most = rates.iter().map(|r| r.win_rate).fold(f64::MIN, f64::max);
    let least = rates.iter().map(|r| r.win_rate).fold(f64::MAX, f64::min);
    Ok(Some(WinRates {
        games: t.played,
        styles: rates,
        spread: most - least,
    }))
}

/// The deal's spread over the seeded sample of `balance`.
#[derive(Clone, Debug, Serialize)]
pub struct Spread {
    /// Hands valued.
    pub hands: usize,
    /// 10th percentile of the hands' values.
    pub p10: f64,
    /// 90th percentile.
    pub p90: f64,
    /// `p90 - p10`.
    pub spread: f64,
}

/// One board measured against the targets, every figure from proven
/// optima (the same as `balance` on that board at `cars`).
#[derive(Clone, Debug, Serialize)]
pub struct Measure {
    /// The optimum at the car count.
    pub optimum: u32,
    /// Budgets of the sweep (1 to the car count).
    pub budgets: usize,
    /// The board's median points per car.
    pub median_rate: f64,
    /// Dead tickets, by name.
    pub dead: Vec<String>,
    /// Generous tickets, by name.
    pub generous: Vec<String>,
    /// Tickets off the band, by name.
    pub off_band: Vec<String>,
    /// The deal's spread, where measured.
    pub spread: Option<Spread>,
    /// The styles' win rates, where asked and measured.
    pub win_rates: Option<WinRates>,
    /// Every ticket's row, as in `balance`'s ticket table, but for the
    /// break-even values (`raise_by`, `lower_by`): given where they are at
    /// most [`Targets::max_step`] or [`FAMILY_LOSS`], whichever is more,
    /// and `null` beyond (no change the search may make reaches them).
    pub tickets: Vec<TicketValue>,
}

impl Measure {
    /// How many targets it misses: one per dead, generous or off-band
    /// ticket (as the targets ask), and one if the spread is measured and
    /// above `max_spread`.
    pub fn misses(&self, targets: &Targets, max_spread: Option<f64>) -> usize {
        let mut n = 0;
        if targets.dead {
            n += self.dead.len();
        }
        if targets.generous {
            n += self.generous.len();
        }
        if targets.rate_band.is_some() {
            n += self.off_band.len();
        }
        if let (Some(s), Some(max)) = (&self.spread, max_spread) {
            n += usize::from(s.spread > max + 1e-9);
        }
        if let (Some(w), Some(styles)) = (&self.win_rates, &targets.win_rates) {
            n += usize::from(w.spread > styles.band + 1e-9);
        }
        n
    }
}

/// Whether `points` for `cars` cars lies within `band` of `median` points
/// per car (a hair of slack for the float: 21 points for 20 cars is
/// within 5 % of 1.00).
pub fn in_band(points: u32, cars: u32, median: f64, band: f64) -> bool {
    let fair = median * cars as f64;
    (points as f64 - fair).abs() <= band * fair + 1e-9
}

/// The tickets off the band on `board`, from its rates alone (no solve).
pub fn off_band(board: &Board, band: f64) -> Vec<String> {
    let (median, rows) = crate::analysis::balance::ticket_rates(board);
    rows.iter()
        .filter(|t| !t.several_trips && !in_band(t.points, t.cheapest_cars, median, band))
        .map(|t| t.name.clone())
        .collect()
}

/// Measures `board` at `cars` as `balance` does: the sweep of 1 to `cars`
/// (the reported optima and their tie-break), the tickets' memberships at
/// `cars` with the break-even values within the search's reach
/// ([`standings_within`]), the rates; not the deal ([`spread`]).
pub fn measure(
    board: &Board,
    cars: u32,
    targets: &Targets,
    threads: usize,
    limits: &Limits,
) -> Result<Measure, SolveError> {
    let nothing = |_| Ok(Prior::Nothing);
    let entries = sweep_with(board, 1, cars, threads, limits, &nothing, &|_| {})?;
    all_proven(board, &entries)?;
    let base = entries
        .iter()
        .find(|e| e.cars == cars)
        .map(|e| e.outcome.clone())
        .ok_or_else(|| SolveError::TimeLimit(format!("the optimum of {cars} cars was proven")))?;
    let optimum = base.plan.score();
    // The search moves a ticket by at most `max_step`: break-even values
    // beyond it are not needed, only the memberships (exact either way).
    let reach = targets.max_step.max(FAMILY_LOSS);
    let standings = standings_within(board, cars, threads, base, reach, limits)?;
    let (median_rate, tickets) = ticket_table(board, &entries, &standings);
    let budgets = entries.len();
    let names = |keep: &dyn Fn(&TicketValue) -> bool| -> Vec<String> {
        tickets
            .iter()
            .filter(|t| keep(t))
            .map(|t| t.name.clone())
            .collect()
    };
    let band = targets.rate_band.unwrap_or(f64::INFINITY);
    Ok(Measure {
        optimum,
        budgets,
        median_rate,
        dead: names(&|t| t.dead()),
        generous: names(&|t| t.generous(budgets)),
        off_band: names(&|t| {
            !t.several_trips && !in_band(t.points, t.cheapest_cars, median_rate, band)
        }),
        spread: None,
        win_rates: None,
        tickets,
    })
}

/// The deal's spread on `board` at `cars`, over the seeded sample
/// `balance` values (`None`: the deck is too small to deal a hand).
pub fn spread(
    board: &Board,
    cars: u32,
    threads: usize,
    limits: &Limits,
) -> Result<Option<Spread>, SolveError> {
    let options = deal_sample(board, cars);
    let report = crate::solve::worker_pool(threads)?
        .install(|| deals_within(board, &options, limits, &|| {}));
    match report {
        Ok(d) if d.all_proven => Ok(Some(Spread {
            hands: d.hands_valued,
            p10: d.p10,
            p90: d.p90,
            spread: d.p90 - d.p10,
        })),
        Ok(_) => Err(SolveError::TimeLimit("the deal's sample was proven".into())),
        Err(DealError::Invalid(_)) => Ok(None),
        Err(DealError::Solve(e)) => Err(e),
    }
}
