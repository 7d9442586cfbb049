"""The ttr_opt package: the same answers as the library, plain Python
objects, input errors as ValueError naming the entry, Ctrl-C as
KeyboardInterrupt."""

import json
import os
import signal
import threading
import time
from pathlib import Path

import pandas
import pytest

import ttr_opt

DATA = Path(__file__).resolve().parents[2] / "data"


def test_285_at_45_cars():
    r = ttr_opt.solve(cars=45)
    assert (r["score"], r["status"], r["bound"]) == (285, "optimal", 285)
    assert r["ticket_points"] + r["route_points"] == 285
    assert len(r["routes"]) == 18 and len(r["tickets"]) == 16
    # Rows as records: a DataFrame directly.
    assert list(r["tickets"].to_pandas()["points"].sort_values())[-1] == 22


def test_a_board_by_file_or_dict_gives_the_same_answer():
    path = DATA / "usa-big-cities.json"
    by_file = ttr_opt.solve(cars=20, board=path)
    by_dict = ttr_opt.solve(cars=20, board=json.loads(path.read_text()))
    assert by_file["score"] == by_dict["score"] and by_file["status"] == "optimal"


def test_a_sweep_is_records_pandas_takes():
    rows = ttr_opt.sweep(1, 8)
    frame = pandas.DataFrame(rows)
    # 1..6 cars: the best routes (1, 2, 4, 8, 10 points), then Denver - El
    # Paso's ticket at 6 (as the CLI test derives); never decreasing.
    assert list(frame["score"][:6]) == [1, 2, 4, 8, 10, 15]
    assert frame["score"].is_monotonic_increasing
    assert (frame["status"] == "optimal").all()
    assert list(rows.to_pandas()["cars"]) == list(range(1, 9))


def test_bad_input_raises_value_error_naming_the_entry(tmp_path):
    board = json.loads((DATA / "usa.json").read_text())
    board["routes"][4]["length"] = 0
    with pytest.raises(ValueError, match=r"routes\[4\]\.length"):
        ttr_opt.solve(board=board)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(board))
    with pytest.raises(ValueError, match=r"(?s)bad\.json.*routes\[4\]\.length"):
        ttr_opt.solve(board=bad)
    with pytest.raises(ValueError, match="unknown method"):
        ttr_opt.solve(method="guess")
    with pytest.raises(ValueError, match="time_limit"):
        ttr_opt.solve(time_limit=-1)
    # The command line's ranges: budgets 1 to 10000, threads 1 to 64.
    for call in [
        lambda: ttr_opt.solve(cars=0),
        lambda: ttr_opt.solve(cars=-3),
        lambda: ttr_opt.solve(cars=10001),
        lambda: ttr_opt.sweep(5, 3),
        lambda: ttr_opt.sweep(1, 3, threads=0),
        lambda: ttr_opt.sensitivity(cars=5, threads=65),
        lambda: ttr_opt.check([("Seattle", "Portland")], cars=0),
    ]:
        with pytest.raises(ValueError, match="must"):
            call()


def test_replan_the_late_game():
    r = ttr_opt.replan(DATA / "states" / "late.json")
    # The README's worked example: 83 points, Seattle - New York given up.
    assert (r["score"], r["status"]) == (83, "optimal")
    assert [t["name"] for t in r["lost"]] == ["Seattle – New York"]


def test_check_a_plan_of_pairs_and_a_file():
    ok = ttr_opt.check(DATA / "plans" / "coast-to-coast.json")
    assert ok["legal"] and ok["score"] == 179 and ok["optimum"] == 285
    assert ok["short_of_optimum"] == 106
    # Both tracks of the Seattle - Portland double route: not legal.
    bad = ttr_opt.check([("Seattle", "Portland"), ("Portland", "Seattle")])
    assert not bad["legal"]
    assert "two tracks of" in bad["problems"][0]
    with pytest.raises(ValueError, match=r"routes\[0\]: unknown city"):
        ttr_opt.check([("Atlantis", "Miami")])


def test_sensitivity_and_optima_rows():
    s = ttr_opt.sensitivity(cars=12)
    assert s["unfinished"] == []
    assert all(row["change"] <= 0 for row in s["tickets"] + s["routes"])
    o = ttr_opt.optima(cars=2)
    # 2 cars: any two of the five one-car routes, or one of the 25 two-car
    # routes (the CLI test derives the same from the board file).
    assert o["count"] == "35" and o["capped"] is True and o["listed"] == 20


def test_ctrl_c_stops_a_long_solve_and_the_next_call_works():
    # Switzerland at 24 cars by the branch and cut takes 20-40 s; Ctrl-C
    # after a second.
    def interrupt():
        time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGINT)

    # Python's own Ctrl-C handler for the test: a process started in the
    # background by a shell without job control inherits SIGINT ignored,
    # and Python then installs no handler (so Ctrl-C could not reach it).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    threading.Thread(target=interrupt, daemon=True).start()
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            ttr_opt.solve(cars=24, board=DATA / "switzerland.json", method="forest")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 10
    assert ttr_opt.solve(cars=10)["score"] == 29


def test_compare_matches_sweeps_of_both_boards():
    # Base: the USA board at 8 cars. The scenario doubles Denver - El Paso
    # (4 points, completed by the base optimum of 4 cars); the same change made by hand to the
    # board dict must give the variant's column.
    base = json.loads((DATA / "usa.json").read_text())
    base["cars"] = 8
    scenario = {
        "name": "dearer",
        "changes": [{"set_ticket": {"from": "Denver", "to": "El Paso", "points": 8}}],
    }
    variant = json.loads(json.dumps(base))
    [ticket] = [
        t
        for t in variant["tickets"]
        if {t["from"], t["to"]} == {"Denver", "El Paso"}
    ]
    assert ticket["points"] == 4
    ticket["points"] = 8
    c = ttr_opt.compare(scenario, board=base)
    rows = c["rows"].to_pandas()
    assert list(rows["cars"]) == list(range(1, 9))
    assert list(rows["base"]) == [r["score"] for r in ttr_opt.sweep(1, 8, board=base)]
    assert list(rows["variant"]) == [r["score"] for r in ttr_opt.sweep(1, 8, board=variant)]
    assert (rows["change"] == rows["variant"] - rows["base"]).all()
    # At 4 cars the base optimum completes the ticket: the same plan is worth
    # 4 more, and no plan without the ticket gains anything.
    assert rows["change"][3] == 4
    with pytest.raises(ValueError, match=r"(?s)scenario dict.*Nowhere"):
        ttr_opt.compare(
            {"name": "x", "changes": [{"remove_route": {"from": "Nowhere", "to": "Denver"}}]},
            board=base,
        )


def test_simulate_is_seeded_and_counts_every_seat():
    kwargs = dict(players=["greedy", "random"], games=20, seed=7, optimum=285)
    a = ttr_opt.simulate(**kwargs)
    b = ttr_opt.simulate(**kwargs, threads=1)
    assert a["games"] == 20 and a["optimum"] == 285
    seats = a["seats"].to_pandas()
    # Two seats a game; each strategy's summary is over its own seats.
    assert len(seats) == 40
    for s in a["strategies"]:
        mine = seats[seats["strategy"] == s["strategy"]]
        assert s["seats"] == len(mine)
        assert s["max"] == mine["score"].max()
    # The same seed gives the same games, whatever the threads.
    assert list(seats["score"]) == list(b["seats"].to_pandas()["score"])
    with pytest.raises(ValueError, match="unknown strategy"):
        ttr_opt.simulate(players=["greedy", "cheater"])
    with pytest.raises(ValueError, match="2 to 5 players"):
        ttr_opt.simulate(players=["greedy"])


def test_review_of_a_saved_game(tmp_path):
    game = DATA / "games" / "usa-bots.json"
    r = ttr_opt.review(game)
    assert r["all_proven"]
    # The board's own optimum at 45 cars, as solve proves it.
    assert r["board_optimum"] == ttr_opt.solve(cars=45)["score"]
    assert len(r["players"]) == 4
    # One row per turn of every player, as pandas takes them.
    rows = r["turns"].to_pandas()
    assert len(rows) == sum(len(p["turns"]) for p in r["players"])
    assert set(rows["seat"]) == {0, 1, 2, 3}
    for p in r["players"]:
        # The single-player optimum of the same tickets and cars is
        # replan's answer from an empty board holding those tickets.
        tickets = [t.rsplit(" (", 1)[0].split(" – ") for t in p["tickets"]]
        state = {
            "board": str(DATA / "usa.json"),
            "players": 4,
            "cars_left": r["cars"],
            "owned": [],
            "taken": [],
            "tickets": [{"from": a, "to": b} for a, b in tickets],
        }
        path = tmp_path / f"open-{p['seat']}.json"
        path.write_text(json.dumps(state))
        assert p["single_player_optimum"] == ttr_opt.replan(path)["score"]
        # Every turn's gap is measured against the final score.
        assert all(t["gap"] == t["best"] - p["network_score"] for t in p["turns"])
        assert [l["points"] for l in p["costliest"]] == sorted(
            (l["points"] for l in p["costliest"]), reverse=True
        )
    with pytest.raises(ValueError, match="usa.json"):
        ttr_opt.review(DATA / "usa.json")


def test_simulate_reviews_its_first_games():
    s = ttr_opt.simulate(players=["planner", "greedy"], games=3, seed=7, optimum=285, review=2)
    assert len(s["reviews"]) == 2
    seats = s["seats"].to_pandas()
    for g, r in enumerate(s["reviews"]):
        # Each reviewed player's final score (the bonus aside) is the one
        # the game's seat recorded.
        mine = seats[seats["game"] == g].sort_values("position")
        assert [p["network_score"] for p in r["players"]] == list(mine["network_score"])
        assert r["board_optimum"] == ttr_opt.solve(cars=45)["score"]
    assert "reviews" not in ttr_opt.simulate(players=["greedy", "random"], games=2, optimum=285)
    with pytest.raises(ValueError, match="review"):
        ttr_opt.simulate(players=["greedy", "random"], games=2, optimum=285, review=0)


def test_simulate_takes_the_2017_papers_styles():
    styles = ["route-focus", "destination-hungry", "one-step", "long-route"]
    s = ttr_opt.simulate(players=styles, games=2, seed=3, optimum=285)
    assert sorted(x["strategy"] for x in s["strategies"]) == sorted(styles)
    with pytest.raises(ValueError, match="long-route"):
        ttr_opt.simulate(players=["greedy", "long-routes"], games=1, optimum=285)


def test_tunnel_options_of_seed_004s_worked_example():
    # tCHu's example: three green, two blue, two locomotives; a green tunnel
    # of length 1 paid with one green; the turned cards ask for two more.
    hand = {"green": 3, "blue": 2, "locomotive": 2}
    r = ttr_opt.possible_additional_cards(hand, {"green": 1}, ["green", "blue", "locomotive"])
    assert r == {
        "required": 2,
        "options": [{"green": 2}, {"green": 1, "locomotive": 1}, {"locomotive": 2}],
    }
    # Nothing turned matches: no extra card, no option.
    r = ttr_opt.possible_additional_cards(hand, {"green": 1}, ["red", "blue", "blue"])
    assert r == {"required": 0, "options": []}


CARDS = ["red", "orange", "yellow", "green", "blue", "pink", "white", "black", "locomotive"]


def test_tunnel_options_equal_brute_force_on_random_hands():
    import itertools
    import random

    rng = random.Random(56)
    unpayable = 0
    for _ in range(300):
        hand = {c: rng.randint(0, 4) for c in rng.sample(CARDS, 4)}
        colour = rng.choice(list(hand))
        initial = {colour: rng.randint(0, hand[colour])}
        if "locomotive" in hand:
            initial["locomotive"] = rng.randint(0, hand["locomotive"])
        if sum(initial.values()) == 0:
            continue
        drawn = [rng.choice(CARDS) for _ in range(3)]
        r = ttr_opt.possible_additional_cards(hand, initial, drawn)
        # By the rule's words: the colour paid (none for locomotives alone).
        paid = [c for c, n in initial.items() if n > 0 and c != "locomotive"]
        required = sum(c == "locomotive" or c in paid for c in drawn)
        usable = {c: hand[c] - initial.get(c, 0) for c in hand if c in paid + ["locomotive"]}
        names = list(usable)
        options = [
            {c: n for c, n in zip(names, counts) if n > 0}
            for counts in itertools.product(*(range(usable[c] + 1) for c in names))
            if sum(counts) == required
        ] if required else []
        options.sort(key=lambda o: o.get("locomotive", 0))
        assert r == {"required": required, "options": options}, (hand, initial, drawn)
        unpayable += required > 0 and not options
    assert unpayable > 10


def test_tunnel_options_after_locomotives_alone_and_when_unpayable():
    hand = {"green": 5, "locomotive": 4}
    # Paid in locomotives alone: only turned locomotives count, and only
    # locomotives pay.
    r = ttr_opt.possible_additional_cards(hand, {"locomotive": 2}, ["green", "locomotive", "locomotive"])
    assert r == {"required": 2, "options": [{"locomotive": 2}]}
    r = ttr_opt.possible_additional_cards(hand, {"locomotive": 2}, ["locomotive"] * 3)
    assert r == {"required": 3, "options": []}
    # Four green paid of five and no locomotive left to add: one card only.
    r = ttr_opt.possible_additional_cards({"green": 5}, {"green": 4}, ["green", "green", "pink"])
    assert r == {"required": 2, "options": []}


def test_tunnel_options_bad_input_raises_value_error_naming_the_entry():
    hand = {"green": 3, "locomotive": 2}
    for args, message in [
        (({"grene": 3}, {"grene": 1}, ["red"] * 3), r"hand\['grene'\]: unknown colour"),
        ((hand, {"gray": 1}, ["red"] * 3), r"initial\['gray'\]: unknown colour"),
        ((hand, {"green": 1}, ["red", "wild", "red"]), r"drawn\[1\]: unknown colour 'wild'"),
        (({"green": -1}, {"green": 1}, ["red"] * 3), r"hand\['green'\]: expected a whole number"),
        ((hand, {"green": 1.5}, ["red"] * 3), r"initial\['green'\]: expected a whole number"),
        ((hand, {"green": 4}, ["red"] * 3), r"initial\['green'\]: 4 paid, but the hand holds 3"),
        ((hand, {"locomotive": 3}, ["red"] * 3), r"initial\['locomotive'\]: 3 paid"),
        ((hand, {}, ["red"] * 3), r"initial: the initial payment is empty"),
        (({"green": 3, "red": 1}, {"green": 1, "red": 1}, ["red"] * 3), "initial: .*two colours"),
        ((hand, {"green": 1}, ["red"] * 2), r"drawn: expected 3 cards, got 2"),
        ((hand, {"green": 1}, ["red"] * 4), r"drawn: expected 3 cards, got 4"),
        ((hand, {"green": 1}, "red"), r"drawn: expected a list of 3 colour names, got 'red'"),
        ((["green"], {"green": 1}, ["red"] * 3), r"hand: expected a dict"),
    ]:
        with pytest.raises(ValueError, match=message):
            ttr_opt.possible_additional_cards(*args)


# A–B–C–D–E in a line, every route 2 cars for 2 points; tickets A–C, B–D and
# C–E worth 4 (one point per car of their 4-car connections) and A–E worth 11
# for its 8 cars (tests/suite/tune.rs has the same board).
LINE = {
    "name": "line",
    "cars": 8,
    "route_points": {"1": 1, "2": 2, "3": 4, "4": 7},
    "cities": [{"name": c, "x": i, "y": 0} for i, c in enumerate("ABCDE")],
    "routes": [
        {"from": a, "to": b, "length": 2, "tracks": ["gray"]}
        for a, b in ["AB", "BC", "CD", "DE"]
    ],
    "tickets": [
        {"from": "A", "to": "C", "points": 4},
        {"from": "B", "to": "D", "points": 4},
        {"from": "C", "to": "E", "points": 4},
        {"from": "A", "to": "E", "points": 11},
    ],
}


def test_tune_finds_the_change_derived_by_hand_and_compare_reads_it():
    # Only the rates asked: the median rate is 1.00 a car, and 5 % of A–E's
    # 8 cars allows at most 8.4 points: A–E must lose 3 points, one change.
    targets = {"dead": False, "generous": False, "max_spread": 1000}
    t = ttr_opt.tune(board=LINE, targets=targets, cars=8)
    assert t["base"]["misses"] == 1
    best = t["revisions"][0]
    assert best["misses"] == 0
    assert [(c["ticket"], c["before"], c["after"]) for c in best["changes"]] == [("A – E", 11, 8)]
    scenario = t["scenarios"][0]
    assert scenario["changes"] == [{"set_ticket": {"from": "A", "to": "E", "points": 8}}]
    # The scenario, read back by compare, is the board with A–E at 8 points:
    # at 8 cars the whole line scores 8 for its routes and every ticket.
    variant = json.loads(json.dumps(LINE))
    variant["tickets"][3]["points"] = 8
    rows = ttr_opt.compare(scenario, board=LINE)["rows"]
    assert [r["variant"] for r in rows] == [r["score"] for r in ttr_opt.sweep(1, 8, board=variant)]
    assert rows[-1]["variant"] == 8 + 4 + 4 + 4 + 8
    # With at most 2 points a ticket, no revision helps.
    narrow = ttr_opt.tune(board=LINE, targets={**targets, "max_step": 2}, cars=8)
    assert narrow["revisions"] == [] and narrow["scenarios"] == []


def test_tune_takes_a_ticket_out_where_its_points_cannot_reach():
    # A–E needs 3 points off, 2 are allowed: with "remove" it leaves the
    # deck, and the line then scores 8 for its routes and 4 + 4 + 4.
    targets = {"dead": False, "generous": False, "max_spread": 1000, "max_step": 2, "remove": True}
    t = ttr_opt.tune(board=LINE, targets=targets, cars=8)
    best = t["revisions"][0]
    assert best["misses"] == 0
    assert [(c["kind"], c["ticket"]) for c in best["changes"]] == [("remove", "A – E")]
    scenario = t["scenarios"][0]
    assert scenario["changes"] == [{"remove_ticket": {"from": "A", "to": "E"}}]
    assert ttr_opt.compare(scenario, board=LINE)["rows"][-1]["variant"] == 8 + 4 + 4 + 4


def test_tune_bad_targets_raise_value_error_naming_the_field():
    with pytest.raises(ValueError, match="rate_band"):
        ttr_opt.tune(board=LINE, targets={"rate_band": -1})
    with pytest.raises(ValueError, match="colour"):
        ttr_opt.tune(board=LINE, targets={"colour": "red"})
    with pytest.raises(ValueError, match="route_step"):
        ttr_opt.tune(board=LINE, targets={"route_step": 6})
