//! Turn timers and the stand-in bot: how long a person may take over a
//! turn ([`Pace`]), when their turn's time is up ([`Clock`]), and when a bot
//! plays their seat for them.
//!
//! The rule: when the deadline of the person (or people, while the first
//! tickets are chosen) to act passes, the table is marked overdue and the
//! server's bot path plays the rest of that turn for them with the easy
//! bot's strategy, exactly as it plays a bot's turn. A person who misses
//! [`MISSES_TO_TAKE_OVER`] turns in a row, or leaves a game being played,
//! is *away*: their seat is played after a short wait ([`AWAY_WAIT_SECS`])
//! each turn until they make a move of their own, which takes the seat
//! back. One ticker for the whole server ([`super::Server::start_clock`])
//! checks every table's deadline: no task per table or connection.

use std::time::Duration;

use serde_json::{json, Value};

use super::protocol::description as d;

/// The shortest turn of a real-time game, in seconds: a claim of a long
/// route needs a look at the map and the hand. Tests lower it (the hidden
/// `--min-turn-seconds`) to play timeouts in a second.
pub const MIN_TURN_SECS: u32 = 20;

/// The longest turn of a real-time game: beyond ten minutes a game is
/// better played turn-based.
pub const MAX_TURN_SECS: u32 = 600;

/// A turn-based game's limits, in hours: a week at most, the longest any
/// player should hold a table up; a day by default, as on Board Game
/// Arena, so that each player moves once a day.
pub const TURN_HOURS: std::ops::RangeInclusive<u32> = 1..=168;

/// A turn-based game's default limit, in hours.
pub const DEFAULT_TURN_HOURS: u32 = 24;

/// Turns missed in a row after which the stand-in keeps the seat: one
/// missed turn may be a phone call, two mean the player is gone.
pub const MISSES_TO_TAKE_OVER: u8 = 2;

/// How long an away player's turn waits before the stand-in plays it:
/// long enough for a player who comes back to move first and take the
/// seat back, short enough not to hold the others up.
pub const AWAY_WAIT_SECS: u32 = 5;

/// How often the server's one ticker looks for turns whose time is up:
/// a timeout is played at most this late.
pub const TICK: Duration = Duration::from_millis(250);

/// How fast a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// No turn limit (the default, as before timers existed).
    Untimed,
    /// Played at once by players present: each turn has this many seconds.
    RealTime(u32),
    /// Played over days: each turn has this many hours; a player may sit
    /// at many such games at once.
    TurnBased(u32),
}

impl Pace {
    /// The pace `createGame` asks for: `turnSeconds` (a real-time game,
    /// `min_secs` to [`MAX_TURN_SECS`]), or `turnBased` with `turnHours`
    /// ([`TURN_HOURS`], [`DEFAULT_TURN_HOURS`] if not given), or neither;
    /// refused with a reason when out of range or both.
    pub fn asked(
        turn_seconds: Option<u32>,
        turn_based: bool,
        turn_hours: Option<u32>,
        min_secs: u32,
    ) -> Result<Pace, Value> {
        let refuse = |reason: String| json!({ "description": d::INVALID_INPUT, "reason": reason });
        match (turn_seconds, turn_based, turn_hours) {
            (Some(_), true, _) | (Some(_), _, Some(_)) => Err(refuse(
                "a game is real-time (turnSeconds) or turn-based (turnBased, turnHours), not both"
                    .into(),
            )),
            (None, false, Some(_)) => Err(refuse("turnHours is for a turn-based game".into())),
            (Some(s), false, None) if (min_secs..=MAX_TURN_SECS).contains(&s) => {
                Ok(Pace::RealTime(s))
            }
            (Some(s), false, None) => Err(refuse(format!(
                "turnSeconds is {min_secs} to {MAX_TURN_SECS}, not {s}"
            ))),
            (None, true, h) => {
                let h = h.unwrap_or(DEFAULT_TURN_HOURS);
                if TURN_HOURS.contains(&h) {
                    Ok(Pace::TurnBased(h))
                } else {
                    Err(refuse(format!(
                        "turnHours is {} to {}, not {h}",
                        TURN_HOURS.start(),
                        TURN_HOURS.end()
                    )))
                }
            }
            (None, false, None) => Ok(Pace::Untimed),
        }
    }

    /// A turn's limit in seconds, if any.
    pub fn limit_secs(self) -> Option<u32> {
        match self {
            Pace::Untimed => None,
            Pace::RealTime(s) => Some(s),
            Pace::TurnBased(h) => Some(h * 3600),
        }
    }

    /// As stored: the limit in seconds (none when untimed) and whether the
    /// game is turn-based.
    pub fn to_columns(self) -> (Option<u32>, bool) {
        (self.limit_secs(), matches!(self, Pace::TurnBased(_)))
    }

    /// From the stored columns ([`Pace::to_columns`]).
    pub fn from_columns(limit_secs: Option<u32>, turn_based: bool) -> Pace {
        match (limit_secs, turn_based) {
            (None, _) => Pace::Untimed,
            (Some(s), true) => Pace::TurnBased((s / 3600).max(1)),
            (Some(s), false) => Pace::RealTime(s),
        }
    }

    /// The fields a model and a lobby entry carry: `turnLimit` (seconds,
    /// null when untimed) and `turnBased`.
    pub fn fields(self) -> (Value, bool) {
        let (limit, based) = self.to_columns();
        (limit.map_or(Value::Null, Value::from), based)
    }
}

/// Milliseconds since 1970: deadlines are told to the page in these.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A table's clock: its pace, the current turn's deadline, and who is
/// away.
#[derive(Clone, Debug)]
pub struct Clock {
    /// How fast the game is played.
    pub pace: Pace,
    /// When the next seat's time is up (ms since 1970); none when the
    /// game is untimed with nobody away, or not being played.
    pub deadline: Option<i64>,
    /// When the current turn (or the choice of first tickets) began.
    turn_start: i64,
    /// Per seat: its time is up this turn, and the stand-in plays it until
    /// the next turn begins.
    overdue: Vec<bool>,
    /// Per seat: turns missed in a row.
    missed: Vec<u8>,
    /// Per seat: played by the stand-in each turn (after
    /// [`AWAY_WAIT_SECS`]) until the person moves again.
    away: Vec<bool>,
}

impl Clock {
    /// A clock of `pace` for `seats` seats, nobody away.
    pub fn new(pace: Pace, seats: usize) -> Clock {
        Clock {
            pace,
            deadline: None,
            turn_start: 0,
            overdue: vec![false; seats],
            missed: vec![0; seats],
            away: vec![false; seats],
        }
    }

    /// Whether `seat` is away.
    pub fn is_away(&self, seat: usize) -> bool {
        self.away.get(seat).copied().unwrap_or(false)
    }

    /// Whether `seat`'s time is up this turn: the stand-in plays it.
    pub fn is_overdue(&self, seat: usize) -> bool {
        self.overdue.get(seat).copied().unwrap_or(false)
    }

    /// The seats away, as a bit set (stored so that a restart keeps them).
    pub fn away_bits(&self) -> u32 {
        self.away
            .iter()
            .enumerate()
            .filter(|(_, &a)| a)
            .fold(0, |bits, (i, _)| bits | (1 << i))
    }

    /// Sets the seats away from a bit set ([`Clock::away_bits`]).
    pub fn set_away_bits(&mut self, bits: u32) {
        for (i, a) in self.away.iter_mut().enumerate() {
            *a = bits & (1 << i) != 0;
        }
    }

    /// Marks `seat` away (or back); returns whether that changed. The
    /// caller sets the deadline again ([`Clock::replan`]).
    pub fn set_away(&mut self, seat: usize, away: bool) -> bool {
        match self.away.get_mut(seat) {
            Some(a) if *a != away => {
                *a = away;
                true
            }
            _ => false,
        }
    }

    /// When `seat`'s time this turn is up: the pace's limit, or
    /// [`AWAY_WAIT_SECS`] for a seat away (even in an untimed game: a
    /// player who left must not stop it); none for a person present in an
    /// untimed game.
    fn due(&self, seat: usize) -> Option<i64> {
        let limit = match (self.pace.limit_secs(), self.is_away(seat)) {
            (Some(l), true) => Some(l.min(AWAY_WAIT_SECS)),
            (None, true) => Some(AWAY_WAIT_SECS),
            (l, false) => l,
        };
        limit.map(|l| self.turn_start + i64::from(l) * 1000)
    }

    /// The deadline for `people` (the seats of people to act): the
    /// earliest of theirs not yet up.
    pub fn replan(&mut self, people: &[usize]) {
        self.deadline = people
            .iter()
            .filter(|&&s| !self.is_overdue(s))
            .filter_map(|&s| self.due(s))
            .min();
    }

    /// A new turn for `people` (the seats of people to act: the one to
    /// move, or everyone choosing first tickets) begins at `now` (ms).
    pub fn turn_begins(&mut self, now: i64, people: &[usize]) {
        self.turn_start = now;
        self.overdue.iter_mut().for_each(|o| *o = false);
        self.replan(people);
    }

    /// When the current turn began (ms), if it has a deadline: stored,
    /// so that a restart keeps a turn-based game's deadline.
    pub fn turn_start(&self) -> Option<i64> {
        self.deadline.map(|_| self.turn_start)
    }

    /// The clock after a restart at `now` (ms), with the turn's start
    /// stored: a turn-based game keeps it, hence its deadline (the days it
    /// gives do not restart with the server; a deadline passed while it
    /// was down is played at the first tick), while a real-time turn starts
    /// again in full, since its players were cut off too.
    pub fn resume(&mut self, now: i64, stored: Option<i64>, people: &[usize]) {
        let start = match (self.pace, stored) {
            (Pace::TurnBased(_), Some(start)) => start,
            _ => now,
        };
        self.turn_begins(start, people);
    }

    /// The game ended: no deadline any more.
    pub fn stop(&mut self) {
        self.deadline = None;
    }

    /// Whether someone's time is up at `now` (ms).
    pub fn expired(&self, now: i64) -> bool {
        self.deadline.is_some_and(|d| d <= now)
    }

    /// The time is up at `now` for some of `people`: each is marked
    /// overdue, a person present misses one more turn, and the deadline
    /// moves to the next seat's. Returns the seats whose time is up, and
    /// those among them that become away now (their
    /// [`MISSES_TO_TAKE_OVER`]th miss).
    pub fn time_up(&mut self, now: i64, people: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let (mut up, mut now_away) = (Vec::new(), Vec::new());
        for &s in people {
            if self.is_overdue(s) || self.due(s).is_none_or(|d| d > now) {
                continue;
            }
            self.overdue[s] = true;
            up.push(s);
            if !self.is_away(s) {
                self.missed[s] = self.missed[s].saturating_add(1);
                if self.missed[s] >= MISSES_TO_TAKE_OVER && self.set_away(s, true) {
                    now_away.push(s);
                }
            }
        }
        self.replan(people);
        (up, now_away)
    }

    /// `seat`'s person moved: no missed turn, and back if away. Returns
    /// whether they were away.
    pub fn moved_by_person(&mut self, seat: usize) -> bool {
        if let Some(m) = self.missed.get_mut(seat) {
            *m = 0;
        }
        self.set_away(seat, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paces_are_read_in_range_and_refused_outside() {
        assert_eq!(Pace::asked(None, false, None, 20), Ok(Pace::Untimed));
        assert_eq!(
            Pace::asked(Some(60), false, None, 20),
            Ok(Pace::RealTime(60))
        );
        assert_eq!(
            Pace::asked(None, true, None, 20),
            Ok(Pace::TurnBased(DEFAULT_TURN_HOURS))
        );
        assert_eq!(
            Pace::asked(None, true, Some(168), 20),
            Ok(Pace::TurnBased(168))
        );
        for (s, b, h) in [
            (Some(19), false, None),
            (Some(601), false, None),
            (None, true, Some(0)),
            (None, true, Some(169)),
            (Some(60), true, None),
            (None, false, Some(3)),
        ] {
            let e = Pace::asked(s, b, h, 20).unwrap_err();
            assert!(e["reason"].as_str().is_some_and(|r| !r.is_empty()), "{e}");
        }
        assert_eq!(Pace::asked(Some(1), false, None, 1), Ok(Pace::RealTime(1)));
    }

    #[test]
    fn paces_survive_their_columns() {
        for p in [Pace::Untimed, Pace::RealTime(45), Pace::TurnBased(24)] {
            let (l, b) = p.to_columns();
            assert_eq!(Pace::from_columns(l, b), p);
        }
    }

    #[test]
    fn two_misses_take_the_seat_over_and_a_move_gives_it_back() {
        let mut c = Clock::new(Pace::RealTime(30), 3);
        c.turn_begins(1_000, &[1]);
        assert_eq!(c.deadline, Some(31_000));
        assert!(!c.expired(30_999) && c.expired(31_000));
        assert_eq!(c.time_up(31_000, &[1]), (vec![1], vec![]));
        assert!(c.is_overdue(1) && !c.expired(40_000), "called once a turn");
        c.turn_begins(50_000, &[1]);
        assert!(!c.is_overdue(1));
        assert_eq!(c.time_up(80_000, &[1]), (vec![1], vec![1]));
        assert!(c.is_away(1));
        assert_eq!(c.away_bits(), 0b10);
        c.turn_begins(90_000, &[1]);
        assert_eq!(c.deadline, Some(90_000 + i64::from(AWAY_WAIT_SECS) * 1000));
        assert!(c.moved_by_person(1));
        assert!(!c.is_away(1));
        c.turn_begins(100_000, &[1]);
        assert_eq!(c.time_up(130_000, &[1]), (vec![1], vec![]), "counted again");
    }

    #[test]
    fn an_untimed_game_waits_only_for_those_away() {
        let mut c = Clock::new(Pace::Untimed, 2);
        c.turn_begins(0, &[0, 1]);
        assert_eq!(c.deadline, None);
        c.set_away(0, true);
        c.replan(&[0, 1]);
        let wait = i64::from(AWAY_WAIT_SECS) * 1000;
        assert_eq!(c.deadline, Some(wait));
        assert_eq!(c.time_up(wait, &[0, 1]), (vec![0], vec![]), "not seat 1");
        assert!(!c.is_overdue(1));
        assert_eq!(c.deadline, None, "seat 1 has all the time it wants");
        c.turn_begins(0, &[]);
        assert_eq!(c.deadline, None, "a bot's turn has no deadline");
    }
}
