//! The luck of the deal (`ttr-opt deals`): every hand's value against
//! exhaustive search on small boards, every keepable subset tried; a
//! sample is reproducible; the command's files and refusals.

use crate::common;

use ttr_opt::board::Board;
use ttr_opt::plans::deals::{deals, keep_state, DealOptions};

/// Six cities, ten routes, seven tickets: 35 hands of 3.
fn board(seed: u64) -> Board {
    let cities = common::SIX_CITIES;
    let routes = common::SIX_CITY_ROUTES;
    let pairs = [
        ("A", "C"),
        ("B", "D"),
        ("A", "E"),
        ("C", "F"),
        ("B", "F"),
        ("D", "A"),
        ("E", "C"),
    ];
    let tickets: Vec<_> = pairs
        .iter()
        .enumerate()
        .map(|(i, (a, b))| serde_json::json!({ "from": a, "to": b, "points": 2 + (seed + 3 * i as u64) % 9 }))
        .collect();
    let json = serde_json::json!({
        "name": "deal", "cars": 6,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
        "cities": cities.iter().enumerate().map(|(i, c)| serde_json::json!({ "name": c, "x": i, "y": i % 2 })).collect::<Vec<_>>(),
        "routes": routes.iter().map(|&(a, b, l)| serde_json::json!({ "from": a, "to": b, "length": l, "tracks": ["gray"] })).collect::<Vec<_>>(),
        "tickets": tickets,
    });
    Board::from_json(&json.to_string(), "deal").unwrap()
}

/// The best score of keeping exactly `kept` (card indexes), by exhaustive
/// search.
fn brute(board: &Board, cars: u32, kept: &[usize]) -> i64 {
    common::brute_best(board, &keep_state(board, cars, kept))
}

#[test]
fn every_hand_is_its_best_keepable_subset() {
    for seed in 1..=4u64 {
        let b = board(seed);
        // Hands of 4 value subsets in three sizes, each larger size against
        // the best of the smaller ones inside it.
        for (hand, keep) in [(3, 2), (3, 1), (2, 2), (4, 2), (4, 1)] {
            let options = DealOptions {
                cars: b.cars,
                long: 0,
                hand,
                keep,
                sample: None,
            };
            let r = deals(&b, &options, &|| {}).unwrap();
            assert!(r.all_proven);
            let n = b.cards.len();
            // Every hand, in deal order.
            let all: Vec<Vec<usize>> = (0u32..1 << n)
                .filter(|m| m.count_ones() as usize == hand)
                .map(|m| (0..n).filter(|&i| m >> i & 1 == 1).collect::<Vec<usize>>())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(r.hands.len(), all.len());
            assert_eq!(r.hands_possible, all.len().to_string());
            let name = |c: usize| b.cards[c].name.clone();
            for (row, h) in r.hands.iter().zip(&all) {
                assert_eq!(row.hand, h.iter().map(|&c| name(c)).collect::<Vec<_>>());
                // Every subset of at least `keep`, searched exhaustively.
                let mut best = i64::MIN;
                for mask in 1u32..1 << hand {
                    let kept: Vec<usize> = (0..hand)
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| h[i])
                        .collect();
                    if kept.len() >= keep {
                        best = best.max(brute(&b, b.cars, &kept));
                    }
                }
                assert_eq!(row.best, best, "seed {seed}, hand {:?}", row.hand);
                // The subset named scores it.
                let kept: Vec<usize> = row
                    .keep
                    .iter()
                    .map(|k| (0..n).find(|&c| &name(c) == k).unwrap())
                    .collect();
                assert!(kept.len() >= keep && kept.iter().all(|c| h.contains(c)));
                assert_eq!(brute(&b, b.cars, &kept), best);
            }
            // The distribution and the card values are over those hands.
            let mut values: Vec<i64> = r.hands.iter().map(|h| h.best).collect();
            values.sort();
            assert_eq!((r.min, r.max), (values[0], *values.last().unwrap()));
            for t in &r.tickets {
                let holding: Vec<i64> = r
                    .hands
                    .iter()
                    .filter(|h| h.hand.contains(&t.ticket))
                    .map(|h| h.best)
                    .collect();
                assert_eq!(t.hands, holding.len());
                let mean = holding.iter().sum::<i64>() as f64 / holding.len() as f64;
                assert!((t.mean_best - mean).abs() < 1e-9);
            }
            assert_eq!(r.best_hands[0].best, r.max);
            assert_eq!(r.worst_hands[0].best, r.min);
        }
    }
}

#[test]
fn a_sample_is_the_same_for_a_seed() {
    let b = board(2);
    let options = |seed| DealOptions {
        cars: 5,
        long: 0,
        hand: 3,
        keep: 2,
        sample: Some((12, seed)),
    };
    let one = deals(&b, &options(7), &|| {}).unwrap();
    let two = deals(&b, &options(7), &|| {}).unwrap();
    assert!(one.sampled && one.hands_valued == 12);
    let hands = |r: &ttr_opt::plans::deals::DealReport| {
        r.hands
            .iter()
            .map(|h| (h.hand.clone(), h.best))
            .collect::<Vec<_>>()
    };
    assert_eq!(hands(&one), hands(&two));
    // Each sampled hand is valued as in the full deal.
    let full = deals(
        &b,
        &DealOptions {
            sample: None,
            ..options(0)
        },
        &|| {},
    )
    .unwrap();
    for h in &one.hands {
        let same = full.hands.iter().find(|f| f.hand == h.hand).unwrap();
        assert_eq!(same.best, h.best);
    }
    assert_ne!(hands(&one), hands(&deals(&b, &options(8), &|| {}).unwrap()));
}

#[test]
fn the_deals_command_writes_its_files_and_refuses_bad_hands() {
    let dir = std::env::temp_dir().join(format!("ttr-opt-deals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let b = board(3);
    let file = dir.join("deal.json");
    // The board as a file: its JSON again.
    let text = serde_json::json!({
        "name": "deal", "cars": 6, "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
        "cities": b.cities.iter().map(|c| serde_json::json!({ "name": c.name, "x": c.x, "y": c.y })).collect::<Vec<_>>(),
        "routes": b.route_ids().map(|r| { let x = b.route(r); serde_json::json!({ "from": b.city(x.a).name, "to": b.city(x.b).name, "length": x.length, "tracks": ["gray"] }) }).collect::<Vec<_>>(),
        "tickets": b.ticket_ids().map(|t| { let x = b.ticket(t); serde_json::json!({ "from": b.city(x.a).name, "to": b.city(x.b).name, "points": x.points }) }).collect::<Vec<_>>(),
    });
    std::fs::write(&file, text.to_string()).unwrap();
    let out = common::ttr_opt_ok(&[
        "deals",
        "--board",
        file.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON");
    let here = deals(
        &b,
        &DealOptions {
            cars: 6,
            long: 0,
            hand: 3,
            keep: 2,
            sample: None,
        },
        &|| {},
    )
    .unwrap();
    assert_eq!(v["hands_valued"], 35);
    assert_eq!(v["max"], here.max);
    assert_eq!(v["median"], here.median);
    let csv = std::fs::read_to_string(dir.join("deals-3-2.csv")).unwrap();
    assert_eq!(csv.lines().count(), 36, "a header and a row a hand");
    assert!(csv.starts_with("hand,best,keep"));
    let tickets = std::fs::read_to_string(dir.join("deals-3-2-tickets.csv")).unwrap();
    assert_eq!(tickets.lines().count(), 1 + b.cards.len());
    // Bad hands: exit status 2 (a keep above the hand) or 1 (a hand above
    // the deck), with the reason.
    let out = common::ttr_opt(&[
        "deals",
        "--board",
        file.to_str().unwrap(),
        "--hand",
        "2",
        "--keep",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--keep 3 is above --hand 2"));
    let out = common::ttr_opt(&[
        "deals",
        "--board",
        file.to_str().unwrap(),
        "--hand",
        "8",
        "--keep",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most the deck's 7"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_deal_valued_in_chunks_and_merged_is_the_deal_valued_at_once() {
    use ttr_opt::plans::deals::{deal_hands, deal_report, value_hands};
    let b = board(4);
    let options = DealOptions {
        cars: 6,
        long: 0,
        hand: 3,
        keep: 2,
        sample: None,
    };
    let whole = deals(&b, &options, &|| {}).unwrap();
    let hands = deal_hands(&b, &options).unwrap();
    assert_eq!(hands.len(), 35);
    for chunk in [1, 4, 35] {
        let values: Vec<_> = hands
            .chunks(chunk)
            .flat_map(|c| value_hands(&b, &options, c, &|| {}).unwrap())
            .collect();
        let merged = deal_report(&b, &options, &hands, &values, 0.0);
        let strip = |r: &ttr_opt::plans::deals::DealReport| {
            let mut v = serde_json::to_value(r).unwrap();
            v["seconds"] = serde_json::Value::Null;
            (v, serde_json::to_value(&r.hands).unwrap())
        };
        assert_eq!(strip(&merged), strip(&whole), "chunks of {chunk}");
    }
}

#[test]
fn a_hand_with_long_tickets_takes_them_from_their_own_deck() {
    // The six-city board with its first two tickets marked as long ones.
    let b = board(5);
    let mut json: serde_json::Value = serde_json::json!({
        "name": "deal", "cars": 6,
        "route_points": { "1": 1, "2": 2, "3": 4, "4": 7 },
        "cities": common::SIX_CITIES.iter().enumerate().map(|(i, c)| serde_json::json!({ "name": c, "x": i, "y": i % 2 })).collect::<Vec<_>>(),
        "routes": common::SIX_CITY_ROUTES.iter().map(|&(a, x, l)| serde_json::json!({ "from": a, "to": x, "length": l, "tracks": ["gray"] })).collect::<Vec<_>>(),
        "tickets": b.cards.iter().map(|c| {
            let t = b.ticket(c.trips[0]);
            serde_json::json!({ "from": b.cities[t.a.0].name, "to": b.cities[t.b.0].name, "points": t.points })
        }).collect::<Vec<_>>(),
    });
    json["tickets"][0]["long"] = true.into();
    json["tickets"][1]["long"] = true.into();
    let b = Board::from_json(&json.to_string(), "long").unwrap();
    assert_eq!(
        b.cards.iter().map(|c| c.long).collect::<Vec<_>>(),
        [true, true, false, false, false, false, false]
    );
    let options = DealOptions {
        cars: 6,
        hand: 3,
        long: 1,
        keep: 2,
        sample: None,
    };
    let r = deals(&b, &options, &|| {}).unwrap();
    // One of the 2 long cards and two of the 5 others: 2 x 10 hands.
    assert_eq!((r.hands.len(), r.hands_possible.as_str()), (20, "20"));
    let long = |name: &String| b.cards.iter().any(|c| c.long && &c.name == name);
    for h in &r.hands {
        assert_eq!(h.hand.iter().filter(|n| long(n)).count(), 1, "{:?}", h.hand);
        let cards: Vec<usize> = h
            .hand
            .iter()
            .map(|n| b.cards.iter().position(|c| &c.name == n).unwrap())
            .collect();
        // The best keepable subset, exhaustively.
        let best = [
            vec![cards[0], cards[1]],
            vec![cards[0], cards[2]],
            vec![cards[1], cards[2]],
            cards.clone(),
        ]
        .iter()
        .map(|k| brute(&b, 6, k))
        .max()
        .unwrap();
        assert_eq!(h.best, best);
    }
    // A sample draws from the two decks too; a hand asking for more long
    // cards than the deck has is refused, naming the field.
    let sampled = deals(
        &b,
        &DealOptions {
            sample: Some((15, 3)),
            ..options.clone()
        },
        &|| {},
    )
    .unwrap();
    assert!(sampled
        .hands
        .iter()
        .all(|h| h.hand.iter().filter(|n| long(n)).count() == 1));
    let err = deals(&b, &DealOptions { long: 3, ..options }, &|| {}).unwrap_err();
    assert!(err.to_string().contains("\"long\": true"), "{err}");
}

#[test]
fn the_balance_report_samples_the_deal_and_values_each_card() {
    use ttr_opt::analysis::balance::{balance, deal_sample};
    let b = board(2);
    let (report, _) = balance(
        &b,
        6,
        &ttr_opt::analysis::balance::BalanceOptions::threads(2),
    )
    .unwrap();
    let deal = report.deal.as_ref().expect("a deck of 7 deals hands of 3");
    // As the rules deal: 3 cards keeping 2, 1,200 subset solves' worth of
    // seeded hands (4 keepable subsets a hand), the same as `deals` gives.
    let options = deal_sample(&b, 6);
    assert_eq!((options.hand, options.keep, options.long), (3, 2, 0));
    assert_eq!(options.sample, Some((300, 1)));
    let again = deals(&b, &options, &|| {}).unwrap();
    assert_eq!(deal.best_hands[0].best, again.max);
    assert_eq!((deal.median, deal.hands_valued), (again.median, 300));
    // Each ticket's hand value is its card value in that deal.
    for t in &report.tickets {
        let card = again.tickets.iter().find(|c| c.ticket == t.name).unwrap();
        assert_eq!(t.hand_value, Some(card.mean_best), "{}", t.name);
    }
    let md = report.markdown(&[]);
    assert!(md.contains("## The luck of the deal"), "{md}");
    assert!(
        md.contains(&format!(
            "A hand is worth {} to {} points",
            again.min, again.max
        )),
        "{md}"
    );
}

#[test]
fn clearing_a_bar_agrees_with_exhaustive_search() {
    use ttr_opt::plans::replan::{clears, held_score, Bar};
    // Every hand of 3 of the six-city board's tickets, at several budgets:
    // a plan clears a score exactly when the optimum is above it, and the
    // plan it gives is optimal: it fits the cars, and the verifier counts
    // the optimum.
    let b = board(6);
    let n = b.cards.len();
    for cars in [3, 6] {
        for x in 0..n {
            for y in x + 1..n {
                for z in y + 1..n {
                    let kept = [x, y, z];
                    let best = brute(&b, cars, &kept);
                    let state = keep_state(&b, cars, &kept);
                    for bar in [best - 3, best - 1, best, best + 2] {
                        match clears(&b, &state, bar) {
                            Some(Bar::Below) => assert!(best <= bar, "{kept:?} {cars} {bar}"),
                            Some(Bar::Above { routes, score }) => {
                                assert!(best > bar, "{kept:?} {cars} {bar}");
                                assert_eq!(score, best, "{kept:?} {cars} {bar}");
                                assert_eq!(held_score(&b, &state, &routes), best);
                                let used: u32 = routes.iter().map(|&r| b.route(r).length).sum();
                                assert!(used <= cars, "{kept:?} {cars}: {used} cars");
                            }
                            // A bar below every plan's penalties has no answer.
                            None => assert!(bar < 0, "{kept:?} {cars} {bar}"),
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn clearing_a_bar_by_completing_every_ticket_agrees_with_exhaustive_search() {
    use ttr_opt::plans::replan::{clears_completing, held_score, Bar};
    // Every keep of 3 and of 4 of the six-city board's tickets, at several
    // budgets, against bars no lower than the best keep without one of its
    // tickets (the premise the deal gives: then only a plan completing them
    // all can clear the bar). Short budgets leave tickets out of reach.
    let b = board(3);
    let n = b.cards.len();
    let mut cleared = 0;
    for cars in [3, 6, 9] {
        for size in [3, 4] {
            for mask in 0u32..1 << n {
                if mask.count_ones() != size {
                    continue;
                }
                let kept: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
                let best = brute(&b, cars, &kept);
                let without = (0..kept.len())
                    .map(|x| {
                        let mut smaller = kept.clone();
                        smaller.remove(x);
                        brute(&b, cars, &smaller)
                    })
                    .max()
                    .unwrap();
                let state = keep_state(&b, cars, &kept);
                for bar in [without, without + 1, best - 1, best, best + 2] {
                    if bar < without || bar < 0 {
                        continue;
                    }
                    match clears_completing(&b, &state, bar) {
                        Some(Bar::Below) => assert!(best <= bar, "{kept:?} {cars} {bar}"),
                        Some(Bar::Above { routes, score }) => {
                            cleared += 1;
                            assert!(best > bar, "{kept:?} {cars} {bar}");
                            assert_eq!(score, best, "{kept:?} {cars} {bar}");
                            assert_eq!(held_score(&b, &state, &routes), best);
                            let used: u32 = routes.iter().map(|&r| b.route(r).length).sum();
                            assert!(used <= cars, "{kept:?} {cars}: {used} cars");
                        }
                        None => panic!("{kept:?} {cars} {bar}: no answer"),
                    }
                }
            }
        }
    }
    // Not every answer a "no": some keeps beat their smaller ones.
    assert!(cleared > 0);
}
