//! The rules engine: dealing, the face-up row, drawing, claiming, the end
//! of the game, scoring; replayed seeds; random games never panic.

use crate::common;

use std::collections::VecDeque;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ttr_opt::board::{Board, Colour, RouteId, TicketId};
use ttr_opt::engine::cards::{Card, COLOURS};
use ttr_opt::engine::rules::{longest_path, Action, Expect, Game, Illegal, Payment};
use ttr_opt::leagues::simulate::play;

fn rng() -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(7)
}

fn route(b: &Board, a: &str, c: &str) -> RouteId {
    b.route_ids()
        .find(|&r| {
            let l = b.route_label(r);
            l == format!("{a} – {c}") || l == format!("{c} – {a}")
        })
        .unwrap_or_else(|| panic!("no route {a} – {c}"))
}

/// A deck drawn from the end: `top` are the first cards drawn, in order,
/// over a bottom of ordinary cards.
fn deck(top: &[Card]) -> Vec<Card> {
    let mut d: Vec<Card> = (0..60).map(|i| Card::Train(COLOURS[i % 8])).collect();
    d.extend(top.iter().rev());
    d
}

/// Keeps the first two offered tickets for every player.
fn finish_setup(g: &mut Game) {
    while let Expect::Tickets { offered, .. } = g.expect().clone() {
        let p = g.current();
        g.apply(p, &Action::KeepTickets(offered[..2].to_vec()))
            .unwrap();
    }
}

fn tickets(b: &Board) -> VecDeque<TicketId> {
    b.ticket_ids().collect()
}

#[test]
fn dealing_and_the_start_ticket_choice() {
    let b = common::usa();
    let mut g = Game::new(&b, 3, 42).unwrap();
    for p in &g.players {
        assert_eq!(p.cards(), 4);
        assert_eq!(p.cars, 45);
    }
    assert_eq!(g.face_up().len(), 5);
    assert_eq!(g.deck_len(), 110 - 12 - 5 - 5 * g.reshuffles as usize);
    let Expect::Tickets { offered, min } = g.expect().clone() else {
        panic!("the game starts with a ticket choice")
    };
    assert_eq!((offered.len(), min), (3, 2));
    // Keeping one is too few at the start; a turn action is not allowed yet.
    let err = g
        .apply(0, &Action::KeepTickets(offered[..1].to_vec()))
        .unwrap_err();
    assert!(err.message.contains("keep at least 2"), "{err}");
    assert_eq!(err.kind, Illegal::KeepMore);
    assert_eq!(
        g.apply(0, &Action::DrawDeck).unwrap_err().kind,
        Illegal::ChooseTickets
    );
    // Every player chooses at once, in any order, from their own 3 tickets
    // (dealt as seat by seat: player 1 holds the deck's 4th to 6th).
    let (dealt1, min1) = g.offer(1).expect("player 1 was dealt tickets");
    let dealt1 = dealt1.to_vec();
    assert_eq!(min1, 2);
    assert!(dealt1.iter().all(|t| !offered.contains(t)));
    assert_eq!(
        g.apply(1, &Action::KeepTickets(offered[..2].to_vec()))
            .unwrap_err()
            .kind,
        Illegal::NotOffered
    );
    g.apply(1, &Action::KeepTickets(dealt1.clone())).unwrap();
    assert_eq!(g.players[1].tickets, dealt1);
    assert_eq!(g.offer(1), None);
    assert!(g.in_setup());
    assert_eq!(g.current(), 0, "player 0 is still choosing");
    let again = g.apply(1, &Action::DrawDeck).unwrap_err();
    assert_eq!(again.kind, Illegal::NotYourTurn, "{again}");
    finish_setup(&mut g);
    assert!(!g.in_setup());
    assert_eq!(g.current(), 0);
    assert_eq!(
        g.tickets_left(),
        30 - 9 + 2,
        "returned tickets go back under the deck"
    );
    assert_eq!(g.players[1].tickets.len(), 3);
    assert!([0, 2].iter().all(|&p| g.players[p].tickets.len() == 2));
}

#[test]
fn three_face_up_locomotives_are_replaced() {
    let b = common::usa();
    // Dealing takes 4 cards per player (2 players: 8), then 5 face up:
    // three locomotives among them force a new row.
    let mut top = vec![Card::Train(Colour::Red); 8];
    top.extend([
        Card::Locomotive,
        Card::Train(Colour::Blue),
        Card::Locomotive,
        Card::Locomotive,
        Card::Train(Colour::Green),
    ]);
    let g = Game::with_decks(&b, 2, deck(&top), tickets(&b), rng()).unwrap();
    assert_eq!(g.reshuffles, 1);
    assert_eq!(g.discard_len(), 5, "the whole row is discarded");
    let locos = g
        .face_up()
        .iter()
        .filter(|&&c| c == Card::Locomotive)
        .count();
    assert!(locos < 3);
    assert_eq!(g.face_up().len(), 5);
}

#[test]
fn a_face_up_locomotive_is_the_whole_draw_and_never_the_second_card() {
    let b = common::usa();
    let mut top = vec![Card::Train(Colour::Red); 8];
    top.extend([
        Card::Locomotive,
        Card::Train(Colour::Blue),
        Card::Train(Colour::Blue),
        Card::Train(Colour::Blue),
        Card::Train(Colour::Blue),
        Card::Locomotive, // the first refill
    ]);
    let mut g = Game::with_decks(&b, 2, deck(&top), tickets(&b), rng()).unwrap();
    finish_setup(&mut g);
    assert_eq!(g.face_up()[0], Card::Locomotive);
    g.apply(0, &Action::DrawFaceUp(0)).unwrap();
    assert_eq!(g.current(), 1, "the locomotive ended player 0's turn");
    assert_eq!(g.players[0].hand[8], 1);
    // Player 1 takes a blue card, then may not take the refilled locomotive.
    g.apply(1, &Action::DrawFaceUp(0)).unwrap();
    assert_eq!(g.expect(), &Expect::SecondCard);
    let at = g
        .face_up()
        .iter()
        .position(|&c| c == Card::Locomotive)
        .unwrap();
    let err = g.apply(1, &Action::DrawFaceUp(at)).unwrap_err();
    assert!(err.message.contains("second card"), "{err}");
    g.apply(1, &Action::DrawDeck).unwrap();
    assert_eq!(g.current(), 0);
}

#[test]
fn an_empty_deck_is_refilled_from_the_discard_pile() {
    let b = common::usa();
    // Exactly the cards to deal and show, plus two: then the deck is empty.
    let mut top = vec![Card::Train(Colour::Red); 8];
    top.extend([Card::Train(Colour::Blue); 5]);
    top.extend([Card::Train(Colour::Black); 2]);
    let d: Vec<Card> = top.iter().rev().copied().collect();
    let mut g = Game::with_decks(&b, 2, d, tickets(&b), rng()).unwrap();
    finish_setup(&mut g);
    g.apply(0, &Action::DrawDeck).unwrap();
    g.apply(0, &Action::DrawDeck).unwrap();
    assert_eq!(g.deck_len(), 0);
    // Player 1 pays for a route: the cards go to the discard pile.
    let red = g.players[1].hand[Card::Train(Colour::Red).index()];
    assert_eq!(red, 4);
    let claim = Action::Claim {
        route: route(&b, "Denver", "Oklahoma City"),
        track: 0,
        colour: Colour::Red,
        locomotives: 0,
    };
    g.apply(1, &claim).unwrap();
    assert_eq!(g.discard_len(), 4);
    // Drawing now reshuffles the discard pile into the deck.
    g.apply(0, &Action::DrawDeck).unwrap();
    assert_eq!(g.players[0].hand[Card::Train(Colour::Red).index()], 4 + 1);
    assert_eq!(g.deck_len() + g.discard_len(), 3);
    // With nothing left at all, drawing is refused with the reason.
    g.apply(0, &Action::DrawDeck).unwrap();
    g.apply(1, &Action::DrawDeck).unwrap();
    g.apply(1, &Action::DrawDeck).unwrap();
    assert_eq!(g.deck_len() + g.discard_len(), 0);
    let err = g.apply(0, &Action::DrawDeck).unwrap_err();
    assert!(err.message.contains("no train cards left"), "{err}");
}

/// A game where every player holds plenty of every card.
fn rich(b: &Board, players: usize) -> Game<'_> {
    let mut g = Game::with_decks(b, players, deck(&[]), tickets(b), rng()).unwrap();
    finish_setup(&mut g);
    for p in &mut g.players {
        p.hand = [20; 9];
    }
    g
}

fn claim(b: &Board, a: &str, c: &str, track: usize, colour: Colour) -> Action {
    Action::Claim {
        route: route(b, a, c),
        track,
        colour,
        locomotives: 0,
    }
}

#[test]
fn double_routes_with_two_and_with_four_players() {
    let b = common::usa();
    // 2 players: once one track of Denver – Kansas City is taken, the route is closed.
    let mut g = rich(&b, 2);
    g.apply(0, &claim(&b, "Denver", "Kansas City", 0, Colour::Black))
        .unwrap();
    let err = g
        .apply(1, &claim(&b, "Denver", "Kansas City", 1, Colour::Orange))
        .unwrap_err();
    assert!(
        err.message.contains("with 2 players only one track"),
        "{err}"
    );
    // 4 players: the second track is open to the others, not to the first player.
    let mut g = rich(&b, 4);
    g.apply(0, &claim(&b, "Denver", "Kansas City", 0, Colour::Black))
        .unwrap();
    let again = g
        .apply(1, &claim(&b, "Denver", "Kansas City", 0, Colour::Black))
        .unwrap_err();
    assert!(again.message.contains("already claimed"), "{again}");
    g.apply(1, &claim(&b, "Denver", "Kansas City", 1, Colour::Orange))
        .unwrap();
    g.apply(2, &claim(&b, "Seattle", "Portland", 0, Colour::Red))
        .unwrap();
    g.apply(3, &Action::DrawDeck).unwrap();
    g.apply(3, &Action::DrawDeck).unwrap();
    let own = g.apply(0, &claim(&b, "Seattle", "Portland", 1, Colour::Red));
    assert!(own.is_ok(), "another player's double route: {own:?}");
    let mut g = rich(&b, 4);
    g.apply(0, &claim(&b, "Seattle", "Portland", 0, Colour::Red))
        .unwrap();
    for p in 1..4 {
        g.apply(p, &Action::DrawDeck).unwrap();
        g.apply(p, &Action::DrawDeck).unwrap();
    }
    let err = g
        .apply(0, &claim(&b, "Seattle", "Portland", 1, Colour::Red))
        .unwrap_err();
    assert!(
        err.message.contains("only one track of a double route"),
        "{err}"
    );
}

#[test]
fn paying_for_routes() {
    let b = common::usa();
    let mut g = Game::with_decks(&b, 2, deck(&[]), tickets(&b), rng()).unwrap();
    finish_setup(&mut g);
    g.players[0].hand = [0; 9];
    g.players[0].hand[Card::Train(Colour::Blue).index()] = 2;
    g.players[0].hand[8] = 1;
    let miami = route(&b, "Atlanta", "Miami"); // 5, blue
    let pay = |colour, locomotives| Action::Claim {
        route: miami,
        track: 0,
        colour,
        locomotives,
    };
    assert!(g
        .apply(0, &pay(Colour::Blue, 0))
        .unwrap_err()
        .message
        .contains("not enough blue"));
    assert!(g
        .apply(0, &pay(Colour::Red, 5))
        .unwrap_err()
        .message
        .contains("not enough locomotives"));
    assert!(g
        .apply(0, &pay(Colour::Red, 0))
        .unwrap_err()
        .message
        .contains("cannot be paid with red"));
    // A gray route takes any one colour, with locomotives for the rest.
    let gray = Action::Claim {
        route: route(&b, "Los Angeles", "Phoenix"),
        track: 0,
        colour: Colour::Blue,
        locomotives: 1,
    };
    g.apply(0, &gray).unwrap();
    assert_eq!(g.players[0].hand, [0; 9]);
    assert_eq!(g.players[0].cars, 42);
    assert_eq!(g.players[0].route_points, 4);
    assert_eq!(g.discard_len(), 3);
    // Ticket choices: at least one kept later in the game, the rest under the deck.
    g.apply(1, &Action::DrawTickets).unwrap();
    let Expect::Tickets { offered, min } = g.expect().clone() else {
        panic!()
    };
    assert_eq!(min, 1);
    assert!(g.apply(1, &Action::KeepTickets(vec![])).is_err());
    let before = g.tickets_left();
    g.apply(1, &Action::KeepTickets(vec![offered[2]])).unwrap();
    assert_eq!(g.tickets_left(), before + 2);
    assert_eq!(g.players[1].tickets.len(), 3);
}

/// The engine's list of payments is exactly what it accepts: every colour
/// and locomotive count, on every track, for a few hands.
#[test]
fn every_way_to_pay_is_listed_and_nothing_else_is_accepted() {
    let b = common::usa();
    let mut g = Game::with_decks(&b, 2, deck(&[]), tickets(&b), rng()).unwrap();
    finish_setup(&mut g);
    g.players[0].hand = [0; 9];
    g.players[0].hand[Card::Train(Colour::Blue).index()] = 2;
    g.players[0].hand[Card::Train(Colour::Red).index()] = 1;
    g.players[0].hand[8] = 3;
    let pay = |colour, min_locomotives, max_locomotives| Payment {
        colour,
        min_locomotives,
        max_locomotives,
    };
    // Atlanta – Miami: 5, blue.
    let miami = route(&b, "Atlanta", "Miami");
    assert_eq!(g.payments(0, miami, 0), [pay(Some(Colour::Blue), 3, 3)]);
    // Los Angeles – Phoenix: 3, gray.
    let gray = route(&b, "Los Angeles", "Phoenix");
    assert_eq!(
        g.payments(0, gray, 0),
        [
            pay(Some(Colour::Red), 2, 2),
            pay(Some(Colour::Blue), 1, 2),
            pay(None, 3, 3)
        ]
    );
    for hand in [
        [2, 0, 1, 3, 0, 5, 1, 0, 2],
        [0, 0, 0, 0, 0, 0, 0, 0, 6],
        [1, 1, 1, 1, 1, 1, 1, 1, 0],
        [6, 0, 0, 0, 4, 0, 0, 0, 1],
    ] {
        g.players[0].hand = hand;
        for r in b.route_ids() {
            let length = b.route(r).length;
            for track in 0..b.route(r).tracks.len() {
                let payments = g.payments(0, r, track);
                for colour in COLOURS {
                    for locomotives in 0..=length {
                        let listed = payments.iter().any(|p| {
                            (p.colour == Some(colour) || p.colour.is_none())
                                && (p.min_locomotives..=p.max_locomotives).contains(&locomotives)
                        });
                        let action = Action::Claim {
                            route: r,
                            track,
                            colour,
                            locomotives,
                        };
                        let accepted = g.clone().apply(0, &action).is_ok();
                        assert_eq!(listed, accepted, "{hand:?} {action:?}: {payments:?}");
                    }
                }
                // The claims listed: per colour, the fewest locomotives.
                for claim in g
                    .claims_of(0, r)
                    .iter()
                    .filter(|a| matches!(a, Action::Claim { track: t, .. } if *t == track))
                {
                    let Action::Claim {
                        colour,
                        locomotives,
                        ..
                    } = claim
                    else {
                        unreachable!()
                    };
                    let fewest = payments
                        .iter()
                        .find(|p| p.colour == Some(*colour))
                        .map_or(length, |p| p.min_locomotives);
                    assert_eq!(*locomotives, fewest, "{hand:?} {claim:?}");
                }
            }
        }
    }
}

#[test]
fn the_last_round_gives_every_player_one_more_turn() {
    let b = common::usa();
    let mut g = rich(&b, 3);
    g.players[1].cars = 6;
    // Player 0 draws; player 1 drops to 2 cars with a length-4 route.
    g.apply(0, &Action::DrawDeck).unwrap();
    g.apply(0, &Action::DrawDeck).unwrap();
    g.apply(1, &claim(&b, "Denver", "Oklahoma City", 0, Colour::Red))
        .unwrap();
    assert!(g.in_last_round());
    // Players 2, 0 and 1 each have one more turn, then it is over.
    for p in [2, 0, 1] {
        assert!(!g.is_over());
        assert_eq!(g.current(), p);
        g.apply(p, &Action::DrawDeck).unwrap();
        g.apply(p, &Action::DrawDeck).unwrap();
    }
    assert!(g.is_over());
    assert!(g
        .apply(2, &Action::DrawDeck)
        .unwrap_err()
        .message
        .contains("over"));
    assert_eq!(
        g.players.iter().map(|p| p.turns).collect::<Vec<_>>(),
        vec![2, 2, 1]
    );
}

#[test]
fn final_scoring_counts_tickets_both_ways_and_the_longest_path() {
    let b = common::usa();
    let mut g = rich(&b, 2);
    g.players[0].tickets = vec![b
        .ticket_ids()
        .find(|&t| b.ticket_label(t) == "Denver – El Paso")
        .unwrap()];
    g.players[1].tickets = vec![b
        .ticket_ids()
        .find(|&t| b.ticket_label(t) == "Boston – Miami")
        .unwrap()];
    g.apply(0, &claim(&b, "Denver", "Santa Fe", 0, Colour::Red))
        .unwrap();
    g.apply(1, &claim(&b, "Boston", "Montreal", 0, Colour::Red))
        .unwrap();
    g.apply(0, &claim(&b, "Santa Fe", "El Paso", 0, Colour::Red))
        .unwrap();
    let r = g.results();
    // Player 0: 2 + 2 route points, Denver – El Paso (4) done, path of 4: bonus.
    assert_eq!(
        (
            r[0].route_points,
            r[0].ticket_points,
            r[0].longest_path,
            r[0].bonus
        ),
        (4, 4, 4, 10)
    );
    assert_eq!(r[0].score, 18);
    // Player 1: 2 route points, Boston – Miami (12) failed, no bonus.
    assert_eq!((r[1].ticket_points, r[1].bonus, r[1].score), (-12, 0, -10));
}

#[test]
fn longest_path_is_a_trail() {
    let b = common::usa();
    // A triangle with a tail: every route once, a city may repeat.
    let routes = [
        route(&b, "Seattle", "Portland"),
        route(&b, "Portland", "Salt Lake City"),
        route(&b, "Seattle", "Helena"),
        route(&b, "Helena", "Salt Lake City"),
        route(&b, "Salt Lake City", "Denver"),
    ];
    // 1 + 6 + 6 + 3 + 3 = 19: around the loop, then to Denver.
    assert_eq!(longest_path(&b, &routes), 19);
    assert_eq!(longest_path(&b, &[]), 0);
}

#[test]
fn a_seed_replays_the_same_game() {
    let b = common::usa();
    let a = play(&b, &["greedy", "random", "greedy"], 0, 99).unwrap();
    let c = play(&b, &["greedy", "random", "greedy"], 0, 99).unwrap();
    let key = |p: &ttr_opt::leagues::simulate::Played| {
        p.seats
            .iter()
            .map(|s| (s.score, s.turns, s.routes.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(&a), key(&c));
    assert_eq!(a.moves, c.moves);
    let other = play(&b, &["greedy", "random", "greedy"], 0, 100).unwrap();
    assert_ne!(key(&a), key(&other), "another seed, another game");
}

#[test]
fn thousands_of_random_games_never_panic() {
    let b = common::usa();
    let mut finished = 0;
    for g in 0..2000u64 {
        let n = 2 + (g % 4) as usize;
        let names: Vec<&str> = (0..n)
            .map(|i| {
                if (g + i as u64).is_multiple_of(3) {
                    "greedy"
                } else {
                    "random"
                }
            })
            .collect();
        let p = play(&b, &names, g, g).unwrap_or_else(|e| panic!("game {g}: {e}"));
        for s in &p.seats {
            assert!(s.cars_used <= 45);
            assert!(s.network_score <= 285, "game {g}: {s:?}");
        }
        if !p.stalled {
            finished += 1;
        }
    }
    assert!(finished > 1900, "only {finished} of 2000 games finished");
}
