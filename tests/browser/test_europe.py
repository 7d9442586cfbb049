"""Europe's own rules played in two headless Chromiums (`ttr-opt play`):
alice and bruno play a 3-player Europe game with a medium (greedy) bot to the end,
through the page's controls alone: a tunnel given up and one paid in the
tunnel dialog, ferries claimed in the claim dialog, a station each built
by clicking a city and paying in the station dialog. The server deals
from a fixed seed (`--deal-seed`, hidden), and the people's strategy
below is fixed too, so the game is the same each run; the seed was
chosen so that a tunnel asks for extra cards that alice can pay.

Expected values come from other faces: the server's own models, asked
over a WebSocket opened with each browser's session cookie, and a
scoring written here from the board file (route points by the rule card,
tickets by union-find over the owned tracks and the borrowed routes the
results name, the station points by the stations built).

TTR_SCREENSHOTS=1 saves europe-game.png and europe-results.png into
output/play/.
"""

import json
import subprocess
import time

import pytest
from selenium.common.exceptions import ElementClickInterceptedException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_play import (
    BINARY, ROOT, Session, chromium, model, my_turn, public, register, screenshot,
    shown, text, wait,
)

SEED = 2
PATIENCE = 170
BOARD = json.loads((ROOT / "data" / "europe.json").read_text())
# routeIndex -> (city a, city b, length, points): every track in file order.
TRACKS = [
    (r["from"], r["to"], r["length"], BOARD["route_points"][str(r["length"])])
    for r in BOARD["routes"]
    for _ in r["tracks"]
]
STATIONS = BOARD["rules"]["stations"]
USERS = [("alice", "correct horse 1"), ("bruno", "correct horse 2")]


@pytest.fixture(scope="module")
def europe_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("europe") / "t.db"
    process = subprocess.Popen(
        [str(BINARY), "play", "--db", str(db), "--port", "0", "--bot-delay", "100",
         "--deal-seed", str(SEED)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    assert "http://" in line, line + process.stderr.read()
    yield "http://" + line.split("http://")[1].split()[0].rstrip("/")
    process.send_signal(2)
    assert process.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def europe_browsers(tmp_path_factory):
    drivers = []
    try:
        for name in ("one", "two"):
            drivers.append(chromium(tmp_path_factory.mktemp("europe-profile-" + name)))
        yield drivers
    finally:
        for d in drivers:
            d.quit()


# ---- The people's strategy, on the page's model alone ---------------------------------


def decide(m, done):
    """This seat's move now, as a tuple naming it; `done` counts what this
    player did so far. Fixed, so that the seed gives the same game: give
    the first tunnel that asks for more up and pay the next, build a station
    (in a city of one's tickets) after three claims, claim ferries first,
    then tunnels, then the longest track, else draw (face up, then deck)."""
    if m["offer"]:
        return ("keep", m["offer"]["min"])
    phase = m["turn"]["phase"]
    if phase == "tunnel":
        return ("give_up",) if done["given_up"] == 0 else ("pay", m["tunnel"]["options"][0]["numberOfWilds"])
    if m["canPass"]:
        return ("pass",)
    if phase == "turn":
        if done["stations"] == 0 and m["stationPayments"] and done["claims"] >= 3:
            taken = {c for p in m["players"] for c in p["stations"]}
            city = next((c for t in m["cities"] for c in (t["start"], t["end"]) if c not in taken), None)
            if city:
                pay = m["stationPayments"][0]
                return ("station", city, pay["color"], pay["minWilds"])
        if m["claimable"]:
            c = max(m["claimable"], key=lambda c: (
                c["ferryWilds"] > 0, c["tunnel"], TRACKS[c["routeIndex"]][2], -c["routeIndex"]))
            pay = c["payments"][0]
            return ("claim", c["routeIndex"], pay["color"], pay["minWilds"])
    face = [("face", i) for i, x in enumerate(m["faceUp"]) if x and x != "wild"]
    deck = [("deck",)] if m["deckCount"] > 0 else []
    order = face + deck if phase == "turn" else deck + face
    if order:
        return order[0]
    if phase == "turn" and m["destinationDeckCount"] > 0:
        return ("tickets",)
    wild = [("face", i) for i, x in enumerate(m["faceUp"]) if x == "wild" and m["canDrawWild"]]
    return wild[0] if wild else ("pass",)


# ---- Moves through the page ---------------------------------------------------------


def click(driver, css):
    """A click on the control `css` names; through the DOM when another
    mark of the map (a station's house, a city's disc) lies over the point
    clicked, and found again when a push redrew it meanwhile."""
    for _ in range(5):
        element = driver.find_element(By.CSS_SELECTOR, css)
        try:
            element.click()
            return
        except ElementClickInterceptedException:
            driver.execute_script(
                "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element)
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{css} keeps being redrawn")


def find(driver, css):
    return driver.find_element(By.CSS_SELECTOR, css)


def pay_in(driver, modal, color, wilds):
    wait(driver, lambda d: shown(d, modal), f"the {modal} dialog")
    click(driver, f'#{modal} .payment[data-color="{color}"][data-wilds="{wilds}"]')


def play_move(driver, move, m):
    """Makes `move` with the page's controls and waits for its answer (every
    move adds a line to the history)."""
    before = m["historyLength"]
    kind = move[0]
    if kind == "keep":
        wait(driver, lambda d: shown(d, "offer-modal"), "the ticket offer")
        for i in range(move[1]):
            click(driver, f'#offer-list input[type=checkbox][data-index="{i}"]')
        click(driver, "#offer-submit")
    elif kind in ("give_up", "pay"):
        wait(driver, lambda d: shown(d, "tunnel-modal"), "the tunnel dialog")
        # The cards turned are named in the dialog.
        assert ", ".join(m["tunnel"]["drawnCards"]) in text(driver, "tunnel-detail")
        if kind == "give_up":
            click(driver, "#tunnel-give-up")
        else:
            click(driver, f'#tunnel-options .payment[data-wilds="{move[1]}"]')
    elif kind == "pass":
        click(driver, "#pass-turn")
    elif kind == "station":
        city = next(i for i, c in enumerate(BOARD["cities"]) if c["name"] == move[1])
        click(driver, f'#map circle[data-city-index="{city}"]')
        wait(driver, lambda d: text(d, "station-title") == move[1], "the station dialog")
        assert text(driver, "station-reason") == ""
        pay_in(driver, "station-modal", move[2], move[3])
    elif kind == "claim":
        click(driver, f'#map line.track.claimable[data-route-index="{move[1]}"]')
        wait(driver, lambda d: shown(d, "claim-modal"), "the claim dialog")
        claim = next(c for c in m["claimable"] if c["routeIndex"] == move[1])
        if claim["ferryWilds"]:
            assert f"at least {claim['ferryWilds']} locomotive" in text(driver, "claim-detail")
            # Only payments with the ferry's locomotives are offered.
            assert all(int(b.get_attribute("data-wilds")) >= claim["ferryWilds"]
                       for b in driver.find_elements(By.CSS_SELECTOR, "#claim-modal .payment"))
        if claim["tunnel"]:
            assert "A tunnel" in text(driver, "claim-detail")
        pay_in(driver, "claim-modal", move[2], move[3])
    elif kind in ("face", "deck"):
        if not shown(driver, "panel-board"):
            click(driver, "#tab-board")
        target = "#deck" if kind == "deck" else f'#face-up button[data-index="{move[1]}"]'
        click(driver, target)
    elif kind == "tickets":
        if not shown(driver, "panel-board"):
            click(driver, "#tab-board")
        click(driver, "#destination-deck")
    try:
        wait(driver, lambda d: (lambda x: x is not None and x["historyLength"] > before)(model(d)),
             f"the answer to {move}")
    except Exception:
        x = model(driver)
        print("stuck:", move, x["turn"], x["history"][-4:], text(driver, "error-text"))
        raise


# ---- Scoring, written again from the board file ---------------------------------------


def connected(edges, a, b):
    parent = {}

    def root(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for x, y in edges:
        parent[root(x)] = root(y)
    return root(a) == root(b)


def check_results(final, results):
    """Each player's score, from the final board, the tickets shown at the
    end and the stations: every part and the sum."""
    best = max(r["longestPath"] for r in results["players"])
    for r in results["players"]:
        s = r["playerIndex"]
        owned = [i for i, o in enumerate(final["routes"]) if o == s]
        # A ticket counts the routes the player's stations borrowed too.
        edges = [TRACKS[i][:2] for i in owned] + [(b["start"], b["end"]) for b in r["borrowed"]]
        for b in r["borrowed"]:
            assert b["owner"] != s and final["routes"][b["routeIndex"]] == b["owner"], b
        held = r["completed"] + r["failed"]
        assert all(connected(edges, t["start"], t["end"]) for t in r["completed"]), r
        assert not any(connected(edges, t["start"], t["end"]) for t in r["failed"]), r
        assert r["routePoints"] == sum(TRACKS[i][3] for i in owned), r
        assert r["destinationPoints"] == sum(t["points"] for t in r["completed"]) - sum(
            t["points"] for t in r["failed"]), r
        assert r["stationPoints"] == (STATIONS["points"] * (len(STATIONS["costs"]) - len(r["stations"])))
        assert r["bonusPoints"] == (BOARD["rules"]["longest_path_bonus"] if r["longestPath"] == best else 0)
        assert r["points"] == r["routePoints"] + r["destinationPoints"] + r["stationPoints"] + r["bonusPoints"]
        p = final["players"][s]
        assert p["trainsLeft"] == BOARD["cars"] - sum(TRACKS[i][2] for i in owned)
        assert p["stations"] == r["stations"]
        assert p["destinationCount"] == len(held)


# ---- The test --------------------------------------------------------------------------


def test_europe_rules_in_two_browsers(europe_server, europe_browsers):
    started = time.monotonic()
    server = europe_server
    one, two = europe_browsers
    register(one, server, *USERS[0])
    register(two, server, *USERS[1])

    # Alice creates a Europe game as red and adds a medium (greedy) bot.
    click(one, "#create-game-button")
    wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, '#board-select option[value="europe"]'), "Europe offered")
    Select(find(one, "#board-select")).select_by_value("europe")
    find(one, "#game-name").clear()
    find(one, "#game-name").send_keys("Europe test")
    click(one, '.color-choice[data-color="red"]')
    click(one, "#create-submit")
    wait(one, lambda d: shown(d, "game") and find(d, "#game").get_attribute("data-state") == "open", "the new game")
    game_id = int(find(one, "#game").get_attribute("data-game-id"))
    # The rules are named in the game and in Bruno's lobby before he joins.
    rules = "Rules: 18 tunnels"
    wait(one, lambda d: text(d, "game-rules").startswith(rules), "the rules in the game")
    assert "3 stations worth 4 each" in text(one, "game-rules")
    assert "longest path +10" in text(one, "game-rules") and "ferry tracks" in text(one, "game-rules")
    click(one, "#add-bot-medium")
    wait(one, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 2, "the bot's seat")
    row = f'#joinable-games tbody tr[data-game-id="{game_id}"]'
    wait(two, lambda d: d.find_elements(By.CSS_SELECTOR, row + ' .join-color[data-color="blue"]'), "the game to join")
    assert text(two, "joinable-games").count(rules) == 1
    click(two, row + ' .join-color[data-color="blue"]')
    wait(two, lambda d: shown(d, "game") and find(d, "#game").get_attribute("data-game-id") == str(game_id), "Bruno in")
    wait(one, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 3, "three seats")
    click(one, "#start-game")

    seats = {}
    for d in (one, two):
        wait(d, lambda x: (lambda m: m and m["state"] == "playing" and m["you"] is not None)(model(x)), "the deal")
        seats[model(d)["you"]] = d
    assert sorted(seats) == [0, 2], "alice, the bot, bruno"
    done = {s: dict(given_up=0, paid=0, stations=0, ferries=0, claims=0) for s in seats}
    claimed = {s: [] for s in seats}
    deadline = time.monotonic() + PATIENCE
    while True:
        assert time.monotonic() < deadline, "the game does not end"

        def ready(_):
            ms = {s: model(d) for s, d in seats.items()}
            if any(m["state"] == "over" for m in ms.values()):
                return "over"
            # A seat in a tuple: seat 0 alone would read as "not yet".
            return next((("move", s) for s, m in ms.items() if m["offer"] or my_turn(m)), None)

        try:
            got = wait(one, ready, "a person's move or the end")
        except Exception:
            for x, dr in seats.items():
                mm = model(dr)
                print("seat", x, mm["state"], mm["turn"], mm["history"][-5:], text(dr, "error-text"))
            raise
        if got == "over":
            break
        got = got[1]
        driver, d = seats[got], done[got]
        m = model(driver)
        move = decide(m, d)
        if move[0] == "claim":
            claim = next(c for c in m["claimable"] if c["routeIndex"] == move[1])
            d["claims"] += 1
            d["ferries"] += claim["ferryWilds"] > 0
        play_move(driver, move, m)
        after = model(driver)
        if move[0] == "claim" and after["routes"][move[1]] == got:
            claimed[got].append(move[1])
        elif move[0] == "give_up":
            d["given_up"] += 1
            assert after["routes"][m["tunnel"]["routeIndex"]] is None
        elif move[0] == "pay":
            d["paid"] += 1
            assert after["routes"][m["tunnel"]["routeIndex"]] == got
            claimed[got].append(m["tunnel"]["routeIndex"])
            screenshot(driver, "europe-game.png")
        if move[0] in ("give_up", "pay"):
            # The cards turned, in both pages' history.
            turned = ", ".join(m["tunnel"]["drawnCards"])
            for x in (one, two):
                x_history = lambda b: b.find_element(By.ID, "history").get_attribute("textContent")
                wait(x, lambda b: f"the tunnel turned {turned}" in x_history(b) or f"cards turned, {turned}," in x_history(b),
                     "the turned cards in the history")
        elif move[0] == "station":
            d["stations"] += 1
            assert move[1] in after["players"][got]["stations"]
            # Drawn on both maps, as a house with the owner's initial.
            city = next(i for i, c in enumerate(BOARD["cities"]) if c["name"] == move[1])
            for x in (one, two):
                house = f'#map .station[data-city-index="{city}"][data-owner="{got}"]'
                wait(x, lambda b: b.find_elements(By.CSS_SELECTOR, house), "the station on the map")
                initial = x.execute_script("return document.querySelector(arguments[0]).textContent", house + " text")
                assert initial == USERS[0 if got == 0 else 1][0][0].upper()
            # The other person clicking that city is told why not, and
            # offered no payment.
            other = two if driver is one else one
            click(other, f'#map circle[data-city-index="{city}"]')
            wait(other, lambda b: text(b, "station-title") == move[1], "the station dialog")
            owner = USERS[0 if got == 0 else 1][0]
            assert text(other, "station-reason") == f"{move[1]} already has a station ({owner}'s): one a city."
            assert not other.find_elements(By.CSS_SELECTOR, "#station-options .payment")
            click(other, "#station-cancel")
            wait(other, lambda b: not shown(b, "station-modal"), "the station dialog closed")

    # What the seed and the strategy give: a tunnel given up and one paid,
    # ferries claimed and a station each, all through the page.
    assert sum(d["given_up"] for d in done.values()) >= 1, done
    assert sum(d["paid"] for d in done.values()) >= 1, done
    assert sum(d["ferries"] for d in done.values()) >= 1, done
    assert all(d["stations"] == 1 for d in done.values()), done

    finals = {s: Session(server, d) for s, d in seats.items()}
    try:
        truths = {s: c.ask("sendClientModelInformation", {"gameId": game_id}) for s, c in finals.items()}
    finally:
        for c in finals.values():
            c.close()
    final = truths[0]
    results = final["results"]
    assert final["state"] == "over" and results == truths[2]["results"]
    check_results(final, results)
    # The tracks claimed through the dialogs are the people's.
    for s in seats:
        assert sorted(claimed[s]) == [i for i, o in enumerate(final["routes"]) if o == s]

    # Each page shows the server's last model and results: the station
    # points and the borrowed routes in the table, the marks on the map.
    for s, driver in seats.items():
        wait(driver, lambda d: shown(d, "results") and model(d)["state"] == "over", "the results")
        wait(driver, lambda d: public(model(d)) == public(truths[s]), "the page's model is the server's")
        for r in results["players"]:
            row = find(driver, f'#results tbody tr[data-player-index="{r["playerIndex"]}"]')
            assert int(row.get_attribute("data-station-points")) == r["stationPoints"]
            assert int(row.get_attribute("data-borrowed")) == len(r["borrowed"])
            cells = row.find_elements(By.TAG_NAME, "td")
            assert int(cells[2].text) == r["points"]
            stations = cells[8].text
            assert stations.startswith(str(r["stationPoints"]))
            for city in r["stations"]:
                assert city in stations
            for b in r["borrowed"]:
                assert f'{b["start"]} – {b["end"]}' in stations
        tunnels = driver.find_elements(By.CSS_SELECTOR, "#map line.track[data-tunnel]")
        assert {int(t.get_attribute("data-route-index")) for t in tunnels} == set(final["rules"]["tunnelTracks"])
        marks = {int(x.get_attribute("data-route-index")): int(x.get_attribute("data-wilds"))
                 for x in driver.find_elements(By.CSS_SELECTOR, "#map .ferry-mark")}
        assert marks == {f["routeIndex"]: f["wilds"] for f in final["rules"]["ferryTracks"]}
        houses = {(int(x.get_attribute("data-city-index")), int(x.get_attribute("data-owner")))
                  for x in driver.find_elements(By.CSS_SELECTOR, "#map .station")}
        assert houses == {(next(i for i, c in enumerate(BOARD["cities"]) if c["name"] == n), p["playerId"])
                          for p in final["players"] for n in p["stations"]}
    screenshot(one, "europe-results.png")
    assert time.monotonic() - started < PATIENCE
