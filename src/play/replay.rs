//! `getReplay`: a finished game move by move, for the page's replay slider.
//!
//! A table keeps only its game's present state and the moves that led to
//! it, so the states in between are rebuilt: the game is dealt again from
//! its seed and every recorded move replayed through the rules engine, as
//! a restart rebuilds a game ([`Table::restore`]). After each move the
//! public part of the state is written down, and nothing else: the move's
//! line of history ([`move_line`], which names no card drawn from the deck
//! and no ticket), the track it claimed and the station it built, and per
//! player the route points, cars left and the counts of cards and tickets.
//! No hand, no ticket, no deck order: the tickets are shown by the results
//! once the game is over, and a player's cards never are.
//!
//! The shipped game of four bots on the USA board (267 moves) replays in
//! about a millisecond into 35 KB; the answer is asked for by every player
//! and spectator, under the server's lock, so it is built once, when first
//! asked, and kept with the table ([`Table::replay`]).

use serde_json::{json, Value};

use super::protocol::description as d;
use super::table::{move_line, Table};
use crate::game::event::Happened;
use crate::game::rules::{Game, Player};

/// The columns of each player's totals after a move, in order: a move's
/// totals are one short array a player rather than an object, so that a
/// whole game's replay stays small (4 players, 267 moves: 35 KB).
pub const TOTALS: [&str; 4] = ["points", "trainsLeft", "cardCount", "destinationCount"];

/// The replay of `table`'s game, once it is over: `getReplay`'s answer.
/// An error (a server error to the players) when the game has not
/// started, or its moves do not replay into the game the table holds.
pub fn replay(table: &Table) -> Result<Value, String> {
    let (Some(seed), Some(held)) = (table.seed(), table.game()) else {
        return Err("the game has not started".into());
    };
    let board = &table.board;
    let mut game = Game::new(board.board.clone(), table.seats.len(), seed)
        .map_err(|e| format!("cannot deal the game again: {e}"))?;
    let mut moves = Vec::with_capacity(table.moves.len());
    for (i, (seat, action)) in table.moves.iter().enumerate() {
        let event = game
            .apply(*seat, action)
            .map_err(|e| format!("move {i} does not replay: {e}"))?;
        let mut entry = json!({
            "seat": seat,
            "text": move_line(&board.board, &table.seats[*seat].name, &event),
            "players": game.players.iter().map(totals).collect::<Vec<_>>(),
        });
        match &event.happened {
            Happened::Claimed(c) => entry["routeIndex"] = board.index_of(c.route, c.track).into(),
            Happened::StationBuilt { city, .. } => entry["cityIndex"] = city.0.into(),
            _ => {}
        }
        moves.push(entry);
    }
    let same = board
        .tracks
        .iter()
        .all(|&(r, t)| game.owner(r, t) == held.owner(r, t));
    if !same || game.is_over() != held.is_over() {
        return Err("the moves replay into another game than the one held".into());
    }
    Ok(json!({
        "description": d::SUCCESS,
        "gameId": table.id,
        "totals": TOTALS,
        "moves": moves,
    }))
}

/// A player's public totals, in the order of [`TOTALS`].
fn totals(p: &Player) -> Value {
    json!([p.route_points, p.cars, p.cards(), p.tickets.len()])
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::game::saved::SavedGame;
    use crate::play::table::{TableBoard, COLORS};

    /// The shipped game of four bots on the USA board (`data/games`), at a
    /// table: its replay has an entry a move and stays small, and the
    /// tracks it claims are the game's.
    #[test]
    fn a_whole_usa_game_replays_compactly() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/games/usa-bots.json");
        let (board, text, saved) = SavedGame::load(std::path::Path::new(path)).unwrap();
        let board = Arc::new(TableBoard::new("usa".into(), String::new(), text, board));
        let mut table = Table::new(1, "g".into(), 1, "a".into(), COLORS[0], board, 0);
        for (i, name) in saved.seat_names().into_iter().enumerate().skip(1) {
            let mut seat = table.seats[0].clone();
            (seat.name, seat.color) = (name, COLORS[i]);
            table.seats.push(seat);
        }
        table.start(saved.seed).unwrap();
        for (seat, action) in &saved.moves {
            table.act(*seat, action).unwrap();
        }
        let started = std::time::Instant::now();
        let out = replay(&table).unwrap();
        let took = started.elapsed();
        let text = out.to_string();
        eprintln!(
            "{} moves replayed in {took:?}: {} bytes",
            saved.moves.len(),
            text.len()
        );
        let moves = out["moves"].as_array().unwrap();
        assert_eq!(moves.len(), saved.moves.len());
        assert!(text.len() < 64 << 10, "{} bytes", text.len());
        let claimed = moves.iter().filter(|m| m.get("routeIndex").is_some());
        let game = table.game().unwrap();
        let owned: usize = game.players.iter().map(|p| p.tracks.len()).sum();
        assert_eq!(claimed.count(), owned);
    }
}
