//! The luck of the deal (`ttr-opt deals`): every hand's value against
//! exhaustive search on small boards, every keepable subset tried; a
//! sample is reproducible; the command's files and refusals.

mod common;

use ttr_opt::board::Board;
use ttr_opt::game::deals::{deals, DealOptions};
use ttr_opt::game::state::GameState;

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
    let state = GameState {
        players: 2,
        cars_left: cars,
        owned: Vec::new(),
        taken: Vec::new(),
        tickets: kept.iter().map(|&c| board.cards[c].trips[0]).collect(),
        may_draw: false,
    };
    common::brute_best(board, &state)
}

#[test]
fn every_hand_is_its_best_keepable_subset() {
    for seed in 1..=4u64 {
        let b = board(seed);
        for (hand, keep) in [(3, 2), (3, 1), (2, 2)] {
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
            let mut all = Vec::new();
            for x in 0..n {
                for y in x + 1..n {
                    if hand == 2 {
                        all.push(vec![x, y]);
                    } else {
                        for z in y + 1..n {
                            all.push(vec![x, y, z]);
                        }
                    }
                }
            }
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
    let hands = |r: &ttr_opt::game::deals::DealReport| {
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
    let out = common::ttr_opt(&[
        "deals",
        "--board",
        file.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    use ttr_opt::game::deals::{deal_hands, deal_report, value_hands};
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
        let strip = |r: &ttr_opt::game::deals::DealReport| {
            let mut v = serde_json::to_value(r).unwrap();
            v["seconds"] = serde_json::Value::Null;
            (v, serde_json::to_value(&r.hands).unwrap())
        };
        assert_eq!(strip(&merged), strip(&whole), "chunks of {chunk}");
    }
}
