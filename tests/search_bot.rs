//! The search player (`src/game/search.rs`): it is a strategy by name; it
//! plays whole games on the USA and Europe boards at 2, 3 and 4 players
//! making only legal moves (the engine refuses any other, and `play` then
//! fails) to their end; its move depends on its own view alone (the hidden
//! cards and tickets dealt again leave it unchanged, its memory of earlier
//! moves included); and it outscores the greedy player over seeded games
//! (figures measured first, asserted with a margin).

mod common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ttr_opt::game::players::{by_name, Strategy, STRATEGIES};
use ttr_opt::game::rules::Game;
use ttr_opt::game::search::Search;
use ttr_opt::game::simulate::{play, Played};

#[test]
fn search_is_a_strategy_by_name() {
    assert!(STRATEGIES.contains(&"search"));
    assert_eq!(by_name("search").unwrap().name(), "search");
}

#[test]
fn search_plays_whole_legal_games_on_usa_and_europe() {
    let others = ["greedy", "planner", "long-route", "route-focus"];
    let mut played = 0;
    for file in ["usa.json", "europe.json"] {
        let board = common::shipped(file);
        for players in 2..=4usize {
            for game in 0..2u64 {
                // The search player in seat `game % players`, others around.
                let mut names: Vec<&str> = (0..players)
                    .map(|i| others[(i + game as usize) % others.len()])
                    .collect();
                names[game as usize % players] = "search";
                let p: Played = play(&board, &names, game, 70 + game)
                    .unwrap_or_else(|e| panic!("{file}, {names:?}, game {game}: {e}"));
                assert!(!p.stalled, "{file}, {names:?}, game {game} stalled");
                let me = p.seats.iter().find(|s| s.strategy == "search").unwrap();
                assert!(
                    me.cars_used > 0,
                    "{file}, {names:?}: search claimed nothing"
                );
                played += 1;
            }
        }
    }
    assert_eq!(played, 12);
}

#[test]
fn a_search_move_does_not_change_with_the_hidden_information() {
    let mut compared = 0;
    for (file, seed) in [("usa.json", 5u64), ("europe.json", 6)] {
        let board = common::shipped(file);
        let names = ["search", "long-route", "search"];
        let mut game = Game::new(&board, names.len(), seed).unwrap();
        let mut bots: Vec<Box<dyn Strategy>> = names.iter().map(|n| by_name(n).unwrap()).collect();
        // The search seats' twins: the same memory, for the comparisons.
        let mut twins: Vec<Option<Search>> = names
            .iter()
            .map(|&n| (n == "search").then(Search::default))
            .collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves = 0;
        while !game.is_over() && moves < 2000 {
            let me = game.current();
            let action = if let Some(twin) = twins[me].as_mut() {
                // The twin's memory, copied before the move, decides on the
                // real game and on games with the hidden part dealt again.
                for deal in 0..2u64 {
                    let other = game.determinized(me, &mut ChaCha8Rng::seed_from_u64(deal));
                    let guessed = twin.clone().decide(&other, me, &mut rng.clone());
                    let seen = twin.clone().decide(&game, me, &mut rng.clone());
                    assert_eq!(seen, guessed, "{file}, move {moves}, deal {deal}");
                    compared += 1;
                }
                let a = twin.decide(&game, me, &mut rng.clone());
                let played = bots[me].decide(&game, me, &mut rng);
                assert_eq!(a, played, "{file}, move {moves}: the twin drifted");
                a
            } else {
                bots[me].decide(&game, me, &mut rng)
            };
            game.apply(me, &action).unwrap();
            moves += 1;
        }
        assert!(game.is_over(), "{file}: the game did not end");
    }
    assert!(compared > 200, "{compared} moves compared");
}

/// Search against greedy, 2 players, seats alternating: 12 seeded games a
/// board. Measured when written: USA 8 of 12 won (1,524 points to 1,342),
/// Europe 10 of 12 (1,658 to 1,408).
#[test]
fn search_outscores_greedy_on_seeded_games() {
    for file in ["usa.json", "europe.json"] {
        let board = common::shipped(file);
        let (mut wins, mut mine, mut theirs) = (0, 0i64, 0i64);
        for g in 0..12u64 {
            let names = if g % 2 == 0 {
                ["search", "greedy"]
            } else {
                ["greedy", "search"]
            };
            let p = play(&board, &names, g, 900 + g).unwrap();
            let s = |name: &str| p.seats.iter().find(|s| s.strategy == name).unwrap().score;
            mine += s("search");
            theirs += s("greedy");
            wins += (s("search") > s("greedy")) as u32;
        }
        eprintln!("{file}: search won {wins} of 12, {mine} points to {theirs}");
        assert!(wins >= 7, "{file}: search won {wins} of 12");
        assert!(mine > theirs, "{file}: {mine} points to greedy's {theirs}");
    }
}

/// The time of each search move, no memo of plans shared (as a lone bot
/// online): 2-player games against greedy, the planner and Long Route on
/// the USA and Europe boards. Run by hand for `output/bench/tournament.md`:
/// `cargo test --release --test search_bot -- --ignored --nocapture`.
#[test]
#[ignore]
fn search_decision_times() {
    for file in ["usa.json", "europe.json"] {
        let board = common::shipped(file);
        let mut times: Vec<f64> = Vec::new();
        for (k, other) in ["greedy", "planner", "long-route"].iter().enumerate() {
            for g in 0..4u64 {
                let seed = 300 + 10 * k as u64 + g;
                let names = if g % 2 == 0 {
                    ["search", other]
                } else {
                    [other, "search"]
                };
                let mut game = Game::new(&board, 2, seed).unwrap();
                let mut bots: Vec<Box<dyn Strategy>> =
                    names.iter().map(|n| by_name(n).unwrap()).collect();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while !game.is_over() {
                    let me = game.current();
                    let start = std::time::Instant::now();
                    let a = bots[me].decide(&game, me, &mut rng);
                    if names[me] == "search" {
                        times.push(start.elapsed().as_secs_f64() * 1e3);
                    }
                    game.apply(me, &a).unwrap();
                }
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        eprintln!(
            "{file}: {} search moves, median {:.3} ms, p90 {:.3} ms, p99 {:.1} ms, max {:.1} ms, mean {:.2} ms",
            times.len(),
            at(0.5),
            at(0.9),
            at(0.99),
            times[times.len() - 1],
            times.iter().sum::<f64>() / times.len() as f64
        );
    }
}
