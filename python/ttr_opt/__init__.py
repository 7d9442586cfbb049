"""The maximum score in Ticket to Ride, computed exactly: the Python face
of ttr-opt.

Every function solves to proven optimality (unless ``time_limit`` stops it)
and returns plain Python objects in the schemas the command line writes as
JSON (see docs/formats.md): dicts, and lists of dicts that ``pandas.DataFrame``
takes directly (each such list also has ``.to_pandas()``).

A board is ``None`` (the original USA board, built in), a path to a board
file, or a dict in the board format of ``data/README.md``. Bad input raises
``ValueError`` with the message the command line prints (the file, the
entry, the problem); Ctrl-C stops a long solve and raises
``KeyboardInterrupt``. Solves release the GIL.

>>> import ttr_opt
>>> ttr_opt.solve(cars=45)["score"]
285
"""

import json
import os

from . import _native

__all__ = [
    "Records",
    "solve",
    "sweep",
    "sensitivity",
    "breakeven",
    "optima",
    "replan",
    "check",
    "compare",
    "simulate",
    "review",
    "deals",
    "possible_additional_cards",
    "tune",
]


class Records(list):
    """A list of dicts (one per row): ``pandas.DataFrame(records)`` or
    ``records.to_pandas()``."""

    def to_pandas(self):
        import pandas

        return pandas.DataFrame(list(self))


def _board(board):
    if board is None:
        return {}
    if isinstance(board, dict):
        return {"board_json": json.dumps(board)}
    return {"board_path": os.fspath(board)}


def _answer(text):
    """The JSON answer, its lists of rows as Records."""
    value = json.loads(text)
    if isinstance(value, list):
        return Records(value)
    for key, item in value.items():
        if isinstance(item, list) and all(isinstance(x, dict) for x in item):
            value[key] = Records(item)
    return value


def solve(cars=None, board=None, method="auto", time_limit=None):
    """The optimal plan for ``cars`` train cars (default: the board's own):
    score, bound, routes, tickets (the ``solve --json`` schema). Uses both
    cores, as ``ttr-opt solve`` does, with the same plan on one."""
    return _answer(
        _native.solve(cars=cars, method_name=method, time_limit=time_limit, **_board(board))
    )


def sweep(start=1, end=None, board=None, threads=2, time_limit=None):
    """The proven optimum of every budget from ``start`` to ``end`` (default:
    the board's car count): one ``solve`` record per budget, with
    ``plan_from``."""
    return _answer(
        _native.sweep(start=start, end=end, threads=threads, time_limit=time_limit, **_board(board))
    )


def sensitivity(cars=None, board=None, threads=2, time_limit=None):
    """The optimum without each ticket and each route of the optimal plan:
    ``tickets`` and ``routes`` rows (name, points, optimum, change), and
    ``unfinished`` (rows a time limit left out)."""
    return _answer(
        _native.sensitivity(cars=cars, threads=threads, time_limit=time_limit, **_board(board))
    )


def breakeven(cars=None, board=None, threads=2, time_limit=None):
    """For every ticket, whether it is in every, some or no optimum and how
    many points would change that; for every route of the optimum, the cost
    of losing it."""
    return _answer(
        _native.breakeven(cars=cars, threads=threads, time_limit=time_limit, **_board(board))
    )


def optima(cars=None, board=None, max=20, time_limit=None):
    """Every optimal plan of a budget: ``count`` (a string: it can be huge),
    each ticket's and route's share of the optima, and up to ``max`` plans."""
    return _answer(_native.optima(cars=cars, max=max, time_limit=time_limit, **_board(board)))


def replan(state, method="auto", time_limit=None):
    """The best final score from a game in progress: ``state`` is the path
    of a game-state file (format in ``data/README.md``)."""
    return _answer(
        _native.replan(os.fspath(state), method_name=method, time_limit=time_limit)
    )


def check(plan, board=None, cars=None, time_limit=None):
    """A plan of your own, judged: ``plan`` is a plan file's path, a dict in
    its format (``{"routes": [{"from": ..., "to": ...}, ...]}``), or a list
    of ``(from, to)`` pairs. Says whether it is legal, its score by the
    verifier, and how far it is from the proven optimum."""
    if isinstance(plan, (list, tuple)):
        plan = {"routes": [{"from": a, "to": b} for a, b in plan]}
    if isinstance(plan, dict):
        source = {"plan_json": json.dumps(plan)}
    else:
        source = {"plan_path": os.fspath(plan)}
    return _answer(_native.check(cars=cars, time_limit=time_limit, **source, **_board(board)))


def compare(scenario, board=None, threads=2, time_limit=None):
    """A what-if scenario against its base board (``board``): ``scenario``
    is a scenario file's path or a dict in its format (``data/README.md``).
    Both boards are swept over every budget: ``rows`` (cars, base, variant,
    change), and the tickets and routes that differ at the boards' own car
    counts (the ``compare --json`` schema)."""
    if isinstance(scenario, dict):
        source = {"scenario_json": json.dumps(scenario)}
    else:
        source = {"scenario_path": os.fspath(scenario)}
    return _answer(
        _native.compare(threads=threads, time_limit=time_limit, **source, **_board(board))
    )


def simulate(
    players=("greedy", "planner"),
    games=1000,
    seed=1,
    optimum=None,
    board=None,
    threads=2,
    time_limit=None,
    review=None,
):
    """Seeded games between simulated strategies (``random``, ``greedy``,
    ``planner``, ``mcts``, and the 2017 paper's styles ``route-focus``,
    ``destination-hungry``, ``one-step``, ``long-route``, and ``search``,
    the strongest: the planner with a clock, spare claims and a rush to the
    end; 2 to 5, seats rotating), measured against the
    single-player optimum (solved unless given): ``strategies`` (one summary
    each), ``routes`` (those claimed most in play) and ``seats`` (every
    player of every game, one record each). The same seed gives the same
    games. With ``review=N``, ``reviews``: the first N games reviewed turn
    by turn, as ``review`` reviews a saved game."""
    return _answer(
        _native.simulate(
            list(players),
            games=games,
            seed=seed,
            optimum=optimum,
            threads=threads,
            time_limit=time_limit,
            review=review,
            **_board(board),
        )
    )


def review(game, solve_limit=10.0, time_limit=None):
    """A finished (or saved) game reviewed turn by turn: ``game`` is the path
    of a saved game (the online game's ``saveGameState`` file, its board
    file beside it). For every player (``players``): the best final score
    still reachable at the start of each turn, the points lost by their own
    moves, the others' claims and the end, the three costliest turns in
    words, and the single-player optimum of the same tickets and cars;
    ``board_optimum`` for scale; ``turns``, every turn of every player as
    rows (the ``review`` CSV). ``solve_limit`` bounds each plan's solve."""
    return _answer(
        _native.review(os.fspath(game), solve_limit=solve_limit, time_limit=time_limit)
    )


def deals(cars=None, hand=3, keep=2, long=0, sample=None, seed=1, board=None, threads=2, time_limit=None):
    """The luck of the deal: every hand of ``hand`` tickets (or a seeded
    sample of ``sample`` hands) valued by the best score it allows alone on
    the board with ``cars`` cars, keeping at least ``keep``; ``long`` cards
    of the hand come from the long-route deck (Europe: ``hand=4, long=1``).
    The ``deals --json`` schema, plus ``hands``: every hand, in deal order. For decks
    too large for one machine, see ``ttr_opt.distributed``."""
    return _answer(
        _native.deals(
            cars=cars,
            hand=hand,
            keep=keep,
            long=long,
            sample=sample,
            seed=seed,
            threads=threads,
            time_limit=time_limit,
            **_board(board),
        )
    )


def possible_additional_cards(hand, initial, drawn):
    """A tunnel's extra cards, as in tCHu and Europe: the player holding
    ``hand`` paid ``initial`` for a tunnel (both dicts ``{colour: count}``,
    colours as in the board format and ``"locomotive"`` for the wild card;
    the payment one colour and locomotives, or locomotives alone) and the
    three cards ``drawn`` (a list of colour names) were turned from the
    deck. Each that is a locomotive or of the colour paid asks for one more
    card (only locomotives count after a payment in locomotives alone).
    Returns ``{"required": k, "options": [{colour: count}, ...]}``: every
    set of ``k`` more cards the player may pay from what is left in hand
    (the colour paid and locomotives), fewest locomotives first, one per
    number of locomotives (tCHu's ``possibleAdditionalCards``); empty when
    ``k`` is 0 or the player cannot pay (then they can only give up). Zero
    counts are left out. Bad input (an unknown colour, a negative count, a
    payment not in the hand or of two colours, not three cards drawn)
    raises ``ValueError`` naming the entry.

    >>> ttr_opt.possible_additional_cards(
    ...     {"green": 3, "blue": 2, "locomotive": 2}, {"green": 1},
    ...     ["green", "locomotive", "red"])["options"]
    [{'green': 2}, {'green': 1, 'locomotive': 1}, {'locomotive': 2}]
    """
    return _native.possible_additional_cards(hand, initial, drawn)


def tune(board=None, targets=None, cars=None, budget_changes=4, keep=3, threads=2, time_limit=None):
    """Revisions of a board's ticket points towards the balance report's
    targets, as ``ttr-opt tune`` finds them (docs/designers.md, "Tune"): each
    proven by exact solves on the revised board. ``targets`` is ``None``
    (the defaults: no dead ticket, no generous one, points per car within
    5 % of the median, the deal's spread no wider), a path to a targets
    file, or a dict of its fields (``{"win_rates": {}}`` also plays the
    tournament's bots of four styles on each revision reported and asks
    their win rates within 15 points of each other; ``"route_step"``,
    ``"remove"`` and ``"add"`` let routes' lengths move and tickets leave or
    be replaced). Returns ``tune.json``'s schema (``base``,
    ``revisions`` best first, ``references``, ``trade_offs``, ``search``)
    and ``scenarios``: each revision as a scenario dict, which ``compare``
    takes. On a USA board the 1910 reprint's revision is measured beside."""
    if targets is None:
        source = {}
    elif isinstance(targets, dict):
        source = {"targets_json": json.dumps(targets)}
    else:
        source = {"targets_path": os.fspath(targets)}
    return _answer(
        _native.tune(
            cars=cars,
            budget_changes=budget_changes,
            keep=keep,
            threads=threads,
            time_limit=time_limit,
            **source,
            **_board(board),
        )
    )
