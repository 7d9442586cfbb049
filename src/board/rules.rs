//! The rules a board declares beside its map (the board file's optional
//! `rules` object): stations, the longest-path bonus and the starting deal.
//! Tunnels and ferries are properties of tracks ([`super::Route`]).
//!
//! A board without `rules` plays the original game's: no stations, 10
//! points for the longest path, 3 tickets dealt and 2 kept. Europe and
//! tCHu differ, and their files say so (`data/README.md` documents every
//! field).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::board::input::{self, Reader};

/// The longest-path bonus of the original game, and of every board that
/// does not say otherwise.
pub const DEFAULT_BONUS: u32 = 10;

/// The rules a board is played with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rules {
    /// Stations, if the board has them (Europe: 3, for 1, 2 and 3 cards,
    /// 4 points each left unbuilt).
    pub stations: Option<Stations>,
    /// Points to every player tied for the longest continuous path (the
    /// original game's and tCHu's 10; Europe's European Express, 10).
    pub longest_path_bonus: u32,
    /// What each player is dealt at the start.
    pub deal: Deal,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            stations: None,
            longest_path_bonus: DEFAULT_BONUS,
            deal: Deal::default(),
        }
    }
}

/// Train stations: each lets its owner count one route of another player
/// into its city for their tickets; each one not built scores `points`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stations {
    /// Cards of one colour the first, second, … station costs (Europe: 1,
    /// 2, 3); its length is how many stations each player has.
    pub costs: Vec<u32>,
    /// Points for each station left unbuilt at the end.
    pub points: u32,
}

impl Stations {
    /// Stations each player has.
    pub fn count(&self) -> usize {
        self.costs.len()
    }
}

/// The starting deal of tickets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Deal {
    /// Tickets dealt from the regular deck (3; tCHu 5).
    pub tickets: u32,
    /// Tickets dealt from the long deck (Europe 1): a long ticket not kept
    /// leaves the game. With 0, long tickets are shuffled into the
    /// regular deck.
    pub long: u32,
    /// The fewest of the dealt tickets a player keeps (2; tCHu 3).
    pub keep: u32,
}

impl Default for Deal {
    fn default() -> Deal {
        Deal {
            tickets: 3,
            long: 0,
            keep: 2,
        }
    }
}

impl Deal {
    /// Tickets dealt to each player, long ones included.
    pub fn dealt(&self) -> u32 {
        self.tickets + self.long
    }
}

/// Most stations a player may have.
const MAX_STATIONS: usize = 5;
/// Most cards one station may cost (a longer price is no station rule
/// any board has).
const STATION_COST: std::ops::RangeInclusive<u32> = 1..=10;
/// Points of one unbuilt station, or the longest-path bonus.
const RULE_POINTS: std::ops::RangeInclusive<u32> = 0..=1_000;
/// Tickets dealt from one deck at the start.
const DEALT: std::ops::RangeInclusive<u32> = 0..=10;

/// The board file's `rules` object (the original game's when absent);
/// every problem reported to `r`. `long_tickets` is how many long tickets
/// the board lists.
pub(crate) fn read_rules(r: &mut Reader, map: &Map<String, Value>, long_tickets: usize) -> Rules {
    let mut rules = Rules::default();
    let Some(Some(v)) = r.optional(map, "", "rules", |_, v, _| Some(v)) else {
        return rules;
    };
    let Some(m) = r.object(v, "rules", &["stations", "longest_path_bonus", "deal"]) else {
        return rules;
    };
    if let Some(Some(bonus)) = r.optional(m, "rules", "longest_path_bonus", |r, v, at| {
        r.integer(v, at, RULE_POINTS)
    }) {
        rules.longest_path_bonus = bonus;
    }
    if let Some(Some(stations)) = r.optional(m, "rules", "stations", read_stations) {
        rules.stations = Some(stations);
    }
    if let Some(Some(deal)) = r.optional(m, "rules", "deal", |r, v, at| {
        read_deal(r, v, at, long_tickets)
    }) {
        rules.deal = deal;
    }
    rules
}

fn read_stations(r: &mut Reader, v: &Value, at: &str) -> Option<Stations> {
    let m = r.object(v, at, &["costs", "points"])?;
    let costs = r.required(m, at, "costs", |r, v, at| {
        let list = r.nonempty_list(v, at, MAX_STATIONS, "needs the cost of each station")?;
        let costs: Vec<Option<u32>> = list
            .iter()
            .enumerate()
            .map(|(i, c)| r.integer(c, &input::index(at, i), STATION_COST))
            .collect();
        costs.into_iter().collect::<Option<Vec<u32>>>()
    });
    let points = r.required(m, at, "points", |r, v, at| r.integer(v, at, RULE_POINTS));
    Some(Stations {
        costs: costs?,
        points: points?,
    })
}

fn read_deal(r: &mut Reader, v: &Value, at: &str, long_tickets: usize) -> Option<Deal> {
    let m = r.object(v, at, &["tickets", "long", "keep"])?;
    let base = Deal::default();
    let read = |r: &mut Reader, key: &str, default: u32| {
        r.optional(m, at, key, |r, v, at| r.integer(v, at, DEALT))
            .map(|n| n.unwrap_or(default))
    };
    let tickets = read(r, "tickets", base.tickets);
    let long = read(r, "long", base.long);
    let keep = read(r, "keep", base.keep);
    let deal = Deal {
        tickets: tickets?,
        long: long?,
        keep: keep?,
    };
    let mut ok = true;
    if deal.dealt() == 0 {
        r.problem(at, "deals no ticket: give \"tickets\" or \"long\" above 0");
        ok = false;
    }
    if deal.keep == 0 || deal.keep > deal.dealt() {
        r.problem(
            &input::join(at, "keep"),
            format!(
                "{} of the {} tickets dealt: keep at least 1 and at most all",
                deal.keep,
                deal.dealt()
            ),
        );
        ok = false;
    }
    if deal.long > 0 && long_tickets == 0 {
        r.problem(
            &input::join(at, "long"),
            "deals long tickets, but no ticket is marked \"long\": true",
        );
        ok = false;
    }
    ok.then_some(deal)
}
