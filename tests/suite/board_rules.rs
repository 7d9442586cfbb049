//! Every board's own rules in the engine: tunnels (tCHu's worked
//! example, giving up, locomotives alone), ferries, stations, the deal and
//! the longest-path bonus as the board says; and whole games on Europe and
//! Switzerland that never panic, never stall and lose no card.

use crate::common;

use std::collections::VecDeque;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use ttr_opt::board::{Board, CityId, Colour, RouteId, TicketId};
use ttr_opt::engine::cards::{Card, Hand, COLOURS};
use ttr_opt::engine::event::{Happened, Next, Paid};
use ttr_opt::engine::rules::{Action, Expect, Game, Illegal};
use ttr_opt::leagues::simulate::play;

const G: Card = Card::Train(Colour::Green);
const L: Card = Card::Locomotive;

/// A small board: a green tunnel A–B of 1, a gray ferry B–C of 2 needing
/// one locomotive, a red C–D of 2 and a blue A–D of 3; stations as
/// `stations` says (`null` for none).
fn board(rules: &str) -> Board {
    let text = format!(
        r#"{{ "name": "rules", "cars": 20, "route_points": {{ "1": 1, "2": 2, "3": 4 }},
        "cities": [ {{ "name": "A", "x": 0, "y": 0 }}, {{ "name": "B", "x": 1, "y": 0 }},
                    {{ "name": "C", "x": 2, "y": 0 }}, {{ "name": "D", "x": 3, "y": 0 }} ],
        "routes": [ {{ "from": "A", "to": "B", "length": 1, "tracks": ["green"], "tunnel": true }},
                    {{ "from": "B", "to": "C", "length": 2, "tracks": ["gray"], "ferry": 1 }},
                    {{ "from": "C", "to": "D", "length": 2, "tracks": ["red"] }},
                    {{ "from": "A", "to": "D", "length": 3, "tracks": ["blue"] }} ],
        "tickets": [ {{ "from": "A", "to": "C", "points": 9 }}, {{ "from": "B", "to": "D", "points": 6 }},
                     {{ "from": "A", "to": "B", "points": 2 }}, {{ "from": "C", "to": "D", "points": 3 }},
                     {{ "from": "A", "to": "D", "points": 4 }}, {{ "from": "B", "to": "C", "points": 5 }} ],
        "rules": {rules} }}"#
    );
    Board::from_json(&text, "rules.json").unwrap()
}

/// A two-player game whose deck gives, after the deal (4 cards each, 5
/// face up, all red), the cards `next` in order; every player keeps the
/// first two tickets dealt.
fn game<'b>(b: &'b Board, next: &[Card]) -> Game<'b> {
    let mut deck: Vec<Card> = (0..40).map(|i| Card::Train(COLOURS[i % 8])).collect();
    deck.extend(next.iter().rev());
    deck.extend(std::iter::repeat_n(Card::Train(Colour::Red), 13));
    let tickets: VecDeque<TicketId> = b.ticket_ids().collect();
    let mut g = Game::with_decks(b, 2, deck, tickets, ChaCha8Rng::seed_from_u64(3)).unwrap();
    while let Some((offered, min)) = g.offer(g.current()) {
        let p = g.current();
        g.apply(p, &Action::KeepTickets(offered[..min].to_vec()))
            .unwrap();
    }
    g
}

fn hand(cards: &[(Card, u32)]) -> Hand {
    let mut h = [0; 9];
    for &(c, n) in cards {
        h[c.index()] += n;
    }
    h
}

fn claim(route: usize, colour: Colour, locomotives: u32) -> Action {
    Action::Claim {
        route: RouteId(route),
        track: 0,
        colour,
        locomotives,
    }
}

/// Every card of the game: deck, discard, face-up row, hands and a
/// tunnel's turned cards.
fn cards_in_play(g: &Game) -> usize {
    let turned = match g.expect() {
        Expect::Tunnel(t) => t.turned.len(),
        _ => 0,
    };
    g.deck_len()
        + g.discard_len()
        + g.face_up().len()
        + g.players.iter().map(|p| p.cards() as usize).sum::<usize>()
        + turned
}

#[test]
fn seed_004s_tunnel_example_offers_its_three_payments_in_order() {
    // Three green, two blue, two locomotives; the green tunnel of 1 paid
    // with one green; the cards turned ask for two more (a green and a
    // locomotive; the red asks nothing).
    let b = board("{}");
    let mut g = game(&b, &[G, L, Card::Train(Colour::Red)]);
    g.players[0].hand = hand(&[(G, 3), (Card::Train(Colour::Blue), 2), (L, 2)]);
    let e = g.apply(0, &claim(0, Colour::Green, 0)).unwrap();
    let Happened::TunnelDrawn(t) = &e.happened else {
        panic!("{e:?}")
    };
    assert_eq!(t.required, 2);
    assert_eq!(t.turned, vec![G, L, Card::Train(Colour::Red)]);
    assert_eq!(e.next, Next::Again);
    let green = |n| Some((Colour::Green, n));
    assert_eq!(
        g.tunnel_options(),
        vec![
            Paid {
                cards: green(2),
                locomotives: 0
            },
            Paid {
                cards: green(1),
                locomotives: 1
            },
            Paid {
                cards: None,
                locomotives: 2
            },
        ]
    );
    // The same as the library's tCHu function.
    let options =
        ttr_opt::engine::tunnel::possible_additional_cards(&g.players[0].hand, &hand(&[(G, 1)]), 2)
            .unwrap();
    assert_eq!(
        options,
        vec![hand(&[(G, 2)]), hand(&[(G, 1), (L, 1)]), hand(&[(L, 2)])]
    );
    // Nothing else may be done meanwhile.
    let refused = g.apply(0, &Action::DrawDeck).unwrap_err();
    assert_eq!(refused.kind, Illegal::Tunnel);
    assert_eq!(
        g.apply(0, &Action::PayTunnel { locomotives: 3 })
            .unwrap_err()
            .kind,
        Illegal::Tunnel
    );
    // One green and one locomotive more: three cards paid in all.
    let discard = g.discard_len();
    let e = g.apply(0, &Action::PayTunnel { locomotives: 1 }).unwrap();
    let Happened::Claimed(c) = &e.happened else {
        panic!("{e:?}")
    };
    assert_eq!(
        c.paid,
        Paid {
            cards: green(2),
            locomotives: 1
        }
    );
    assert_eq!(c.turned.len(), 3);
    assert_eq!(g.discard_len(), discard + 3 + 3);
    assert_eq!(
        g.players[0].hand,
        hand(&[(G, 1), (Card::Train(Colour::Blue), 2), (L, 1)])
    );
    assert_eq!(g.owner(RouteId(0), 0), Some(0));
    assert!(e.ends_turn());
}

#[test]
fn a_tunnel_given_up_keeps_the_cards_and_spends_the_turn() {
    let b = board("{}");
    let mut g = game(&b, &[L, Card::Train(Colour::Red), Card::Train(Colour::Red)]);
    g.players[0].hand = hand(&[(G, 2)]);
    let before = cards_in_play(&g);
    let e = g.apply(0, &claim(0, Colour::Green, 0)).unwrap();
    assert!(matches!(e.happened, Happened::TunnelDrawn(_)), "{e:?}");
    assert_eq!(cards_in_play(&g), before);
    let e = g.apply(0, &Action::GiveUpTunnel).unwrap();
    assert!(matches!(e.happened, Happened::TunnelGivenUp(_)), "{e:?}");
    assert_eq!(e.turn_begins(), Some(1));
    assert_eq!(g.players[0].hand, hand(&[(G, 2)]));
    assert_eq!(g.owner(RouteId(0), 0), None);
    assert_eq!(cards_in_play(&g), before);
    // A hand that cannot pay gives up at once: one green, two asked for.
    let mut g = game(&b, &[G, G, Card::Train(Colour::Red)]);
    g.players[0].hand = hand(&[(G, 2)]);
    let e = g.apply(0, &claim(0, Colour::Green, 0)).unwrap();
    let Happened::TunnelGivenUp(t) = &e.happened else {
        panic!("{e:?}")
    };
    assert_eq!(t.required, 2);
    assert_eq!(e.turn_begins(), Some(1));
    // Turned cards that ask nothing: the tunnel is claimed at once.
    let mut g = game(&b, &[Card::Train(Colour::Red); 3]);
    g.players[0].hand = hand(&[(G, 1)]);
    let e = g.apply(0, &claim(0, Colour::Green, 0)).unwrap();
    let Happened::Claimed(c) = &e.happened else {
        panic!("{e:?}")
    };
    assert_eq!(c.turned.len(), 3);
    assert_eq!(g.owner(RouteId(0), 0), Some(0));
}

#[test]
fn a_tunnel_paid_with_locomotives_alone_counts_only_locomotives() {
    let b = board("{}");
    let mut g = game(&b, &[G, G, L]);
    g.players[0].hand = hand(&[(G, 5), (L, 2)]);
    let e = g.apply(0, &claim(0, Colour::Green, 1)).unwrap();
    let Happened::TunnelDrawn(t) = &e.happened else {
        panic!("{e:?}")
    };
    assert_eq!(t.required, 1, "the greens count nothing");
    assert_eq!(
        g.tunnel_options(),
        vec![Paid {
            cards: None,
            locomotives: 1
        }]
    );
    assert_eq!(
        g.apply(0, &Action::PayTunnel { locomotives: 0 })
            .unwrap_err()
            .kind,
        Illegal::Tunnel
    );
    g.apply(0, &Action::PayTunnel { locomotives: 1 }).unwrap();
    assert_eq!(g.players[0].hand, hand(&[(G, 5)]));
}

#[test]
fn a_ferry_needs_its_locomotives() {
    let b = board("{}");
    let mut g = game(&b, &[]);
    g.players[0].hand = hand(&[(Card::Train(Colour::Blue), 3), (L, 1)]);
    let payments = g.payments(0, RouteId(1), 0);
    assert!(payments
        .iter()
        .all(|p| p.min_locomotives >= 1 && p.colour != Some(Colour::Red)));
    let refused = g.apply(0, &claim(1, Colour::Blue, 0)).unwrap_err();
    assert_eq!(refused.kind, Illegal::Cards);
    assert!(refused.message.contains("ferry"), "{refused}");
    g.apply(0, &claim(1, Colour::Blue, 1)).unwrap();
    assert_eq!(g.players[0].hand, hand(&[(Card::Train(Colour::Blue), 2)]));
    // No locomotive, no ferry.
    let mut g = game(&b, &[]);
    g.players[0].hand = hand(&[(Card::Train(Colour::Blue), 3)]);
    assert!(g.payments(0, RouteId(1), 0).is_empty());
}

#[test]
fn stations_cost_more_each_time_and_borrow_the_best_route_at_the_end() {
    let b =
        board(r#"{ "stations": { "costs": [1, 2, 3], "points": 4 }, "longest_path_bonus": 7 }"#);
    let mut g = game(&b, &[]);
    // Player 1 claims C–D; player 0, holding A–C (9) and B–D (6), claims
    // A–D and builds a station in C: borrowing C–D completes A–C.
    g.players[1].hand = hand(&[(Card::Train(Colour::Red), 2)]);
    g.players[0].hand = hand(&[(Card::Train(Colour::Blue), 6), (L, 3)]);
    let e = g.apply(0, &claim(3, Colour::Blue, 0)).unwrap();
    assert!(e.ends_turn());
    g.apply(1, &claim(2, Colour::Red, 0)).unwrap();
    assert_eq!(g.station_cost(0, CityId(2)).unwrap(), 1);
    let e = g
        .apply(
            0,
            &Action::BuildStation {
                city: CityId(2),
                colour: Colour::Blue,
                locomotives: 0,
            },
        )
        .unwrap();
    assert!(matches!(
        e.happened,
        Happened::StationBuilt {
            city: CityId(2),
            ..
        }
    ));
    assert_eq!(g.station_owner(CityId(2)), Some(0));
    assert_eq!(g.borrowed(0), vec![RouteId(2)]);
    // The city is taken for player 1; a second station costs 2.
    g.players[1].hand = hand(&[(G, 5)]);
    let refused = g
        .apply(
            1,
            &Action::BuildStation {
                city: CityId(2),
                colour: Colour::Green,
                locomotives: 0,
            },
        )
        .unwrap_err();
    assert_eq!(refused.kind, Illegal::Station);
    assert_eq!(g.station_payments(1)[0].min_locomotives, 0);
    g.apply(
        1,
        &Action::BuildStation {
            city: CityId(1),
            colour: Colour::Green,
            locomotives: 0,
        },
    )
    .unwrap();
    assert_eq!(g.station_cost(0, CityId(3)).unwrap(), 2);
    g.players[0].hand = hand(&[(Card::Train(Colour::Blue), 1)]);
    let refused = g
        .apply(
            0,
            &Action::BuildStation {
                city: CityId(3),
                colour: Colour::Blue,
                locomotives: 0,
            },
        )
        .unwrap_err();
    assert_eq!(
        refused.kind,
        Illegal::Cards,
        "the second station costs 2 cards"
    );
    let r = g.results();
    let tickets: Vec<u32> = g.players[0]
        .tickets
        .iter()
        .map(|&t| b.ticket(t).points)
        .collect();
    assert_eq!(tickets, vec![9, 6]);
    // A–C completed over A–D and the borrowed C–D: 9; B–D failed: -6.
    assert_eq!(r[0].ticket_points, 9 - 6);
    assert_eq!(r[0].borrowed, vec![RouteId(2)]);
    assert_eq!(r[0].station_points, 2 * 4);
    // Longest path: A–D (3) beats C–D (2); the board's bonus is 7.
    assert_eq!((r[0].bonus, r[1].bonus), (7, 0));
    assert_eq!(r[0].score, 4 + 3 + 7 + 8);
    // Player 1's station in B borrows nothing that helps (no route of
    // player 0 into B).
    assert!(r[1].borrowed.is_empty());
    assert_eq!(r[1].station_points, 2 * 4);
    // A board without stations refuses one.
    let plain = board("{}");
    let mut g = game(&plain, &[]);
    let refused = g
        .apply(
            0,
            &Action::BuildStation {
                city: CityId(0),
                colour: Colour::Red,
                locomotives: 0,
            },
        )
        .unwrap_err();
    assert_eq!(refused.kind, Illegal::Station);
}

#[test]
fn the_deal_is_the_boards() {
    // Europe: one long ticket beside three regular ones, keep 2; the long
    // ones not kept leave the game.
    let europe = common::shipped("europe.json");
    let mut g = Game::new(&europe, 3, 5).unwrap();
    let is_long = |t: TicketId| europe.cards[europe.ticket(t).card].long;
    let regular = europe.cards.iter().filter(|c| !c.long).count();
    for p in 0..3 {
        let (offered, min) = g.offer(p).unwrap();
        assert_eq!((offered.len(), min), (4, 2));
        assert_eq!(offered.iter().filter(|&&t| is_long(t)).count(), 1);
    }
    assert_eq!(g.tickets_left(), regular - 9);
    for p in 0..3 {
        let (offered, _) = g.offer(p).unwrap();
        let regular: Vec<TicketId> = offered.iter().copied().filter(|&t| !is_long(t)).collect();
        g.apply(p, &Action::KeepTickets(regular[..2].to_vec()))
            .unwrap();
    }
    // The regular ones returned are back under the deck; the long ones gone.
    assert_eq!(g.tickets_left(), regular - 9 + 3);
    assert_eq!(g.expect(), &Expect::Turn);
    // tCHu: five tickets, keep three; keeping two is refused.
    let swiss = common::shipped("switzerland.json");
    let mut g = Game::new(&swiss, 2, 5).unwrap();
    let (offered, min) = g.offer(0).unwrap();
    assert_eq!((offered.len(), min), (5, 3));
    let two = offered[..2].to_vec();
    assert_eq!(
        g.apply(0, &Action::KeepTickets(two)).unwrap_err().kind,
        Illegal::KeepMore
    );
}

/// Whole games with every strategy on the boards with their own rules: no
/// panic, no stall, no card lost, every move's events consistent.
#[test]
fn whole_games_on_europe_and_switzerland_never_stall_and_lose_no_card() {
    for file in ["europe.json", "switzerland.json"] {
        let b = common::shipped(file);
        for seed in 0..12u64 {
            let names: &[&str] = match seed % 3 {
                0 => &["random", "random", "random"],
                1 => &["greedy", "random"],
                _ => &["greedy", "greedy", "random", "greedy"],
            };
            let played = play(&b, names, seed, seed).unwrap();
            assert!(!played.stalled, "{file} game {seed} stalled");
            // The moves again, counting cards after each.
            let mut g = Game::new(&b, names.len(), seed).unwrap();
            for (seat, action) in &played.actions {
                g.apply(*seat, action).unwrap();
                assert_eq!(cards_in_play(&g), 110, "{file} game {seed}: {action:?}");
            }
            assert!(g.is_over());
            for (p, r) in g.results().iter().enumerate() {
                let stations = b.rules.stations.as_ref().map_or(0, |s| s.count());
                assert!(r.borrowed.len() <= g.players[p].stations.len());
                assert_eq!(
                    r.station_points as usize,
                    (stations - g.players[p].stations.len()) * 4 * (stations > 0) as usize
                );
            }
        }
    }
}
