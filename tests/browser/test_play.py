"""The online game's page (`ttr-opt play`) in two headless Chromiums: two
people register, one creates a game on a small board and adds a medium
bot, the other joins, and they play it to the end through the page alone
(tickets in the offer dialog, cards from the yard, routes through the
claim dialog), with a chat message and a reload in the middle. Alice
allows the coach when she creates the game and asks it once; after the
end both pages show the review with its curve.

Expected values come from other faces: the server itself, asked over a
WebSocket opened with each browser's own session cookie (the same seat's
model and, at the end, its results), and a scoring of the final board
written here from the board file (route points by the rule card, tickets
by union-find, the longest trail by exhaustive search).

The turn loop adapts to the cards dealt: claim the longest claimable
track if any, else draw (a face-up card, then the deck). With 6 cars each
the game ends after a few rounds, whatever comes up.

TTR_SCREENSHOTS=1 saves login.png, lobby.png, game.png, coach.png,
results.png and review.png into output/play/.
"""

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
import websocket  # websocket-client, which selenium depends on
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / "target" / "release" / "ttr-opt"
SHOTS = ROOT / "output" / "play" if os.environ.get("TTR_SCREENSHOTS") == "1" else None
# Watchdogs, not timings: how long to wait for something that should happen.
PATIENCE = 180
LONGEST_PATH_BONUS = 10

BOARD = {
    "name": "Mini",
    "title": "Mini: six cities for the browser test",
    "cars": 6,
    "route_points": {"1": 1, "2": 2, "3": 4},
    "cities": [
        {"name": "Amber", "x": 100, "y": 100},
        {"name": "Birch", "x": 400, "y": 80},
        {"name": "Cedar", "x": 700, "y": 120},
        {"name": "Dune", "x": 150, "y": 400},
        {"name": "Elm", "x": 430, "y": 360},
        {"name": "Fjord", "x": 720, "y": 420},
    ],
    "routes": [
        {"from": "Amber", "to": "Birch", "length": 2, "tracks": ["gray"]},
        {"from": "Birch", "to": "Cedar", "length": 3, "tracks": ["red"]},
        {"from": "Amber", "to": "Dune", "length": 2, "tracks": ["gray", "gray"]},
        {"from": "Dune", "to": "Elm", "length": 2, "tracks": ["blue"]},
        {"from": "Elm", "to": "Fjord", "length": 2, "tracks": ["gray"]},
        {"from": "Birch", "to": "Elm", "length": 1, "tracks": ["gray"]},
        {"from": "Cedar", "to": "Fjord", "length": 2, "tracks": ["green"]},
        {"from": "Amber", "to": "Elm", "length": 3, "tracks": ["gray"]},
        {"from": "Cedar", "to": "Elm", "length": 1, "tracks": ["gray"]},
        {"from": "Dune", "to": "Fjord", "length": 3, "tracks": ["gray"]},
    ],
    "tickets": [
        {"from": "Amber", "to": "Cedar", "points": 6},
        {"from": "Amber", "to": "Fjord", "points": 7},
        {"from": "Birch", "to": "Dune", "points": 4},
        {"from": "Birch", "to": "Fjord", "points": 5},
        {"from": "Cedar", "to": "Dune", "points": 6},
        {"from": "Dune", "to": "Elm", "points": 2},
        {"from": "Amber", "to": "Birch", "points": 2},
        {"from": "Cedar", "to": "Elm", "points": 3},
        {"from": "Elm", "to": "Amber", "points": 4},
        {"from": "Birch", "to": "Cedar", "points": 3},
        # Twelve tickets deal four players: the server seats no more than
        # a board deals, and deals a table once it is full, so with ten
        # (three seats) Bruno's joining would start the game itself.
        {"from": "Amber", "to": "Dune", "points": 2},
        {"from": "Elm", "to": "Fjord", "points": 2},
    ],
}
# routeIndex -> (city a, city b, length, points): every track in file order.
TRACKS = [
    (r["from"], r["to"], r["length"], BOARD["route_points"][str(r["length"])])
    for r in BOARD["routes"]
    for _ in r["tracks"]
]
USERS = [("alice", "correct horse 1"), ("bruno", "correct horse 2")]


# ---- Fixtures ------------------------------------------------------------------


@pytest.fixture(scope="module")
def board_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("board") / "mini.json"
    path.write_text(json.dumps(BOARD, indent=1))
    # The command line accepts the board (and it is a real one: 6 cars
    # reach tickets).
    out = subprocess.run(
        [str(BINARY), "solve", "--board", str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Optimal score" in out.stdout
    return path


@pytest.fixture(scope="module")
def server(board_file, tmp_path_factory):
    db = tmp_path_factory.mktemp("play") / "t.db"
    process = subprocess.Popen(
        [str(BINARY), "play", "--db", str(db), "--port", "0", "--bot-delay", "200",
         "--board", str(board_file)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    assert "http://" in line, line + process.stderr.read()
    address = line.split("http://")[1].split()[0].rstrip("/")
    yield "http://" + address
    process.send_signal(2)  # Ctrl-C: a clean stop
    assert process.wait(timeout=60) == 0


def chromium(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,900",
        f"--user-data-dir={profile}",  # its own cookies
    ]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The page itself 1400 x 900, whatever the window's frame takes.
    width, height = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * 1400 - width, 2 * 900 - height)
    return driver


@pytest.fixture(scope="module")
def browsers(tmp_path_factory):
    drivers = []
    try:
        for name in ("one", "two"):
            drivers.append(chromium(tmp_path_factory.mktemp("profile-" + name)))
        yield drivers
    finally:
        for d in drivers:
            d.quit()


# ---- Helpers -------------------------------------------------------------------------


def wait(driver, condition, what):
    return WebDriverWait(driver, PATIENCE, poll_frequency=0.1).until(
        lambda d: condition(d), message=what
    )


def shown(driver, element_id):
    found = driver.find_elements(By.ID, element_id)
    return bool(found) and found[0].is_displayed()


def text(driver, element_id):
    found = driver.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def model(driver):
    """The page's last model (window.play.model), or None."""
    return json.loads(
        driver.execute_script("return window.play ? JSON.stringify(window.play.model) : 'null'")
    )


def screenshot(driver, name):
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SHOTS / name))


class Session:
    """A WebSocket to the server opened with a browser's session cookie: the
    same user and session as that browser, so the same seat's view."""

    def __init__(self, server, driver):
        cookie = driver.get_cookie("ttr_session")
        assert cookie and cookie["httpOnly"], cookie
        self.ws = websocket.create_connection(
            server.replace("http://", "ws://") + "/ws",
            cookie=f"ttr_session={cookie['value']}",
            timeout=PATIENCE,
        )
        self.next = 1

    def ask(self, command, parameters):
        self.next += 1
        self.ws.send(json.dumps({"command": command, "parameters": parameters, "id": self.next}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("command") == "session":
                assert message["output"]["username"], "the cookie is a valid session"
            if message.get("id") == self.next:
                return message["output"]

    def close(self):
        self.ws.close()


def truth(server, driver, game_id):
    """The server's model of the game for this browser's user."""
    session = Session(server, driver)
    try:
        out = session.ask("sendClientModelInformation", {"gameId": game_id})
    finally:
        session.close()
    assert out["description"] == "success", out
    return out


def public(m):
    """A model without chat timestamps (the page adds pushed lines without them)."""
    m = json.loads(json.dumps(m))
    m["chat"] = [(c["sender"], c["message"]) for c in m.get("chat") or []]
    return m


def my_turn(m):
    return bool(
        m and m["state"] == "playing" and m["turn"] and m["turn"]["phase"] != "setup"
        and m["turn"]["playerId"] == m["you"]
    )


def register(driver, server, username, password):
    driver.get(server + "/")
    wait(driver, lambda d: shown(d, "auth") and text(d, "status") == "connected", "the login view")
    driver.find_element(By.ID, "register-username").send_keys(username)
    driver.find_element(By.ID, "register-password").send_keys(password)
    driver.find_element(By.ID, "register-confirm").send_keys(password)
    driver.find_element(By.ID, "register-submit").click()
    wait(driver, lambda d: shown(d, "lobby"), f"{username} reaches the lobby")
    wait(driver, lambda d: text(d, "user") == f"Logged in as {username}", "the header names the user")
    wait(driver, lambda d: text(d, "status") == "connected", "the socket logged in by cookie")


def check_secrets(server, driver, game_id):
    """What this browser shows is its own seat's view, as the server gives
    it to this session: its hand and tickets, only counts of the others'."""
    server_m = truth(server, driver, game_id)
    # The page may still be taking in the last push: wait for it, then
    # the page's model is the server's, field for field.
    wait(driver, lambda d: public(model(d)) == public(server_m), "the page's model is the server's")
    m = model(driver)
    you = m["you"]
    for p in m["players"]:
        assert ("cards" in p) == (p["playerId"] == you), p
        li = driver.find_element(By.CSS_SELECTOR, f'#players li[data-player-id="{p["playerId"]}"]')
        assert int(li.get_attribute("data-cards")) == p["cardCount"]
        assert int(li.get_attribute("data-trains")) == p["trainsLeft"]
        assert int(li.get_attribute("data-points")) == p["points"]
        assert not li.find_elements(By.CSS_SELECTOR, ".card, [data-count]")
    mine = {c["color"]: c["amount"] for c in m["players"][you]["cards"]}
    hand = {
        li.get_attribute("data-color"): int(li.get_attribute("data-count"))
        for li in driver.find_elements(By.CSS_SELECTOR, "#hand li")
    }
    assert {c: n for c, n in hand.items() if n} == {c: n for c, n in mine.items() if n}
    assert sum(hand.values()) == m["players"][you]["cardCount"]
    # Tickets: its own, with the server's completion marks.
    rows = driver.find_elements(By.CSS_SELECTOR, "#tickets tbody tr[data-completed]")
    assert [r.get_attribute("data-completed") == "true" for r in rows] == [
        t["completed"] for t in m["cities"]
    ]
    assert len(rows) == m["players"][you]["destinationCount"]
    # The map's claimable tracks are the server's, and only on one's turn.
    claimable = {
        int(e.get_attribute("data-route-index"))
        for e in driver.find_elements(By.CSS_SELECTOR, "#map line.track.claimable")
    }
    assert claimable == {c["routeIndex"] for c in m["claimable"]}
    if not my_turn(m):
        assert not claimable
    claimed = {
        int(e.get_attribute("data-route-index")): int(e.get_attribute("data-owner"))
        for e in driver.find_elements(By.CSS_SELECTOR, "#map line.track.claimed")
    }
    assert claimed == {i: o for i, o in enumerate(m["routes"]) if o is not None}
    return m


def moved(driver, before):
    """Waits for the model after this browser's move (every move adds a
    line to the history)."""
    wait(
        driver,
        lambda d: (lambda m: m is not None and len(m["history"]) > before)(model(d)),
        "the move is answered",
    )


def take_turn(driver):
    """One move on this browser's turn, as a player would: claim the longest
    claimable track, else draw a card. Returns the track claimed, if any."""
    m = model(driver)
    before = len(m["history"])
    phase = m["turn"]["phase"]
    if m["canPass"]:
        driver.find_element(By.ID, "pass-turn").click()
        moved(driver, before)
        return None
    if phase == "turn" and m["claimable"]:
        index = max(
            (c["routeIndex"] for c in m["claimable"]), key=lambda i: (TRACKS[i][2], -i)
        )
        driver.find_element(
            By.CSS_SELECTOR, f'#map line.track.claimable[data-route-index="{index}"]'
        ).click()
        wait(driver, lambda d: shown(d, "claim-modal"), "the claim dialog")
        a, b, length, _ = TRACKS[index]
        assert text(driver, "claim-title") == f"{a} – {b}"
        payments = driver.find_elements(By.CSS_SELECTOR, "#claim-modal .payment")
        assert payments, "a claimable track has a way to pay"
        payments[0].click()
        moved(driver, before)
        after = model(driver)
        assert after["routes"][index] == m["you"], "the track is ours"
        me_before, me_after = m["players"][m["you"]], after["players"][m["you"]]
        assert me_after["trainsLeft"] == me_before["trainsLeft"] - length
        assert me_after["cardCount"] == me_before["cardCount"] - length
        assert not shown(driver, "claim-modal")
        return index
    if phase in ("turn", "secondCard"):
        # The train yard sits beside the hand, always shown.
        wait(driver, lambda d: shown(d, "panel-board"), "the train yard")
        yard = [b for b in driver.find_elements(By.CSS_SELECTOR, "#face-up button.card") if b.is_enabled()]
        assert all(b.get_attribute("data-color") != "none" for b in yard)
        if phase == "secondCard":
            assert all(b.get_attribute("data-color") != "wild" for b in yard), "no locomotive second"
        trains = [b for b in yard if b.get_attribute("data-color") != "wild"]
        deck = driver.find_element(By.ID, "deck")
        # The first card face up, the second from the deck, when they can be.
        choices = (trains + [deck] if phase == "turn" else [deck] + trains) + yard
        target = next(b for b in choices if b.is_enabled())
        color = target.get_attribute("data-color")
        target.click()
        moved(driver, before)
        after = model(driver)
        me_after = after["players"][after["you"]]
        assert me_after["cardCount"] == m["players"][m["you"]]["cardCount"] + 1
        if color:  # a face-up card: that colour, one more in the hand
            count = lambda mm, c: sum(x["amount"] for x in mm["players"][mm["you"]]["cards"] if x["color"] == c)
            assert count(after, color) == count(m, color) + 1
        return None
    raise AssertionError(f"unexpected phase {phase}: {m['turn']}")


# ---- Scoring, written again from the board file ----------------------------------------


def connected(routes, a, b):
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i in routes:
        x, y, _, _ = TRACKS[i]
        parent[find(x)] = find(y)
    return find(a) == find(b)


def longest_trail(routes):
    def walk(at, used):
        best = 0
        for i in routes:
            if i in used:
                continue
            x, y, length, _ = TRACKS[i]
            if at in (x, y):
                best = max(best, length + walk(y if at == x else x, used | {i}))
        return best

    cities = {c for i in routes for c in TRACKS[i][:2]}
    return max((walk(c, frozenset()) for c in cities), default=0)


def expected_results(final, results):
    """Every player's score from the final board and the tickets shown at
    the end, scored here."""
    owned = {p["playerId"]: [i for i, o in enumerate(final["routes"]) if o == p["playerId"]]
             for p in final["players"]}
    longest = {s: longest_trail(r) for s, r in owned.items()}
    best = max(longest.values())
    out = {}
    for r in results["players"]:
        s = r["playerIndex"]
        held = r["completed"] + r["failed"]
        completed = [t for t in held if connected(owned[s], t["start"], t["end"])]
        failed = [t for t in held if not connected(owned[s], t["start"], t["end"])]
        route_points = sum(TRACKS[i][3] for i in owned[s])
        ticket_points = sum(t["points"] for t in completed) - sum(t["points"] for t in failed)
        bonus = LONGEST_PATH_BONUS if best > 0 and longest[s] == best else 0
        out[s] = {
            "routePoints": route_points,
            "destinationPoints": ticket_points,
            "longestPath": longest[s],
            "longestRouteRecipient": bonus > 0,
            "points": route_points + ticket_points + bonus,
            "completed": sorted(t["label"] for t in completed),
            "failed": sorted(t["label"] for t in failed),
            "cars": sum(TRACKS[i][2] for i in owned[s]),
        }
    return out


# ---- The test ----------------------------------------------------------------------------


def test_a_game_in_two_browsers(server, browsers):
    started = time.monotonic()
    one, two = browsers

    # 1-2. Two people register, each in their own browser.
    one.get(server + "/")
    wait(one, lambda d: shown(d, "auth") and text(d, "status") == "connected", "the login view")
    screenshot(one, "login.png")
    register(one, server, *USERS[0])
    register(two, server, *USERS[1])
    assert one.get_cookie("ttr_session")["value"] != two.get_cookie("ttr_session")["value"]

    # 3. Alice creates a game on the board from the file, as red.
    one.find_element(By.ID, "create-game-button").click()
    wait(one, lambda d: shown(d, "create-game"), "the Create Game overlay")
    wait(
        one,
        lambda d: d.find_elements(By.CSS_SELECTOR, '#board-select option[value="mini"]'),
        "the board file in the board list",
    )
    Select(one.find_element(By.ID, "board-select")).select_by_value("mini")
    name = one.find_element(By.ID, "game-name")
    name.clear()
    name.send_keys("Friday test")
    one.find_element(By.CSS_SELECTOR, '.color-choice[data-color="red"]').click()
    coach_box = one.find_element(By.ID, "create-coach")
    assert not coach_box.is_selected(), "the coach is off unless the creator allows it"
    coach_box.click()
    one.find_element(By.ID, "create-submit").click()
    wait(one, lambda d: shown(d, "game") and d.find_element(By.ID, "game").get_attribute("data-state") == "open",
         "the new game's view")
    game_id = int(one.find_element(By.ID, "game").get_attribute("data-game-id"))
    assert one.execute_script("return location.hash") == f"#game={game_id}"
    assert not shown(one, "create-game")

    # ... and adds a medium (greedy) bot.
    one.find_element(By.ID, "add-bot-medium").click()
    wait(one, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 2, "the bot's seat")
    bot = one.find_element(By.CSS_SELECTOR, "#players li.bot")
    bot_seat = int(bot.get_attribute("data-player-id"))
    bot_color = bot.get_attribute("data-color")

    # Bruno sees it among the games to join, without the colours taken.
    row = f'#joinable-games tbody tr[data-game-id="{game_id}"]'
    wait(two, lambda d: d.find_elements(By.CSS_SELECTOR, row), "the game in Bruno's joinable list")
    wait(two, lambda d: len(d.find_elements(By.CSS_SELECTOR, row + " .join-color")) == 3,
         "the bot's colour taken in Bruno's list")
    colors = [b.get_attribute("data-color") for b in two.find_elements(By.CSS_SELECTOR, row + " .join-color")]
    assert "red" not in colors and bot_color not in colors
    assert "Friday test" in two.find_element(By.CSS_SELECTOR, row).text
    assert "Mini" in two.find_element(By.CSS_SELECTOR, row).text
    screenshot(two, "lobby.png")
    two.find_element(By.CSS_SELECTOR, f'{row} .join-color[data-color="{colors[0]}"]').click()
    wait(two, lambda d: shown(d, "game") and d.find_element(By.ID, "game").get_attribute("data-game-id") == str(game_id),
         "Bruno in the game")
    wait(one, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 3, "Bruno's seat at Alice's")
    # Only the creator starts.
    assert not shown(two, "start-game")

    # Alice starts it; both choose tickets in the offer dialog.
    one.find_element(By.ID, "start-game").click()
    for driver, keep in ((one, 3), (two, 2)):
        wait(driver, lambda d: shown(d, "offer-modal"), "the first tickets offered")
        boxes = driver.find_elements(By.CSS_SELECTOR, "#offer-list input[type=checkbox]")
        assert len(boxes) == 3 and text(driver, "offer-min") == "2"
        boxes[0].click()
        assert not driver.find_element(By.ID, "offer-submit").is_enabled(), "one ticket is too few"
        for box in boxes[1:keep]:
            box.click()
        driver.find_element(By.ID, "offer-submit").click()
        wait(driver, lambda d: not shown(d, "offer-modal"), "the tickets kept")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tickets tbody tr[data-completed]")) == keep,
             "the kept tickets in the hand")
    for driver in (one, two):
        wait(driver, lambda d: (lambda m: m and m["turn"] and m["turn"]["phase"] != "setup")(model(d)),
             "every player chose (the bot too)")
    seats = {model(one)["you"]: one, model(two)["you"]: two}
    assert set(seats) | {bot_seat} == {0, 1, 2}

    # 5-7. Turns until the game ends: each browser moves on its own turn,
    # the bot by itself.
    claims = {0: [], 1: [], 2: []}
    chatted = reloaded = coached = False
    message = "good luck, bruno!"
    deadline = time.monotonic() + PATIENCE
    while True:
        assert time.monotonic() < deadline, "the game does not end"

        def ready(_):
            ms = {s: model(d) for s, d in seats.items()}
            if any(m["state"] == "over" for m in ms.values()):
                return "over"
            return next((("turn", s) for s, m in ms.items() if my_turn(m)), None)

        got = wait(one, ready, "a person's turn or the end")
        if got == "over":
            break
        who = got[1]
        driver = seats[who]
        other = two if driver is one else one
        m = check_secrets(server, driver, game_id)
        check_secrets(server, other, game_id)
        if SHOTS and driver is one and sum(r is not None for r in m["routes"]) >= 2:
            driver.find_element(By.ID, "tab-hand").click()
            screenshot(one, "game.png")

        # Chat, once a route is on the board.
        if not chatted and driver is one and any(r is not None for r in m["routes"]):
            one.find_element(By.ID, "tab-history").click()
            one.find_element(By.ID, "chat-input").send_keys(message)
            one.find_element(By.ID, "chat-send").click()
            two.find_element(By.ID, "tab-history").click()
            wait(two, lambda d: f"alice: {message}" in text(d, "chat"), "the message at Bruno's")
            wait(one, lambda d: f"alice: {message}" in text(d, "chat"), "the message at Alice's")
            chatted = True

        # Alice asks the coach once: its plan is the server's answer for her
        # seat, drawn on the map and listed.
        if not coached and driver is one:
            assert m["coach"] is True and shown(one, "coach-button")
            one.find_element(By.ID, "coach-button").click()
            wait(one, lambda d: d.find_element(By.ID, "coach-panel").get_attribute("data-score") not in (None, ""),
                 "the coach's plan")
            session = Session(server, one)
            try:
                advice = session.ask("getCoach", {"gameId": game_id})
            finally:
                session.close()
            assert advice["description"] == "success", advice
            panel = one.find_element(By.ID, "coach-panel")
            assert int(panel.get_attribute("data-score")) == advice["score"]
            assert panel.get_attribute("data-proven") == "true"
            assert str(advice["score"]) in text(one, "coach-summary")
            items = one.find_elements(By.CSS_SELECTOR, "#coach-routes li")
            assert [li.text.split(" (")[0] for li in items] == [r["label"] for r in advice["claim"]]
            drawn = {int(e.get_attribute("data-route-index"))
                     for e in one.find_elements(By.CSS_SELECTOR, "#map line.coach-plan")}
            assert drawn == {i for r in advice["claim"] for i in r["routeIndexes"]
                             if m["routes"][i] is None}
            # Its routes are open, and fit the cars left.
            assert all(m["routes"][i] is None for r in advice["claim"] for i in r["routeIndexes"][:1])
            assert advice["carsNeeded"] <= m["players"][m["you"]]["trainsLeft"]
            screenshot(one, "coach.png")
            coached = True

        # Bruno reloads on his turn, and is back in the game by himself.
        if not reloaded and chatted and driver is two:
            hand_before = model(two)["players"][who]["cards"]
            two.refresh()
            wait(two, lambda d: shown(d, "game") and text(d, "status") == "connected", "the game after the reload")
            wait(two, lambda d: my_turn(model(d)), "Bruno's turn again")
            assert two.execute_script("return location.hash") == f"#game={game_id}"
            assert two.find_element(By.ID, "game").get_attribute("data-game-id") == str(game_id)
            assert model(two)["players"][who]["cards"] == hand_before
            wait(two, lambda d: f"alice: {message}" in (d.find_element(By.ID, "chat").get_attribute("textContent")),
                 "the chat kept")
            check_secrets(server, two, game_id)
            reloaded = True

        claimed = take_turn(driver)
        if claimed is not None:
            claims[who].append(claimed)

    assert chatted and reloaded and coached, "the game ended before the chat, the reload and the coach"

    # 8. The end: both browsers show the results.
    for driver in (one, two):
        wait(driver, lambda d: shown(d, "results"), "the results")
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#results tbody tr[data-player-index]")) == 3,
             "a row per player")
        wait(driver, lambda d: model(d)["state"] == "over", "the last model")
    finals = {s: truth(server, d, game_id) for s, d in seats.items()}
    results = finals[model(one)["you"]]["results"]
    assert results and results == finals[model(two)["you"]]["results"]
    final = finals[model(one)["you"]]
    assert final["state"] == "over" and final["turn"] is None

    # The server's scores are the rules' scores, recomputed here.
    expected = expected_results(final, results)
    for r in results["players"]:
        e = expected[r["playerIndex"]]
        for key in ("routePoints", "destinationPoints", "longestPath", "longestRouteRecipient", "points"):
            assert r[key] == e[key], (r["username"], key, r[key], e)
        assert sorted(t["label"] for t in r["completed"]) == e["completed"]
        assert sorted(t["label"] for t in r["failed"]) == e["failed"]
        p = final["players"][r["playerIndex"]]
        assert p["points"] == r["routePoints"]
        assert p["trainsLeft"] == BOARD["cars"] - e["cars"]
        assert p["destinationCount"] == len(r["completed"]) + len(r["failed"])
    # Someone ended the game with 2 cars or fewer; the bot played too.
    assert min(p["trainsLeft"] for p in final["players"]) <= 2
    assert any(l.startswith("Bot 1 (medium) ") for l in final["history"])
    # The claims made through the claim dialog are the people's routes.
    for s in seats:
        assert sorted(claims[s]) == [i for i, o in enumerate(final["routes"]) if o == s]
    assert final["history"][-1] == "The game is over: " + ", ".join(
        f'{p["username"]} {next(r["points"] for r in results["players"] if r["playerIndex"] == p["playerId"])}'
        for p in final["players"]
    )

    # Each page's table is the server's results, best first, and its model
    # the server's last one.
    for s, driver in seats.items():
        assert public(model(driver)) == public(finals[s])
        rows = driver.find_elements(By.CSS_SELECTOR, "#results tbody tr[data-player-index]")
        ranked = sorted(results["players"], key=lambda r: -r["points"])
        assert [int(r.get_attribute("data-player-index")) for r in rows] == [r["playerIndex"] for r in ranked]
        for rank, (row, r) in enumerate(zip(rows, ranked), 1):
            cells = [c.text for c in row.find_elements(By.TAG_NAME, "td")]
            assert cells[0] == str(rank)
            assert cells[1] == r["username"]
            assert int(cells[2]) == r["points"]
            assert int(cells[3]) == r["routePoints"]
            assert int(cells[4]) == r["destinationPoints"]
            assert cells[5].replace("★", "").strip() == str(r["longestPath"])
            assert ("★" in cells[5]) == r["longestRouteRecipient"]
            assert int(r["points"]) == r["routePoints"] + r["destinationPoints"] + (
                LONGEST_PATH_BONUS if r["longestRouteRecipient"] else 0)
            assert cells[6].split(":")[0].strip() == str(len(r["completed"]))
            assert cells[7].split(":")[0].strip() == str(len(r["failed"]))
            # Every hand of tickets is shown now.
            for t in r["completed"]:
                assert t["label"] in cells[6]
            for t in r["failed"]:
                assert t["label"] in cells[7]
        players = {
            int(li.get_attribute("data-player-id")): int(li.get_attribute("data-points"))
            for li in driver.find_elements(By.CSS_SELECTOR, "#players li")
        }
        assert players == {r["playerIndex"]: r["routePoints"] for r in results["players"]}
        assert text(driver, "turn-info") == "Game over"
    screenshot(one, "results.png")

    # 9. The review, on both pages: a curve per player with a point per
    # turn, as the server reviews the game.
    session = Session(server, one)
    try:
        review = session.ask("getReview", {"gameId": game_id})
    finally:
        session.close()
    assert review["description"] == "success", review
    players = review["review"]["players"]
    assert len(players) == 3
    for s, driver in seats.items():
        wait(driver, lambda d: d.find_element(By.ID, "review").get_attribute("data-state") == "done", "the review")
        for p in players:
            line = driver.find_element(By.CSS_SELECTOR, f'#review-curve polyline[data-player-id="{p["seat"]}"]')
            points = line.get_attribute("points").split()
            assert len(points) == len(p["turns"]) > 0
            li = driver.find_element(By.CSS_SELECTOR, f'#review-players li[data-player-id="{p["seat"]}"]')
            assert int(li.get_attribute("data-final")) == p["network_score"]
            assert int(li.get_attribute("data-single")) == p["single_player_optimum"]
            losses = li.find_elements(By.CSS_SELECTOR, ".loss")
            assert [l.text for l in losses] == [c["text"] for c in p["costliest"]]
            # The review's final score is the game's, the bonus aside.
            r = next(r for r in results["players"] if r["playerIndex"] == p["seat"])
            bonus = LONGEST_PATH_BONUS if r["longestRouteRecipient"] else 0
            assert p["network_score"] == r["points"] - bonus
    one.execute_script("document.getElementById('review').scrollIntoView()")
    screenshot(one, "review.png")
    assert time.monotonic() - started < PATIENCE
