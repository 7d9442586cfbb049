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
use crate::analysis::break_even_within;
use crate::board::Board;
use crate::game::deals::{deals_within, DealError};
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
        Ok(targets)
    }

    /// Checks that every ticket named in `tickets` is a ticket of `board`.
    pub fn check_names(&self, board: &Board, file: &str) -> Result<(), TargetsError> {
        for (i, name) in self.tickets.iter().flatten().enumerate() {
            if !board.cards.iter().any(|c| &c.name == name) {
                return Err(TargetsError::Field {
                    file: file.to_string(),
                    field: "tickets",
                    message: format!("tickets[{i}]: no ticket {name:?} on {}", board.name),
                });
            }
        }
        Ok(())
    }
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
    /// Every ticket's row, as in `balance`'s ticket table.
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
/// (the reported optima and their tie-break), the break-even at `cars`,
/// the rates; not the deal ([`spread`]).
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
        .map(|e| e.outcome.clone());
    let be = break_even_within(board, cars, threads, base, limits, &|_| {})?;
    if let Some(first) = be.unfinished.first() {
        return Err(SolveError::TimeLimit(format!(
            "the break-even of {first} was proven"
        )));
    }
    let (median_rate, tickets) = ticket_table(board, &entries, &be.tickets);
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
        optimum: be.optimum,
        budgets,
        median_rate,
        dead: names(&|t| t.dead()),
        generous: names(&|t| t.generous(budgets)),
        off_band: names(&|t| {
            !t.several_trips && !in_band(t.points, t.cheapest_cars, median_rate, band)
        }),
        spread: None,
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
