//! Ratings: every player's skill, humans and bots alike, from the final
//! ranking of every game that ended, by the Weng-Lin model (a Bayesian
//! model of free-for-all games with ties, from the `skillratings` crate).
//!
//! A rating is a belief about the player's skill: `mu`, its mean, and
//! `sigma`, its uncertainty; the value shown is `mu - 3 sigma`, which a
//! player's skill exceeds with high probability, so that a player who won
//! one lucky game does not top players with many. A bot is rated per
//! strategy (`bot:greedy`, `bot:search`), so each level has one rating.
//!
//! Only the store's records are kept: the current rating of a player is
//! the one their last rated game left ([`Ratings::load`] replays the
//! records in the order they were rated), so the ratings depend on the
//! results alone. The model itself ([`Rating`], [`ranks`], [`update`]) is
//! `leagues::rating`'s, which the tournament rates with too.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::store::{GameId, ResultRecord, SeatResult};
pub use crate::leagues::rating::{ranks, update, Rating};

/// The most games a player's page lists.
pub const MAX_RECENT: usize = 20;

/// The most players the leaderboard lists.
pub const MAX_LEADERBOARD: usize = 50;

/// A rating in the protocol's JSON.
impl Rating {
    fn json(self) -> Value {
        json!({ "mu": self.mu, "sigma": self.sigma, "rating": self.shown() })
    }
}

/// One seat of a game that just ended: who, the score, tickets completed.
pub struct Finish {
    /// The rated player: a username, or `bot:<strategy>`.
    pub player: String,
    /// The final score.
    pub score: i64,
    /// Tickets completed.
    pub tickets: usize,
}

/// Every rated game and every player's current rating.
#[derive(Default)]
pub struct Ratings {
    /// By player, lower case: the current rating.
    current: HashMap<String, Rating>,
    /// Every rated game, in the order rated.
    games: Vec<ResultRecord>,
    /// By player, lower case: their games, indices into `games`.
    played: HashMap<String, Vec<usize>>,
}

fn key(player: &str) -> String {
    player.to_lowercase()
}

impl Ratings {
    /// The ratings the stored games left, replayed in the order rated.
    pub fn load(games: Vec<ResultRecord>) -> Ratings {
        let mut r = Ratings::default();
        for g in games {
            r.apply(g);
        }
        r
    }

    /// A player's current rating (the prior if never rated).
    pub fn rating(&self, player: &str) -> Rating {
        self.current.get(&key(player)).copied().unwrap_or_default()
    }

    /// Rates a game that ended normally: the record to store, or `None`
    /// for a game of one seat (no one to be ranked against).
    pub fn rate(
        &mut self,
        game: GameId,
        (board, at): (&str, i64),
        seats: &[Finish],
    ) -> Option<ResultRecord> {
        if seats.len() < 2 {
            return None;
        }
        let scores: Vec<i64> = seats.iter().map(|s| s.score).collect();
        let before: Vec<(Rating, usize)> = seats
            .iter()
            .zip(ranks(&scores))
            .map(|(s, rank)| (self.rating(&s.player), rank))
            .collect();
        let after = update(&before);
        let record = ResultRecord {
            game,
            board: board.to_string(),
            at,
            seats: seats
                .iter()
                .zip(before.iter().zip(after))
                .map(|(s, (&(b, rank), a))| SeatResult {
                    player: s.player.clone(),
                    score: s.score,
                    rank,
                    tickets: s.tickets,
                    before: (b.mu, b.sigma),
                    after: (a.mu, a.sigma),
                })
                .collect(),
        };
        self.apply(record.clone());
        Some(record)
    }

    /// Takes a rated game's new ratings. A player in several seats (two
    /// bots of one level) moves by the sum of their seats' changes of
    /// `mu`, and keeps the smallest `sigma` of them.
    fn apply(&mut self, game: ResultRecord) {
        let index = self.games.len();
        let mut moved: HashMap<String, Rating> = HashMap::new();
        for s in &game.seats {
            let k = key(&s.player);
            let start = self.rating(&s.player);
            let r = moved.entry(k).or_insert(start);
            r.mu += s.after.0 - s.before.0;
            r.sigma = r.sigma.min(s.after.1);
        }
        for (k, r) in moved {
            self.current.insert(k.clone(), r);
            self.played.entry(k).or_default().push(index);
        }
        self.games.push(game);
    }

    /// Whether a player has a rated game.
    pub fn knows(&self, player: &str) -> bool {
        self.played.contains_key(&key(player))
    }

    /// `getPlayer`'s page of a player: the rating, totals over every rated
    /// game, and the last [`MAX_RECENT`] games, newest first. Every field
    /// comes from games that ended, whose results were shown to all.
    pub fn page(&self, player: &str) -> Value {
        let k = key(player);
        let games: Vec<&ResultRecord> = self
            .played
            .get(&k)
            .map(|ix| ix.iter().map(|&i| &self.games[i]).collect())
            .unwrap_or_default();
        let mine = |g: &ResultRecord| -> Vec<SeatResult> {
            g.seats
                .iter()
                .filter(|s| key(&s.player) == k)
                .cloned()
                .collect()
        };
        let seats: Vec<SeatResult> = games.iter().flat_map(|g| mine(g)).collect();
        let mean = |f: fn(&SeatResult) -> f64| {
            (!seats.is_empty()).then(|| seats.iter().map(f).sum::<f64>() / seats.len() as f64)
        };
        let recent: Vec<Value> = games
            .iter()
            .rev()
            .take(MAX_RECENT)
            .map(|g| recent_game(g, &mine(g)))
            .collect();
        json!({
            "description": "success",
            "name": player,
            "rating": self.rating(player).json(),
            "games": games.len(),
            "wins": games.iter().filter(|g| mine(g).iter().any(|s| s.rank == 1)).count(),
            "meanScore": mean(|s| s.score as f64),
            "ticketsCompleted": seats.iter().map(|s| s.tickets).sum::<usize>(),
            "recent": recent,
        })
    }

    /// `getRatings`' leaderboard: the [`MAX_LEADERBOARD`] best shown
    /// ratings among players with a rated game, best first (ties by name).
    pub fn leaderboard(&self) -> Value {
        let mut rows: Vec<(String, Rating, usize)> = self
            .played
            .iter()
            .map(|(k, ix)| {
                let name = self.games[ix[0]]
                    .seats
                    .iter()
                    .find(|s| key(&s.player) == *k)
                    .map_or_else(|| k.clone(), |s| s.player.clone());
                (name, self.current[k], ix.len())
            })
            .collect();
        rows.sort_by(|a, b| {
            b.1.shown()
                .total_cmp(&a.1.shown())
                .then_with(|| a.0.cmp(&b.0))
        });
        let players: Vec<Value> = rows
            .into_iter()
            .take(MAX_LEADERBOARD)
            .map(|(name, r, games)| {
                json!({ "name": name, "bot": name.starts_with("bot:"), "rating": r.json(), "games": games })
            })
            .collect();
        json!({ "description": "success", "players": players })
    }
}

/// One game on a player's page: its board, date, the player's place,
/// score and rating change, and every seat's name, score and place.
fn recent_game(g: &ResultRecord, mine: &[SeatResult]) -> Value {
    let first = &mine[0];
    json!({
        "gameId": g.game,
        "board": g.board,
        "date": g.at,
        "rank": first.rank,
        "score": first.score,
        "ratingBefore": first.before.0 - 3.0 * first.before.1,
        "ratingAfter": first.after.0 - 3.0 * first.after.1,
        "players": g.seats.iter().map(|s| json!({ "name": s.player, "score": s.score, "rank": s.rank })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
    use skillratings::MultiTeamOutcome;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn ties_share_a_place_and_the_next_counts_those_above() {
        assert_eq!(ranks(&[9, 9, 4]), vec![1, 1, 3]);
        assert_eq!(ranks(&[1, 5, 5, 7, 0]), vec![4, 2, 2, 1, 5]);
        assert_eq!(ranks(&[3, 3]), vec![1, 1]);
    }

    #[test]
    fn the_winner_rises_the_last_falls_and_a_tie_between_equals_moves_no_mean() {
        for n in 2..=5 {
            let before: Vec<(Rating, usize)> =
                (1..=n).map(|rank| (Rating::default(), rank)).collect();
            let after = update(&before);
            assert!(after[0].mu > 25.0, "{n} players: {after:?}");
            assert!(after[n - 1].mu < 25.0, "{n} players: {after:?}");
            // Each place above the next gains more.
            assert!(after.windows(2).all(|w| w[0].mu > w[1].mu));
            assert!(after.iter().all(|r| r.sigma < 25.0 / 3.0));
            let tied: Vec<(Rating, usize)> = (0..n).map(|_| (Rating::default(), 1)).collect();
            for r in update(&tied) {
                assert!(close(r.mu, 25.0), "{n} tied: {r:?}");
            }
        }
    }

    #[test]
    fn the_update_is_the_crates_weng_lin_of_the_ranking() {
        let before = [
            (
                Rating {
                    mu: 30.0,
                    sigma: 5.0,
                },
                2,
            ),
            (Rating::default(), 1),
            (
                Rating {
                    mu: 20.0,
                    sigma: 3.0,
                },
                2,
            ),
        ];
        let teams: Vec<[WengLinRating; 1]> = before
            .iter()
            .map(|(r, _)| [WengLinRating::from((r.mu, r.sigma))])
            .collect();
        let ranked: Vec<_> = teams
            .iter()
            .zip(&before)
            .map(|(t, (_, k))| (&t[..], MultiTeamOutcome::new(*k)))
            .collect();
        let want = weng_lin_multi_team(&ranked, &WengLinConfig::new());
        for (got, want) in update(&before).iter().zip(want) {
            assert!(close(got.mu, want[0].rating) && close(got.sigma, want[0].uncertainty));
        }
    }

    fn finish(player: &str, score: i64) -> Finish {
        Finish {
            player: player.into(),
            score,
            tickets: 1,
        }
    }

    #[test]
    fn games_chain_replay_from_records_and_one_seat_is_not_rated() {
        let mut r = Ratings::default();
        assert!(r.rate(1, ("small", 0), &[finish("solo", 3)]).is_none());
        assert!(!r.knows("solo"));
        let first = r
            .rate(
                2,
                ("small", 10),
                &[finish("Ann", 9), finish("bot:greedy", 4)],
            )
            .unwrap();
        let second = r
            .rate(
                3,
                ("small", 20),
                &[finish("ann", 2), finish("bot:greedy", 4)],
            )
            .unwrap();
        // The second game starts from what the first left, by any case.
        assert_eq!(second.seats[0].before, first.seats[0].after);
        let replayed = Ratings::load(vec![first, second.clone()]);
        let ann = replayed.rating("ANN");
        assert_eq!((ann.mu, ann.sigma), second.seats[0].after);
        let page = replayed.page("ann");
        assert_eq!(
            (page["games"].as_u64(), page["wins"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(page["recent"][0]["gameId"], 3);
        assert_eq!(page["recent"][0]["rank"], 2);
        let board = replayed.leaderboard();
        assert_eq!(board["players"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn two_seats_of_one_bot_move_its_rating_by_both_changes() {
        let mut r = Ratings::default();
        let g = r
            .rate(
                1,
                ("small", 0),
                &[
                    finish("ann", 9),
                    finish("bot:greedy", 4),
                    finish("bot:greedy", 2),
                ],
            )
            .unwrap();
        let moved = (g.seats[1].after.0 - 25.0) + (g.seats[2].after.0 - 25.0);
        assert!(close(r.rating("bot:greedy").mu, 25.0 + moved));
        assert_eq!(r.page("bot:greedy")["games"], 1);
    }
}
