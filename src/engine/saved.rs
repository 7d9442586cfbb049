//! A whole game as a file, and a move as it is stored: the rules engine's
//! [`Action`] with routes and tickets by index, as JSON (`{"move":
//! "claim", "route": 3, "track": 0, "colour": "red", "locomotives": 1}`).
//!
//! A saved game (the online game's `saveGameState`) is a game-state file
//! ([`crate::engine::state`], from the saving player's seat, so `replan`
//! reads it) with one more field, `game`: the seats, the seed of the
//! shuffles and every move. Replaying the moves through the rules engine
//! from the seed gives the game back exactly ([`SavedGame::replay`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::board::{Board, CityId, Colour, RouteId, TicketId};
use crate::engine::rules::{Action, BoardRef, Game};
use crate::engine::state::StateError;

/// One move, by the indexes of the board file it was played on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "move", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// Took face-up card `index`.
    FaceUp {
        /// Its place in the row, 0–4.
        index: usize,
    },
    /// Took the top card of the deck.
    Deck,
    /// Drew tickets.
    Tickets,
    /// Kept these of the tickets offered (ticket indexes).
    Keep {
        /// The tickets kept, by index.
        tickets: Vec<usize>,
    },
    /// Claimed a track.
    Claim {
        /// The route's index.
        route: usize,
        /// The track's index in the route.
        track: usize,
        /// The colour of the cards paid.
        colour: Colour,
        /// Locomotives paid.
        locomotives: u32,
    },
    /// Paid a tunnel's extra cards.
    Tunnel {
        /// Locomotives among them.
        locomotives: u32,
    },
    /// Gave a tunnel up.
    GiveUp,
    /// Built a station.
    Station {
        /// The city's index.
        city: usize,
        /// The colour of the cards paid.
        colour: Colour,
        /// Locomotives paid.
        locomotives: u32,
    },
    /// Passed (no other move was possible).
    Pass,
}

impl From<&Action> for Move {
    fn from(a: &Action) -> Move {
        match a {
            Action::DrawFaceUp(i) => Move::FaceUp { index: *i },
            Action::DrawDeck => Move::Deck,
            Action::DrawTickets => Move::Tickets,
            Action::KeepTickets(kept) => Move::Keep {
                tickets: kept.iter().map(|t| t.0).collect(),
            },
            Action::Claim {
                route,
                track,
                colour,
                locomotives,
            } => Move::Claim {
                route: route.0,
                track: *track,
                colour: *colour,
                locomotives: *locomotives,
            },
            Action::PayTunnel { locomotives } => Move::Tunnel {
                locomotives: *locomotives,
            },
            Action::GiveUpTunnel => Move::GiveUp,
            Action::BuildStation {
                city,
                colour,
                locomotives,
            } => Move::Station {
                city: city.0,
                colour: *colour,
                locomotives: *locomotives,
            },
            Action::Pass => Move::Pass,
        }
    }
}

impl From<&Move> for Action {
    fn from(m: &Move) -> Action {
        match m {
            Move::FaceUp { index } => Action::DrawFaceUp(*index),
            Move::Deck => Action::DrawDeck,
            Move::Tickets => Action::DrawTickets,
            Move::Keep { tickets } => {
                Action::KeepTickets(tickets.iter().map(|&t| TicketId(t)).collect())
            }
            Move::Claim {
                route,
                track,
                colour,
                locomotives,
            } => Action::Claim {
                route: RouteId(*route),
                track: *track,
                colour: *colour,
                locomotives: *locomotives,
            },
            Move::Tunnel { locomotives } => Action::PayTunnel {
                locomotives: *locomotives,
            },
            Move::GiveUp => Action::GiveUpTunnel,
            Move::Station {
                city,
                colour,
                locomotives,
            } => Action::BuildStation {
                city: CityId(*city),
                colour: *colour,
                locomotives: *locomotives,
            },
            Move::Pass => Action::Pass,
        }
    }
}

impl Move {
    /// The move as stored.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A stored move; the message says what is wrong.
    pub fn from_json(text: &str) -> Result<Move, String> {
        serde_json::from_str(text).map_err(|e| format!("move {text}: {e}"))
    }
}

/// One seat of a saved game: a user by name, or a bot by level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedSeat {
    /// The user's name, for a person.
    pub username: Option<String>,
    /// The bot's level (`easy`, `hard`), for a bot.
    pub bot: Option<String>,
    /// The player's colour.
    pub color: String,
}

/// The name of a table's `k`-th bot (from 1) of `level`: "Bot 2 (hard)".
/// The lobby, the game and the review all name bots so (issue 57: the
/// review said "bot (hard)" where the game said "Bot 1 (hard)").
pub fn bot_name(k: usize, level: &str) -> String {
    format!("Bot {k} ({level})")
}

impl SavedGame {
    /// The name shown for each seat: the username, or the bot's name as
    /// the table gave it (bots numbered in seat order).
    pub fn seat_names(&self) -> Vec<String> {
        let mut bots = 0;
        self.seats
            .iter()
            .map(|s| match (&s.username, &s.bot) {
                (Some(u), _) => u.clone(),
                (None, Some(b)) => {
                    bots += 1;
                    bot_name(bots, b)
                }
                (None, None) => "?".to_string(),
            })
            .collect()
    }
}

/// One chat line of a saved game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedChat {
    /// Who wrote it.
    pub sender: String,
    /// What they wrote.
    pub message: String,
    /// When, in seconds since 1970.
    pub at: i64,
}

/// A whole game: the `game` field of a saved file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedGame {
    /// The game's name.
    pub name: String,
    /// The lobby's key of its board (`usa`, `upload-3`).
    pub board_key: String,
    /// The seed of its shuffles.
    pub seed: u64,
    /// Its seats in turn order.
    pub seats: Vec<SavedSeat>,
    /// The seat of the player who saved it (the state fields' point of
    /// view).
    pub saved_by: usize,
    /// Every move: the seat and the move.
    pub moves: Vec<(usize, Action)>,
    /// Its chat.
    pub chat: Vec<SavedChat>,
}

impl SavedGame {
    /// The `game` field's JSON. The seed is a string: JSON readers that
    /// hold numbers as doubles would round it.
    pub fn to_json(&self) -> Value {
        let seats: Vec<Value> = self
            .seats
            .iter()
            .map(|s| match (&s.username, &s.bot) {
                (Some(u), _) => json!({ "username": u, "color": s.color }),
                (None, b) => json!({ "bot": b, "color": s.color }),
            })
            .collect();
        let moves: Vec<Value> = self
            .moves
            .iter()
            .map(|(seat, a)| {
                let mut m = serde_json::to_value(Move::from(a)).unwrap_or_default();
                m["seat"] = (*seat).into();
                m
            })
            .collect();
        json!({
            "format": 1,
            "name": self.name,
            "board_key": self.board_key,
            "seed": self.seed.to_string(),
            "saved_by": self.saved_by,
            "seats": seats,
            "moves": moves,
            "chat": self.chat.iter().map(|c| json!({ "sender": c.sender, "message": c.message, "at": c.at })).collect::<Vec<_>>(),
        })
    }

    /// The `game` field read back; every problem is named by its entry
    /// (`game.moves[3]`).
    pub fn from_json(v: &Value) -> Result<SavedGame, Vec<String>> {
        let mut problems = Vec::new();
        let text = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let name = text("name").unwrap_or_default();
        let board_key = text("board_key").unwrap_or_else(|| "saved".into());
        let seed = text("seed").and_then(|s| s.parse::<u64>().ok());
        if seed.is_none() {
            problems.push("game.seed: expected the seed as a string of digits".into());
        }
        let mut seats = Vec::new();
        match v.get("seats").and_then(Value::as_array) {
            Some(list) => {
                for (i, s) in list.iter().enumerate() {
                    let username = s
                        .get("username")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    let bot = s.get("bot").and_then(Value::as_str).map(str::to_string);
                    if username.is_none() && bot.is_none() {
                        problems.push(format!("game.seats[{i}]: names no user and no bot"));
                    }
                    let color = s
                        .get("color")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    seats.push(SavedSeat {
                        username,
                        bot,
                        color,
                    });
                }
            }
            None => problems.push("game.seats: expected a list".into()),
        }
        if !(2..=5).contains(&seats.len()) && problems.is_empty() {
            problems.push(format!(
                "game.seats: {} seats; a game has 2 to 5",
                seats.len()
            ));
        }
        let saved_by = v.get("saved_by").and_then(Value::as_u64).unwrap_or(0) as usize;
        if saved_by >= seats.len().max(1) {
            problems.push(format!("game.saved_by: no seat {saved_by}"));
        }
        let mut moves = Vec::new();
        for (i, m) in v
            .get("moves")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            let mut m = m;
            let seat = m.get("seat").and_then(Value::as_u64);
            if let Some(o) = m.as_object_mut() {
                o.remove("seat");
            }
            match (seat, serde_json::from_value::<Move>(m)) {
                (Some(seat), Ok(mv)) => moves.push((seat as usize, Action::from(&mv))),
                (None, _) => problems.push(format!("game.moves[{i}].seat: expected a seat number")),
                (_, Err(e)) => problems.push(format!("game.moves[{i}]: {e}")),
            }
        }
        let chat = v
            .get("chat")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|c| SavedChat {
                sender: c
                    .get("sender")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                message: c
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                at: c.get("at").and_then(Value::as_i64).unwrap_or(0),
            })
            .collect();
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(SavedGame {
            name,
            board_key,
            seed: seed.unwrap_or(0),
            seats,
            saved_by,
            moves,
            chat,
        })
    }

    /// A saved file: its board (the file its `board` field names, beside
    /// it) and its `game`.
    pub fn load(path: &Path) -> Result<(Board, String, SavedGame), StateError> {
        let file = path.display().to_string();
        let text = crate::board::input::read_text(path).map_err(|source| StateError::Io {
            file: file.clone(),
            source,
        })?;
        let value = crate::board::input::parse(&text).map_err(|e| StateError::syntax(&file, e))?;
        let invalid = |problems: Vec<String>| StateError::Invalid {
            file: file.clone(),
            problems,
        };
        let board_name = value
            .get("board")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(vec!["board: expected the board file's name".into()]))?;
        let board_path: PathBuf = path.parent().unwrap_or(Path::new(".")).join(board_name);
        let (board, board_text) =
            Board::load_with_text(&board_path).map_err(|source| StateError::Board {
                file: file.clone(),
                board: board_name.to_string(),
                source,
            })?;
        let game = value.get("game").ok_or_else(|| {
            invalid(vec![
                "game: missing: this is a game state, not a whole saved game".into(),
            ])
        })?;
        let saved = SavedGame::from_json(game).map_err(invalid)?;
        saved.replay(&board).map_err(|e| invalid(vec![e]))?;
        Ok((board, board_text, saved))
    }

    /// The game, replayed move by move through the rules engine; an illegal
    /// move is named.
    pub fn replay<'b>(&self, board: impl Into<BoardRef<'b>>) -> Result<Game<'b>, String> {
        let mut game =
            Game::new(board, self.seats.len(), self.seed).map_err(|e| format!("game: {e}"))?;
        for (i, (seat, action)) in self.moves.iter().enumerate() {
            game.apply(*seat, action).map_err(|e| {
                format!("game.moves[{i}]: {action:?} by seat {seat} is illegal: {e}")
            })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_round_trips() {
        let actions = [
            Action::DrawFaceUp(4),
            Action::DrawDeck,
            Action::DrawTickets,
            Action::KeepTickets(vec![TicketId(3), TicketId(0)]),
            Action::Claim {
                route: RouteId(7),
                track: 1,
                colour: Colour::Pink,
                locomotives: 2,
            },
            Action::Pass,
            Action::PayTunnel { locomotives: 2 },
            Action::GiveUpTunnel,
            Action::BuildStation {
                city: CityId(4),
                colour: Colour::Blue,
                locomotives: 1,
            },
        ];
        for a in &actions {
            let text = Move::from(a).to_json();
            assert_eq!(Action::from(&Move::from_json(&text).unwrap()), *a, "{text}");
        }
        assert_eq!(
            Move::from(&actions[4]).to_json(),
            r#"{"move":"claim","route":7,"track":1,"colour":"pink","locomotives":2}"#
        );
        assert!(Move::from_json(r#"{"move":"fly"}"#).is_err());
    }
}
