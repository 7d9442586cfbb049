//! The Monte Carlo search player and the determinisations it plays from:
//! a determinisation keeps everything its player sees and deals the rest
//! again; it depends on that view alone, so the player's move does not
//! change when the hidden cards and tickets do; and the player makes only
//! legal moves, well enough to beat a random one.

use crate::common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ttr_opt::board::Board;
use ttr_opt::bots::greedy::Greedy;
use ttr_opt::bots::mcts::Mcts;
use ttr_opt::bots::Strategy;
use ttr_opt::engine::rules::{Expect, Game};
use ttr_opt::leagues::simulate::play;

/// A game `turns` turns into its play, every seat greedy.
fn midgame(board: &Board, players: usize, seed: u64, turns: usize) -> Game<'_> {
    let mut g = Game::new(board, players, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = 0;
    while moves < turns || !matches!(g.expect(), Expect::Turn) || g.in_setup() {
        let p = g.current();
        let a = Greedy.decide(&g, p, &mut rng);
        g.apply(p, &a).unwrap();
        moves += 1;
    }
    g
}

/// What player `me` sees of a game, as a comparable string.
fn view(g: &Game, me: usize) -> String {
    let players: Vec<String> = g
        .players
        .iter()
        .enumerate()
        .map(|(p, x)| {
            let secret = if p == me {
                format!("{:?} {:?}", x.hand, x.tickets)
            } else {
                String::new()
            };
            format!(
                "{} cards, {} tickets, {:?} {:?} {} {secret}",
                x.cards(),
                x.tickets.len(),
                x.tracks,
                x.stations,
                x.cars
            )
        })
        .collect();
    format!(
        "{players:?} {:?} {} {} {} {} {:?}",
        g.face_up(),
        g.deck_len(),
        g.discard_len(),
        g.tickets_left(),
        g.current(),
        g.offer(me)
    )
}

/// Every train card in the game: hands, deck, discard and face-up row.
fn cards(g: &Game) -> usize {
    g.players.iter().map(|p| p.cards() as usize).sum::<usize>()
        + g.deck_len()
        + g.discard_len()
        + g.face_up().len()
}

#[test]
fn a_determinisation_keeps_the_view_and_deals_the_hidden_again() {
    for file in ["usa.json", "europe.json"] {
        let b = common::shipped(file);
        let g = midgame(&b, 3, 7, 20);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let d = g.determinized(0, &mut rng);
        assert_eq!(view(&d, 0), view(&g, 0), "{file}");
        assert_eq!(cards(&d), cards(&g), "{file}");
        let all =
            |x: &Game| x.players.iter().map(|p| p.tickets.len()).sum::<usize>() + x.tickets_left();
        assert_eq!(all(&d), all(&g), "{file}");
        // The hidden part did change (the others' hands or tickets).
        let hidden = |x: &Game| {
            format!(
                "{:?}",
                x.players[1..]
                    .iter()
                    .map(|p| (p.hand, p.tickets.clone()))
                    .collect::<Vec<_>>()
            )
        };
        assert_ne!(hidden(&d), hidden(&g), "{file}");
        // The copy plays on: its moves are legal to the engine.
        let mut d = d;
        let mut r = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..30 {
            if d.is_over() {
                break;
            }
            let p = d.current();
            let a = Greedy.decide(&d, p, &mut r);
            d.apply(p, &a).unwrap();
        }
    }
}

#[test]
fn a_determinisation_depends_on_the_view_alone() {
    let b = common::usa();
    let g = midgame(&b, 3, 11, 15);
    // Another game with the same view for player 0: the hidden part dealt
    // otherwise.
    let other = g.determinized(0, &mut ChaCha8Rng::seed_from_u64(99));
    let a = g.determinized(0, &mut ChaCha8Rng::seed_from_u64(5));
    let b2 = other.determinized(0, &mut ChaCha8Rng::seed_from_u64(5));
    let everything = |x: &Game| {
        format!(
            "{:?} {}",
            x.players
                .iter()
                .map(|p| (p.hand, p.tickets.clone()))
                .collect::<Vec<_>>(),
            view(x, 0)
        )
    };
    assert_eq!(everything(&a), everything(&b2));
}

#[test]
fn the_search_players_move_does_not_change_with_the_hidden_information() {
    let b = common::usa();
    for seed in [3, 4] {
        let g = midgame(&b, 2, seed, 12);
        let me = g.current();
        let other = g.determinized(me, &mut ChaCha8Rng::seed_from_u64(seed + 100));
        let mut bot = Mcts { playouts: 48 };
        let one = bot.decide(&g, me, &mut ChaCha8Rng::seed_from_u64(8));
        let two = bot.decide(&other, me, &mut ChaCha8Rng::seed_from_u64(8));
        assert_eq!(one, two, "seed {seed}");
    }
}

#[test]
fn the_search_player_plays_legal_games_and_beats_random() {
    let b = common::usa();
    for seed in 0..2u64 {
        let played = play(&b, &["mcts", "random"], seed, seed).unwrap();
        assert!(!played.stalled, "game {seed}");
        let (m, r) = (&played.seats[0], &played.seats[1]);
        assert!(
            m.score > r.score,
            "game {seed}: {} against {}",
            m.score,
            r.score
        );
    }
}
