//! Checking a player's own plan: the routes they claim (or mean to), read
//! from a plan file (format in `data/README.md`), judged legal or not,
//! scored by the independent union-find verifier, and set beside the
//! proven optimum of the same budget with what the optimum does
//! differently.
//!
//! Routes are named as in game-state files (cities, and the track where a
//! pair's tracks differ in length); a double route's colour may be left out,
//! since it changes nothing in the score. Names the board does not know are
//! errors of the file, naming the entry; a plan the rules forbid (over the
//! budget, a track listed twice, two tracks of one city pair) is still
//! scored, and its problems are the verdict.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::board::input::{self, Reader};
use crate::board::verify::evaluate;
use crate::board::{Board, RouteId};
use crate::engine::state::{describe, read_routes, resolve_route, RawRoute, StateError, Track};
use crate::model::Instance;
use crate::solve::limits::Limits;
use crate::solve::{solve, SolveError, SolveOptions};

const PLAN_FIELDS: &[&str] = &["board", "cars", "routes"];

/// A plan file as read, before its routes are looked up on a board.
pub struct PlanFile {
    /// The file, for messages.
    file: String,
    /// The board file it names, relative to the plan file, if any.
    pub board: Option<PathBuf>,
    /// The budget it names, if any.
    pub cars: Option<u32>,
    routes: Vec<Option<RawRoute>>,
    /// Problems of the fields (reported with those found on the board).
    problems: Vec<String>,
}

/// A plan's routes, looked up on its board.
#[derive(Clone, Debug)]
pub struct Claimed {
    /// Each track named, with the entry that names it (`routes[3]`).
    pub tracks: Vec<(Track, String)>,
}

impl PlanFile {
    /// Reads a plan file; its routes are looked up by [`PlanFile::claimed`].
    pub fn load(path: &Path) -> Result<PlanFile, StateError> {
        let file = path.display().to_string();
        let text = input::read_text(path).map_err(|source| StateError::Io {
            file: file.clone(),
            source,
        })?;
        let mut plan = PlanFile::from_json(&text, &file)?;
        plan.board = plan
            .board
            .map(|b| path.parent().unwrap_or(Path::new(".")).join(b));
        Ok(plan)
    }

    /// Parses a plan's text; `file` names it in messages (its `board` is
    /// kept as written).
    pub fn from_json(text: &str, file: &str) -> Result<PlanFile, StateError> {
        let value = input::parse(text).map_err(|e| StateError::syntax(file, e))?;
        let mut r = Reader::default();
        let fields = read_plan(&value, &mut r);
        match fields {
            Some((board, cars, routes)) => Ok(PlanFile {
                file: file.to_string(),
                board,
                cars,
                routes,
                problems: r.problems,
            }),
            None => Err(StateError::Invalid {
                file: file.to_string(),
                problems: r.problems,
            }),
        }
    }

    /// The plan's routes on `board`: every name the board does not know is
    /// reported at once, naming its entry.
    pub fn claimed(&self, board: &Board) -> Result<Claimed, StateError> {
        let mut problems = self.problems.clone();
        let mut tracks: Vec<(Track, String)> = Vec::new();
        for (i, r) in self.routes.iter().enumerate() {
            let Some(r) = r else { continue };
            let entry = input::index("routes", i);
            match resolve_route(board, r, &tracks, true) {
                Ok(track) => tracks.push((track, entry)),
                Err(problem) => problems.push(format!("{entry}: {problem}")),
            }
        }
        if problems.is_empty() {
            return Ok(Claimed { tracks });
        }
        input::in_file_order(&mut problems, PLAN_FIELDS);
        Err(StateError::Invalid {
            file: self.file.clone(),
            problems,
        })
    }
}

type PlanFields = (Option<PathBuf>, Option<u32>, Vec<Option<RawRoute>>);

/// The fields of a plan file; `None` (the problems recorded) when it has no
/// list of routes. A bad `board` or `cars` is recorded and read as absent,
/// so that the routes are still looked up and every problem reported
/// together ([`PlanFile::claimed`] refuses the file while any remain).
fn read_plan(root: &Value, r: &mut Reader) -> Option<PlanFields> {
    let map = r.object(root, "", PLAN_FIELDS)?;
    let board = r.optional(map, "", "board", Reader::name).flatten();
    let cars = r
        .optional(map, "", "cars", |r, v, at| r.integer(v, at, input::CARS))
        .flatten();
    r.required(map, "", "routes", |r, v, at| {
        r.list(v, at, input::MAX_ROUTES)
    })?;
    let routes = read_routes(r, map, "routes");
    Some((board.map(PathBuf::from), cars, routes))
}

/// A ticket a plan completes.
#[derive(Clone, Debug, Serialize)]
pub struct TicketRow {
    /// The ticket's name, "Los Angeles – New York".
    pub name: String,
    /// Points of the trip the plan completes.
    pub points: u32,
}

/// The verdict on a plan.
#[derive(Clone, Debug, Serialize)]
pub struct PlanCheck {
    /// The board's short name.
    pub board: String,
    /// The budget the plan is judged against, in train cars.
    pub cars: u32,
    /// No rule is broken: within the budget, no track listed twice, at most
    /// one track of each city pair.
    pub legal: bool,
    /// Each broken rule, naming the entries.
    pub problems: Vec<String>,
    /// The plan's figures by the union-find verifier (of the distinct
    /// routes it names, legal or not).
    pub cars_used: u32,
    /// The plan's score by the verifier: `route_points + ticket_points`.
    pub score: u32,
    /// Points from the plan's routes.
    pub route_points: u32,
    /// Points from the tickets its routes complete.
    pub ticket_points: u32,
    /// The distinct routes the plan names, "Denver – Kansas City", in board
    /// order.
    pub routes: Vec<String>,
    /// Every ticket its routes complete (a single player may hold any).
    pub tickets: Vec<TicketRow>,
    /// The best score at `cars` (proven when `optimum_proven`; else the
    /// best plan found before the time limit, with `bound` above it).
    pub optimum: u32,
    /// Whether `optimum` is proven optimal.
    pub optimum_proven: bool,
    /// Proven upper bound on the optimum, in points (`optimum` when proven).
    pub bound: u32,
    /// `optimum` minus `score` (0 for an optimal plan).
    pub short_of_optimum: i64,
    /// Where the optimal plan differs: its routes and tickets the plan
    /// lacks, and the plan's that it does without.
    pub optimum_routes_not_in_plan: Vec<String>,
    /// The plan's routes the optimal plan does without.
    pub plan_routes_not_in_optimum: Vec<String>,
    /// Tickets the optimal plan completes and the plan does not.
    pub optimum_tickets_not_in_plan: Vec<String>,
    /// Tickets the plan completes and the optimal plan does not.
    pub plan_tickets_not_in_optimum: Vec<String>,
}

/// Judges `claimed` on `board` with `cars` cars: its legality, its score by
/// the union-find verifier, and the optimum of the budget beside it.
///
/// A plan of Hartford – Boston alone, judged with 5 cars:
/// ```
/// use ttr_opt::analysis::check::{check, PlanFile};
/// # let board = ttr_opt::board::Board::from_json(r#"{
/// #     "name": "tiny", "cars": 5, "route_points": { "1": 1, "2": 2, "3": 4 },
/// #     "cities": [ { "name": "Albany", "x": 0, "y": 0 }, { "name": "Boston", "x": 2, "y": 0 },
/// #                 { "name": "Hartford", "x": 1, "y": 1 } ],
/// #     "routes": [ { "from": "Albany", "to": "Hartford", "length": 3, "tracks": ["red"] },
/// #                 { "from": "Hartford", "to": "Boston", "length": 2, "tracks": ["gray"] } ],
/// #     "tickets": [ { "from": "Albany", "to": "Boston", "points": 9 } ] }"#, "tiny.json")?;
/// let plan = PlanFile::from_json(
///     r#"{ "routes": [ { "from": "Boston", "to": "Hartford" } ] }"#,
///     "my-plan.json",
/// )?;
/// let verdict = check(&board, &plan.claimed(&board)?, 5)?;
/// assert!(verdict.legal);
/// assert_eq!((verdict.score, verdict.optimum, verdict.short_of_optimum), (2, 15, 13));
/// assert_eq!(verdict.optimum_tickets_not_in_plan, ["Albany – Boston"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check(board: &Board, claimed: &Claimed, cars: u32) -> Result<PlanCheck, SolveError> {
    check_within(board, claimed, cars, &Limits::none())
}

/// [`check`] within the call's `limits`: past them, the optimum it is set
/// beside is the best found, marked unproven.
pub fn check_within(
    board: &Board,
    claimed: &Claimed,
    cars: u32,
    limits: &Limits,
) -> Result<PlanCheck, SolveError> {
    let mut problems = Vec::new();
    let mut routes: Vec<RouteId> = Vec::new();
    for (i, (track, entry)) in claimed.tracks.iter().enumerate() {
        let earlier = &claimed.tracks[..i];
        if let Some((_, first)) = earlier.iter().find(|(t, _)| t == track) {
            problems.push(format!(
                "{first} and {entry}: {} is listed twice",
                describe(board, *track)
            ));
        } else if let Some((_, first)) = earlier
            .iter()
            .find(|(t, _)| board.route(t.route).pair == board.route(track.route).pair)
        {
            let r = board.route(track.route);
            problems.push(format!(
                "{first} and {entry}: two tracks of {} – {}, where a player may claim only one",
                board.city(r.a).name,
                board.city(r.b).name
            ));
        }
        if !routes.contains(&track.route) {
            routes.push(track.route);
        }
    }
    routes.sort();
    let all: Vec<_> = board.ticket_ids().collect();
    let eval = evaluate(board, &routes, &all);
    if eval.cars_used > cars {
        problems.push(format!(
            "the routes take {} cars, {} more than the {cars} available",
            eval.cars_used,
            eval.cars_used - cars
        ));
    }

    let options = SolveOptions {
        limits: limits.clone(),
        ..SolveOptions::default()
    };
    let best = solve(&Instance::new(board, cars), &options)?;
    let optimum = best.plan.score();
    let names = |rs: &[RouteId], others: &[RouteId]| -> Vec<String> {
        rs.iter()
            .filter(|r| !others.contains(r))
            .map(|&r| board.route_label(r))
            .collect()
    };
    let cards = |ts: &[crate::board::TicketId]| -> Vec<usize> {
        ts.iter().map(|&t| board.ticket(t).card).collect()
    };
    let (ours, theirs) = (cards(&eval.completed), cards(&best.plan.tickets));
    let ticket_names = |cs: &[usize], others: &[usize]| -> Vec<String> {
        cs.iter()
            .filter(|c| !others.contains(c))
            .map(|&c| board.cards[c].name.clone())
            .collect()
    };
    Ok(PlanCheck {
        board: board.name.clone(),
        cars,
        legal: problems.is_empty(),
        problems,
        cars_used: eval.cars_used,
        score: eval.score(),
        route_points: eval.route_points,
        ticket_points: eval.ticket_points,
        routes: routes.iter().map(|&r| board.route_label(r)).collect(),
        tickets: eval
            .completed
            .iter()
            .map(|&t| TicketRow {
                name: board.cards[board.ticket(t).card].name.clone(),
                points: board.ticket(t).points,
            })
            .collect(),
        optimum,
        optimum_proven: best.proven,
        bound: best.bound,
        short_of_optimum: optimum as i64 - eval.score() as i64,
        optimum_routes_not_in_plan: names(&best.plan.routes, &routes),
        plan_routes_not_in_optimum: names(&routes, &best.plan.routes),
        optimum_tickets_not_in_plan: ticket_names(&theirs, &ours),
        plan_tickets_not_in_optimum: ticket_names(&ours, &theirs),
    })
}
