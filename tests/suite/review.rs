//! The review of a game: every turn's best still reachable against
//! exhaustive search, over random games on small boards; a hand-made game
//! whose losses are derived by hand; the command line on a saved game.

use crate::common;

use std::collections::VecDeque;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ttr_opt::board::{Board, RouteId, TicketId};
use ttr_opt::engine::cards::{Card, COLOURS};
use ttr_opt::engine::rules::{Action, Game};
use ttr_opt::engine::state::GameState;
use ttr_opt::leagues::simulate::play;
use ttr_opt::leagues::simulate::review_played;
use ttr_opt::plans::coach::advise;
use ttr_opt::plans::review::{review, ReviewOptions};
use ttr_opt::solve::SolveOptions;

/// A board of small car count (8), so that games end soon and every plan
/// can be searched.
fn small(seed: u64) -> Board {
    Board::from_json(&small_json(seed), "small").unwrap()
}

/// Its file's text.
fn small_json(seed: u64) -> String {
    let cities = common::SIX_CITIES;
    let routes = common::SIX_CITY_ROUTES;
    let pick = |i: u64| cities[((seed * 7 + i * 5) % 6) as usize];
    let mut tickets = Vec::new();
    for i in 0..12u64 {
        let (a, b) = (pick(i), pick(i * 3 + 1));
        if a != b {
            tickets.push(serde_json::json!({ "from": a, "to": b, "points": 2 + (seed + i) % 9 }));
        }
    }
    let json = serde_json::json!({
        "name": "small", "cars": 8,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
        "cities": cities.iter().enumerate().map(|(i, c)| serde_json::json!({ "name": c, "x": i, "y": i % 2 })).collect::<Vec<_>>(),
        // B – C is a double route: with 3 players one track closes both.
        "routes": routes.iter().map(|&(a, b, l)| serde_json::json!({
            "from": a, "to": b, "length": l,
            "tracks": if (a, b) == ("B", "C") { vec!["gray", "gray"] } else { vec!["gray"] },
        })).collect::<Vec<_>>(),
        "tickets": tickets,
    });
    json.to_string()
}

#[test]
fn every_turns_best_matches_exhaustive_search() {
    let mut turns_checked = 0;
    for seed in 1..=12u64 {
        let board = small(seed);
        let names = ["greedy", "random", "greedy"];
        let Ok(played) = play(&board, &names, 0, seed) else {
            continue;
        };
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let r = review(
            Game::new(&board, 3, seed).unwrap(),
            &played.actions,
            &names,
            &ReviewOptions::default(),
        )
        .unwrap();
        assert!(r.all_proven);
        // Replay here: the state at each turn's start, and after it.
        let mut game = Game::new(&board, 3, seed).unwrap();
        let mut starts: Vec<Vec<GameState>> = vec![Vec::new(); 3];
        let mut afters: Vec<Vec<GameState>> = vec![Vec::new(); 3];
        for (i, (seat, action)) in played.actions.iter().enumerate() {
            for p in &r.players {
                if let Some(t) = p.turns.iter().find(|t| t.move_index == i) {
                    assert_eq!(p.seat, *seat);
                    starts[p.seat].push(GameState::of_player(&game, p.seat));
                    let _ = t;
                }
            }
            let before = game.players[*seat].turns;
            game.apply(*seat, action).unwrap();
            if game.players[*seat].turns > before {
                afters[*seat].push(GameState::of_player(&game, *seat));
            }
        }
        let results = game.results();
        for p in &r.players {
            assert_eq!(p.turns.len(), starts[p.seat].len());
            for (k, t) in p.turns.iter().enumerate() {
                let want = common::brute_best(&board, &starts[p.seat][k]);
                assert_eq!(
                    t.best, want,
                    "seed {seed}, seat {}, turn {}",
                    p.seat, t.turn
                );
                assert_eq!(t.bound, want);
                if let Some(after) = afters[p.seat].get(k) {
                    assert_eq!(
                        t.after_own,
                        common::brute_best(&board, after),
                        "seed {seed}, seat {}, turn {} after",
                        p.seat,
                        t.turn
                    );
                }
                assert_eq!(t.gap, t.best - p.network_score);
                turns_checked += 1;
            }
            // The final score and the open board.
            assert_eq!(p.score, results[p.seat].score);
            assert_eq!(p.network_score, p.score - p.bonus as i64);
            let open = GameState {
                players: 3,
                cars_left: board.cars,
                owned: Vec::new(),
                taken: Vec::new(),
                tickets: game.players[p.seat].tickets.clone(),
                may_draw: false,
                stations: None,
            };
            assert_eq!(p.single_player_optimum, common::brute_best(&board, &open));
            // The costliest turns are the largest drops, largest first.
            for w in p.costliest.windows(2) {
                assert!(w[0].points >= w[1].points);
            }
        }
        assert_eq!(r.board_optimum, common::brute_force(&board, board.cars));
    }
    assert!(turns_checked > 100, "{turns_checked} turns checked");
}

fn route(b: &Board, a: &str, c: &str) -> RouteId {
    b.route_ids()
        .find(|&r| {
            let l = b.route_label(r);
            l == format!("{a} – {c}") || l == format!("{c} – {a}")
        })
        .unwrap()
}

#[test]
fn a_hand_made_game_loses_where_derived() {
    // A line A – B – C – D (1, 2 and 1 cars, 1 + 2 + 1 points) and a
    // shortcut A – D (4 cars, 7 points). Cars: 4. Values below by hand.
    let board = Board::from_json(
        r#"{ "name": "line", "cars": 4, "route_points": { "1": 1, "2": 2, "4": 7 },
             "cities": [ { "name": "A", "x": 0, "y": 0 }, { "name": "B", "x": 1, "y": 0 },
                         { "name": "C", "x": 2, "y": 0 }, { "name": "D", "x": 3, "y": 0 } ],
             "routes": [ { "from": "A", "to": "B", "length": 1, "tracks": ["red"] },
                         { "from": "B", "to": "C", "length": 2, "tracks": ["blue"] },
                         { "from": "C", "to": "D", "length": 1, "tracks": ["green"] },
                         { "from": "A", "to": "D", "length": 4, "tracks": ["black"] } ],
             "tickets": [ { "from": "A", "to": "D", "points": 10 }, { "from": "B", "to": "D", "points": 3 },
                          { "from": "A", "to": "C", "points": 4 }, { "from": "B", "to": "A", "points": 2 },
                          { "from": "C", "to": "B", "points": 2 }, { "from": "D", "to": "C", "points": 1 } ] }"#,
        "line",
    )
    .unwrap();
    // Cards are dealt from the end: alice's 4 (2 blue, 2 red), bob's 4
    // (red, red, ...), then 5 face up.
    let mut deck: Vec<Card> = (0..60).map(|i| Card::Train(COLOURS[i % 8])).collect();
    let top = [
        Card::Train(ttr_opt::board::Colour::Blue),
        Card::Train(ttr_opt::board::Colour::Blue),
        Card::Train(ttr_opt::board::Colour::Red),
        Card::Train(ttr_opt::board::Colour::Red),
        Card::Train(ttr_opt::board::Colour::Red),
        Card::Train(ttr_opt::board::Colour::Red),
        Card::Train(ttr_opt::board::Colour::Green),
        Card::Train(ttr_opt::board::Colour::Green),
    ];
    deck.extend(top.iter().rev());
    let tickets: VecDeque<TicketId> = board.ticket_ids().collect();
    let game = Game::with_decks(&board, 2, deck, tickets, ChaCha8Rng::seed_from_u64(1)).unwrap();
    let t = |a: &str, c: &str| {
        board
            .ticket_ids()
            .find(|&t| board.ticket_label(t) == format!("{a} – {c}"))
            .unwrap()
    };
    let claim = |a: &str, c: &str, colour| Action::Claim {
        route: route(&board, a, c),
        track: 0,
        colour,
        locomotives: 0,
    };
    use ttr_opt::board::Colour::{Blue, Red};
    let moves = vec![
        // Alice keeps A – D and B – D (the first three are hers); bob keeps
        // the next two of his three.
        (0, Action::KeepTickets(vec![t("A", "D"), t("B", "D")])),
        (1, Action::KeepTickets(vec![t("B", "A"), t("C", "B")])),
        (0, claim("B", "C", Blue)),
        (1, claim("A", "B", Red)),
        (0, Action::DrawDeck),
        (0, Action::DrawDeck),
    ];
    let names = vec!["alice".to_string(), "bob".to_string()];
    let r = review(game, &moves, &names, &ReviewOptions::default()).unwrap();
    let alice = &r.players[0];
    // Alice holds A – D (10) and B – D (3). Turn 1: A – D alone completes
    // A – D but not B – D: 7 + 10 - 3 = 14; the line A – B – C – D
    // completes both: 4 + 10 + 3 = 17. Best 17, on the line.
    assert_eq!(alice.turns[0].best, 17);
    // She claims B – C, on the line: nothing lost.
    assert_eq!(alice.turns[0].after_own, 17);
    // Bob takes A – B: the line is cut; with B – C owned and 2 cars left,
    // C – D completes B – D: 2 + 1 + 3 - 10 = -4.
    assert_eq!(alice.turns[1].best, -4);
    assert_eq!(alice.turns[0].others, vec!["bob claimed A – B".to_string()]);
    let loss = &alice.costliest[0];
    assert_eq!((loss.points, loss.cause.as_str()), (21, "others"));
    assert!(loss.text.contains("bob claimed A – B"), "{}", loss.text);
    // Bob (B – A 2, C – B 2, with B – C taken) had A – D for 7 - 4 = 3;
    // A – B instead leaves C – D: 1 + 1 + 2 - 2 = 2, off every optimal
    // plan, 1 lost.
    let bob = &r.players[1];
    assert_eq!((bob.turns[0].best, bob.turns[0].after_own), (3, 2));
    let own = bob
        .costliest
        .iter()
        .find(|l| l.cause == "own move")
        .unwrap();
    assert_eq!(own.points, 1);
    assert!(
        own.text.contains("claimed A – B, off every optimal plan"),
        "{}",
        own.text
    );
}

/// The coach at the start of a game: every choice of the offer is the best
/// final score with those tickets, found by exhaustive search, and the plan
/// is the best choice's.
#[test]
fn the_coach_weighs_every_ticket_choice() {
    let mut checked = 0;
    for seed in 1..=8u64 {
        let board = small(seed);
        let game = Game::new(&board, 3, seed).unwrap();
        for seat in 0..3 {
            let state = GameState::of_player(&game, seat);
            let (offered, min) = game.offer(seat).unwrap();
            let advice = advise(
                &board,
                &state,
                Some((offered, min)),
                &SolveOptions::default(),
            )
            .unwrap();
            // Every subset of at least `min`: 3 offered, keep 2 or 3.
            assert_eq!(advice.choices.len(), 4, "seed {seed}");
            let mut best = i64::MIN;
            for c in &advice.choices {
                assert!(c.keep.len() >= min && c.proven);
                let mut s = state.clone();
                s.tickets.extend(&c.keep);
                let want = common::brute_best(&board, &s);
                assert_eq!(c.score, want, "seed {seed}, seat {seat}, keep {:?}", c.keep);
                best = best.max(want);
                checked += 1;
            }
            assert_eq!(advice.choices[0].score, best);
            assert_eq!(advice.plan.score, best);
            assert!(advice.proven());
            // The plan's tickets are the held ones plus the best choice.
            let mut want: Vec<TicketId> = advice.choices[0].keep.clone();
            want.sort();
            let mut got = advice.tickets.clone();
            got.sort();
            assert_eq!(got, want);
        }
    }
    assert_eq!(checked, 8 * 3 * 4);
}

/// The coach's input is the player's own state: another player's hand and
/// tickets (and the deck) change nothing of it, so nothing of them can
/// reach the plan.
#[test]
fn the_coach_sees_only_its_own_seat() {
    let board = small(3);
    let names = ["greedy", "greedy", "greedy"];
    let played = play(&board, &names, 0, 3).unwrap();
    let mut game = Game::new(&board, 3, 3).unwrap();
    for (seat, action) in played.actions.iter().take(played.actions.len() / 2) {
        game.apply(*seat, action).unwrap();
    }
    let before = GameState::of_player(&game, 0);
    let advice = advise(&board, &before, None, &SolveOptions::default()).unwrap();
    let mut other = game.clone();
    other.players[1].hand = [7; 9];
    other.players[2].tickets = board.ticket_ids().collect();
    other.players[1].tickets.clear();
    let after = GameState::of_player(&other, 0);
    assert_eq!(before, after);
    // Only the seat's own tickets, and the others' claimed tracks.
    assert_eq!(after.tickets, game.players[0].tickets);
    let theirs: Vec<_> = game.players[1..]
        .iter()
        .flat_map(|p| p.tracks.clone())
        .collect();
    assert_eq!(after.taken.len(), theirs.len());
    let again = advise(&board, &after, None, &SolveOptions::default()).unwrap();
    assert_eq!(advice.plan.claim, again.plan.claim);
    assert_eq!(advice.plan.score, common::brute_best(&board, &before));
}

/// A simulated game's review (`simulate --review`) is the review of its
/// moves, and the losses by cause add up: the best at the first turn less
/// what was lost, plus what others' claims or tickets kept gave back,
/// is the final score.
#[test]
fn a_simulated_games_review_accounts_for_every_point() {
    for seed in 1..=6u64 {
        let board = small(seed);
        let names = ["planner", "greedy"];
        let Ok(played) = play(&board, &names, 0, seed) else {
            continue;
        };
        let r = review_played(&board, &played, &ReviewOptions::default()).unwrap();
        let again = review(
            Game::new(&board, 2, seed).unwrap(),
            &played.actions,
            &["planner".to_string(), "greedy".to_string()],
            &ReviewOptions::default(),
        )
        .unwrap();
        for (p, q) in r.players.iter().zip(&again.players) {
            assert_eq!(p.name, names[p.seat]);
            let bests: Vec<i64> = p.turns.iter().map(|t| t.best).collect();
            assert_eq!(bests, q.turns.iter().map(|t| t.best).collect::<Vec<_>>());
            // Each step between the first best and the final score is a
            // loss by its cause, or a gain (tickets kept, a fall undone).
            let Some(first) = p.turns.first() else {
                continue;
            };
            let mut gains = 0;
            for (i, t) in p.turns.iter().enumerate() {
                gains += (t.after_own - t.best).max(0);
                let next = p.turns.get(i + 1).map_or(p.network_score, |n| n.best);
                gains += (next - t.after_own).max(0);
            }
            assert_eq!(
                first.best - p.lost_own - p.lost_others - p.lost_end + gains,
                p.network_score,
                "seed {seed}, seat {}",
                p.seat
            );
        }
    }
}

/// `ttr-opt review` on a saved game (the online game's file: a game state
/// with the whole game, its board beside it) writes the library's review
/// as JSON and CSV, and its figure; `simulate --review` reviews the first
/// games as the library does; a file that is no saved game is a clear error.
#[test]
fn the_review_command_writes_the_librarys_review() {
    use ttr_opt::engine::saved::{SavedGame, SavedSeat};
    let dir = std::env::temp_dir().join(format!("ttr-opt-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seed = 4;
    let board = small(seed);
    let names = ["planner", "greedy", "random"];
    let played = play(&board, &names, 0, seed).unwrap();
    let saved = SavedGame {
        name: "test".into(),
        board_key: "small".into(),
        seed,
        seats: names
            .iter()
            .zip(["red", "blue", "green"])
            .map(|(n, c)| SavedSeat {
                username: Some(n.to_string()),
                bot: None,
                color: c.into(),
            })
            .collect(),
        saved_by: 0,
        moves: played.actions.clone(),
        chat: Vec::new(),
    };
    let end = saved.replay(&board).unwrap();
    let mut file = GameState::of_player(&end, 0).to_json(&board, "game.board.json");
    file["game"] = saved.to_json();
    std::fs::write(dir.join("game.board.json"), small_json(seed)).unwrap();
    let game = dir.join("game.json");
    std::fs::write(&game, file.to_string()).unwrap();

    let out = common::ttr_opt_ok(&[
        "review",
        game.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--plot",
        "--json",
    ]);
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("review-game.json")).unwrap())
            .unwrap();
    let here = review(
        Game::new(&board, 3, seed).unwrap(),
        &played.actions,
        &names.map(String::from),
        &ReviewOptions::default(),
    )
    .unwrap();
    for v in [&printed, &written] {
        assert_eq!(v["players"].as_array().unwrap().len(), 3);
        for (p, q) in v["players"].as_array().unwrap().iter().zip(&here.players) {
            let bests: Vec<i64> = p["turns"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["best"].as_i64().unwrap())
                .collect();
            assert_eq!(bests, q.turns.iter().map(|t| t.best).collect::<Vec<_>>());
            assert_eq!(
                p["single_player_optimum"].as_i64().unwrap(),
                q.single_player_optimum
            );
        }
        assert_eq!(
            v["board_optimum"].as_u64().unwrap(),
            common::brute_force(&board, board.cars) as u64
        );
    }
    let csv = std::fs::read_to_string(dir.join("review-game.csv")).unwrap();
    let turns: usize = here.players.iter().map(|p| p.turns.len()).sum();
    assert_eq!(csv.lines().count(), turns + 1, "a header and a row a turn");
    assert!(
        csv.starts_with("game,seat,name,turn,best,bound,proven,gap,after_own,action,others,plan")
    );
    for ext in ["png", "svg"] {
        assert!(
            std::fs::metadata(dir.join(format!("review-game.{ext}")))
                .unwrap()
                .len()
                > 1000
        );
    }

    // simulate --review 2: the first two games, as the library reviews them.
    let out = common::ttr_opt_ok(&[
        "simulate",
        "--board",
        dir.join("game.board.json").to_str().unwrap(),
        "--players",
        "planner,greedy",
        "--games",
        "3",
        "--seed",
        "7",
        "--optimum",
        "10",
        "--review",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Reviewed 2 games turn by turn"));
    let reviews: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("review-planner-greedy.json")).unwrap(),
    )
    .unwrap();
    let reviews = reviews.as_array().unwrap();
    assert_eq!(reviews.len(), 2);
    for (g, r) in reviews.iter().enumerate() {
        // Game g: seed 7 + g, the seats rotated by g.
        let order: Vec<&str> = (0..2).map(|i| ["planner", "greedy"][(i + g) % 2]).collect();
        let p = play(&board, &order, g as u64, 7 + g as u64).unwrap();
        let here = review_played(&board, &p, &ReviewOptions::default()).unwrap();
        for (a, b) in r["players"].as_array().unwrap().iter().zip(&here.players) {
            assert_eq!(a["name"], b.name);
            assert_eq!(a["network_score"].as_i64().unwrap(), b.network_score);
            assert_eq!(a["lost_own"].as_i64().unwrap(), b.lost_own);
        }
    }

    // Not a saved game: exit status 1, the file named.
    let out = common::ttr_opt(&["review", dir.join("game.board.json").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("game.board.json"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
