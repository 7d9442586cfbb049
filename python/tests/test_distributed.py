"""ttr_opt.distributed on a local Dask cluster (2 worker processes): the
same results as the command line and the single-machine calls, whatever the
chunking."""

import csv
import json
import os
import subprocess
from pathlib import Path

import pytest

import ttr_opt
from ttr_opt import distributed

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"


@pytest.fixture(scope="module")
def client():
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def cli(*args, out):
    """The command line, as the README runs it (or the built binary named
    by TTR_OPT_BINARY, where no cargo is at hand), writing into ``out``."""
    binary = os.environ.get("TTR_OPT_BINARY", str(ROOT / "ttr-opt"))
    subprocess.run(
        [binary, *args, "--out", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def without_times(report):
    return {k: v for k, v in report.items() if k not in ("seconds", "games_per_second")}


def test_usa_deals_on_dask_are_the_command_lines(client, tmp_path):
    # Every hand of the USA deal (4,060), at 20 cars: the whole deal, in
    # seconds rather than the 45 cars' minutes on two cores.
    cli("deals", "--cars", "20", "--json", out=tmp_path)
    expected = json.loads((tmp_path / "deals-3-2.json").read_text())
    with open(tmp_path / "deals-3-2.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    report = distributed.deals(client, cars=20, chunk=1015)
    assert report["hands_valued"] == len(rows) == 4060 and report["all_proven"]
    # Every hand, in deal order: the same value and the same cards kept.
    got = [("; ".join(h["hand"]), str(h["best"]), "; ".join(h["keep"])) for h in report["hands"]]
    assert got == [(r["hand"], r["best"], r["keep"]) for r in rows]
    del report["hands"]
    assert without_times(report) == without_times(expected)


def test_a_sampled_deal_is_the_same_at_any_chunking(client):
    board = DATA / "usa-big-cities.json"
    local = ttr_opt.deals(cars=20, sample=60, seed=3, board=board)
    for chunk in (7, 60):
        spread = distributed.deals(client, cars=20, sample=60, seed=3, board=board, chunk=chunk)
        assert without_times(spread) == without_times(local)
    assert local["sampled"] and local["hands_valued"] == 60


def test_300_games_on_dask_are_the_command_lines(client, tmp_path):
    cli("simulate", "--players", "greedy,planner", "--games", "300", out=tmp_path)
    expected = json.loads((tmp_path / "simulate-greedy-planner.json").read_text())
    report = distributed.simulate(client, players=("greedy", "planner"), games=300, chunk=40)
    with open(tmp_path / "simulate-greedy-planner.csv", newline="", encoding="utf-8") as f:
        seats = list(csv.DictReader(f))
    assert len(report["seats"]) == len(seats) == 600
    for got, row in zip(report["seats"], seats):
        assert {k: str(v).lower() for k, v in got.items()} == {
            k: v.lower() for k, v in row.items() if k in got
        }
    del report["seats"]
    assert without_times(report) == without_times(
        {k: v for k, v in expected.items() if k in report}
    )


def test_simulated_games_are_the_same_at_any_chunking(client):
    local = ttr_opt.simulate(players=("greedy", "random", "planner"), games=12, seed=5, optimum=100)
    for chunk in (1, 5, 12):
        spread = distributed.simulate(
            client, players=("greedy", "random", "planner"), games=12, seed=5, optimum=100, chunk=chunk
        )
        assert without_times(spread) == without_times(local)


def test_scenarios_come_back_in_order_as_compare_gives_them(client):
    # The USA board at 10 cars (swept 1..10), two what-if variants.
    board = json.loads((DATA / "usa.json").read_text())
    board["cars"] = 10
    variants = [
        {"name": "dearer", "changes": [{"set_ticket": {"from": "Denver", "to": "El Paso", "points": 8}}]},
        {"name": "no Denver - Omaha", "changes": [{"remove_route": {"from": "Denver", "to": "Omaha"}}]},
    ]
    spread = distributed.scenarios(client, variants, board=board)
    local = [ttr_opt.compare(v, board=board) for v in variants]
    assert spread == local
    assert [r["variant"] for r in spread[0]["rows"]] != [r["variant"] for r in spread[1]["rows"]]


def test_bad_chunks_are_refused(client):
    with pytest.raises(ValueError, match="chunk"):
        distributed.deals(client, chunk=0)
    deal = json.dumps(dict(cars=None, hand=3, keep=2, long=0, sample=None, seed=1))
    with pytest.raises(ValueError, match="hands 5..3"):
        ttr_opt._native.deal_chunk(deal, 5, 3)
    with pytest.raises(ValueError, match="unknown field"):
        ttr_opt._native.deal_count('{"hands": 3}')
