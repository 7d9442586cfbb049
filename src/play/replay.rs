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
//! about a millisecond into about 35 KB; the answer is asked for by every player
//! and spectator, under the server's lock, so it is built once, when first
//! asked, and kept with the table ([`Table::replay`]).

use serde_json::{json, Value};

use super::protocol::description as d;
use super::table::{move_line, Table};
use crate::engine::event::Happened;
use crate::engine::rules::{Game, Player};

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
    use crate::engine::rules::Action;
    use crate::engine::saved::SavedGame;
    use crate::leagues::simulate;
    use crate::play::table::{TableBoard, COLORS};

    /// A table playing `moves` from `seed` on `board`, with `seats` seats.
    fn table_of(board: TableBoard, seats: usize, seed: u64, moves: &[(usize, Action)]) -> Table {
        let mut table = Table::new(1, "g".into(), 1, "a".into(), COLORS[0], Arc::new(board), 0);
        for (i, &color) in COLORS.iter().enumerate().take(seats).skip(1) {
            let mut seat = table.seats[0].clone();
            (seat.name, seat.color) = (format!("p{i}"), color);
            table.seats.push(seat);
        }
        table.start(seed).unwrap();
        for (seat, action) in moves {
            table.act(*seat, action).unwrap();
        }
        table
    }

    /// Bots' games on Europe until one builds stations and claims tunnels:
    /// the replay names each station's city, in the order built, and each
    /// tunnel claimed, and the line of a tunnel's claim names the cards
    /// it turned (public), never the cards drawn from the deck.
    #[test]
    fn stations_and_tunnels_replay_on_europe() {
        let (_, text) = crate::board::SHIPPED
            .iter()
            .find(|(k, _)| *k == "europe")
            .unwrap();
        let board = crate::board::Board::from_json(text, "europe").unwrap();
        assert!(board.rules.stations.is_some());
        let played = (0..40)
            .map(|seed| {
                (
                    seed,
                    simulate::play(&board, &["greedy"; 3], 0, seed).unwrap(),
                )
            })
            .find(|(_, p)| p.used.stations_built > 0 && p.used.tunnels_claimed > 0);
        let (seed, played) = played.expect("a game with stations and tunnels");
        let table = table_of(
            TableBoard::new("europe".into(), String::new(), String::new(), board),
            3,
            seed,
            &played.actions,
        );
        let out = replay(&table).unwrap();
        let moves = out["moves"].as_array().unwrap();
        let game = table.game().unwrap();
        for seat in 0..3 {
            let built: Vec<usize> = moves
                .iter()
                .filter(|m| m["seat"] == seat)
                .filter_map(|m| m["cityIndex"].as_u64().map(|c| c as usize))
                .collect();
            let held: Vec<usize> = game.players[seat].stations.iter().map(|c| c.0).collect();
            assert_eq!(built, held, "seat {seat}");
        }
        let tunnels = moves
            .iter()
            .filter(|m| m["text"].as_str().unwrap().contains("the tunnel turned"))
            .count();
        assert_eq!(tunnels as u32, played.used.tunnels_claimed);
        for (m, (_, action)) in moves.iter().zip(&played.actions) {
            if *action == Action::DrawDeck {
                assert!(
                    m["text"]
                        .as_str()
                        .unwrap()
                        .ends_with("drew a card from the deck"),
                    "{m}"
                );
            }
        }
    }

    /// The shipped game of four bots on the USA board (`data/games`), at a
    /// table: its replay has an entry a move and stays small, and the
    /// tracks it claims are the game's.
    #[test]
    fn a_whole_usa_game_replays_compactly() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/games/usa-bots.json");
        let (board, text, saved) = SavedGame::load(std::path::Path::new(path)).unwrap();
        let board = TableBoard::new("usa".into(), String::new(), text, board);
        let table = table_of(board, saved.seats.len(), saved.seed, &saved.moves);
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
