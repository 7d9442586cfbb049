"""The embarrassingly parallel analyses on a Dask cluster: the luck of the
deal, batches of what-if scenarios, and simulations of many games.

Each task is a plain call of this package on a board given as a dict, so a
worker needs only ``pip install`` of ttr-opt (and dask). The work is split in
chunks that are seeded or numbered independently of the split, and merged in
a fixed order, so the results are those of the single-machine calls
(``ttr_opt.deals``, ``ttr_opt.compare``, ``ttr_opt.simulate`` and the command
line) for the same seeds, whatever the chunk size or the number of workers;
only the wall-clock ``seconds`` differ.

>>> from dask.distributed import Client
>>> client = Client("tcp://scheduler:8786")        # or Client() for a local cluster
>>> report = ttr_opt.distributed.deals(client, board="usa1910.json", hand=5, keep=3,
...                                    sample=100_000, seed=7)

``client`` is a ``dask.distributed.Client``.
"""

import json
import os
import time

from . import _native, _answer, compare as _compare, solve as _solve

__all__ = ["deals", "scenarios", "simulate", "board_dict"]


def board_dict(board):
    """The board as a dict (``None``, the built-in USA board, stays ``None``:
    every worker has it), read from its file on the client so that workers
    need no shared files."""
    if board is None or isinstance(board, dict):
        return board
    with open(os.fspath(board), encoding="utf-8") as f:
        return json.load(f)


def _native_board(board):
    return {} if board is None else {"board_json": json.dumps(board)}


def _deal_chunk(deal, start, end, board, threads):
    return _native.deal_chunk(deal, start, end, threads=threads, **_native_board(board))


def _gathered(client, futures):
    """The tasks' answers (JSON lists), joined in the order submitted."""
    rows = []
    for part in client.gather(futures):
        rows.extend(json.loads(part))
    return rows


def deals(
    client, cars=None, hand=3, keep=2, long=0, sample=None, seed=1, board=None, chunk=500, threads=1
):
    """``ttr_opt.deals`` on the cluster: the hands (every one, or the seeded
    sample) split into runs of ``chunk`` hands, each valued by one task with
    ``threads`` threads, merged in deal order. Each chunk solves the subsets
    of its own hands, so a subset shared by two chunks is solved twice:
    larger chunks waste less. The same report as ``ttr_opt.deals`` (and
    ``ttr-opt deals``) but for ``seconds``."""
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    board = board_dict(board)
    deal = json.dumps(dict(cars=cars, hand=hand, keep=keep, long=long, sample=sample, seed=seed))
    total = _native.deal_count(deal, **_native_board(board))
    started = time.monotonic()
    futures = [
        client.submit(
            _deal_chunk, deal, start, min(start + chunk, total), board, threads, pure=False
        )
        for start in range(0, total, chunk)
    ]
    values = _gathered(client, futures)
    seconds = time.monotonic() - started
    return _answer(
        _native.deal_merge(deal, json.dumps(values), seconds, **_native_board(board))
    )


def _compare_one(scenario, board, threads):
    return _compare(scenario, board=board, threads=threads)


def scenarios(client, variants, board=None, threads=1):
    """``ttr_opt.compare`` of every what-if variant in ``variants`` (scenario
    dicts or files, each against ``board``), one task each: their results in
    the order given."""
    board = board_dict(board)
    variants = [board_dict(v) for v in variants]
    futures = [
        client.submit(_compare_one, v, board, threads, pure=False) for v in variants
    ]
    return client.gather(futures)


def _simulate_chunk(players, first, games, seed, board, threads):
    return _native.simulate_chunk(
        list(players), first, games, seed=seed, threads=threads, **_native_board(board)
    )


def _optimum(board):
    return _solve(board=board)["score"]


def simulate(
    client,
    players=("greedy", "planner"),
    games=1000,
    seed=1,
    optimum=None,
    board=None,
    chunk=100,
    threads=1,
):
    """``ttr_opt.simulate`` on the cluster: games ``0..games`` (game g seeded
    ``seed + g``, its seats rotated by g, as on one machine) in runs of
    ``chunk`` games, one task each, merged in game order. The single-player
    optimum is solved by a task too, unless given. The same report as
    ``ttr_opt.simulate`` (and ``ttr-opt simulate``) but for ``seconds`` and
    ``games_per_second``."""
    if chunk < 1 or games < 1:
        raise ValueError(f"games and chunk must be at least 1, got {games} and {chunk}")
    board = board_dict(board)
    started = time.monotonic()
    best = None if optimum is not None else client.submit(_optimum, board, pure=False)
    futures = [
        client.submit(
            _simulate_chunk,
            tuple(players),
            first,
            min(chunk, games - first),
            seed,
            board,
            threads,
            pure=False,
        )
        for first in range(0, games, chunk)
    ]
    records = _gathered(client, futures)
    if best is not None:
        optimum = best.result()
    seconds = time.monotonic() - started
    return _answer(
        _native.simulate_merge(
            list(players),
            json.dumps(records),
            seconds,
            optimum,
            seed=seed,
            **_native_board(board),
        )
    )
