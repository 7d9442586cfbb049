"""The play page's accessibility and layout (issue 57), as a player sees
them, on the USA board against an easy bot:

- seats differ by more than colour: the lobby's colour buttons carry their
  names, each player's card a pattern and initial, and the claimed tracks
  of two seats different dash patterns;
- "claimed by you" on one's own track; uploaded boards of one name told
  apart; an upload error names the file once;
- the ticket choice covers neither the map nor the hand; the draw controls
  sit beside the hand; notices never cover the coach's panel; the coach's
  highlight is no seat's colour;
- the city names on the USA map inside the map and pairwise apart;
- at 390 px wide nothing is wider than the screen and the map's names are
  readable;
- while the server is down the controls are disabled, and the "not
  connected" error clears once the page has reconnected by itself.

The helpers are test_play.py's.
"""

import json
import signal
import socket
import subprocess
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_play import BINARY, BOARD, PATIENCE, chromium, model, my_turn, register, shown, text, wait

SEAT_HEX = {"yellow": "#e9c400", "black": "#222", "red": "#d62828", "blue": "#1d5fd1", "green": "#2a9d4b"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`ttr-opt play` on a fixed port, so that it can be stopped and
    started again on the same database (the page reconnects by itself)."""

    def __init__(self, db):
        self.db, self.port, self.process = db, free_port(), None

    def start(self):
        self.process = subprocess.Popen(
            [str(BINARY), "play", "--db", str(self.db), "--port", str(self.port), "--bot-delay", "100",
             "--deal-seed", "11"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.process.stdout.readline()
        assert "http://" in line, line + self.process.stderr.read()
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def ui(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("ui") / "t.db")
    url = server.start()
    driver = chromium(tmp_path_factory.mktemp("profile-ui"))
    state = {"server": server, "url": url, "driver": driver, "tmp": tmp_path_factory}
    try:
        yield state
    finally:
        driver.quit()
        if server.process.poll() is None:
            server.stop()


def js_click(driver, element):
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element)


def rect(driver, css):
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null;"
        "const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];", css)


def meet(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_lobby_labels_and_uploads(ui):
    driver, url = ui["driver"], ui["url"]
    register(driver, url, "carol", "correct horse 3")
    driver.find_element(By.ID, "create-game-button").click()
    wait(driver, lambda d: shown(d, "create-game"), "the Create Game overlay")
    # Each colour is named in words, not only shown.
    for b in driver.find_elements(By.CSS_SELECTOR, ".color-choice"):
        assert b.text.strip().lower() == b.get_attribute("data-color") == b.get_attribute("aria-label")

    # Two boards of one name uploaded: the list tells them apart.
    paths = []
    for i in range(2):
        path = ui["tmp"].mktemp(f"up{i}") / "mini.json"
        path.write_text(json.dumps(BOARD))
        paths.append(path)
    for path in paths:
        before = len(driver.find_elements(By.CSS_SELECTOR, "#board-select option"))
        driver.find_element(By.ID, "board-upload").send_keys(str(path))
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board-select option")) == before + 1,
             "the uploaded board listed")
    minis = [o.text for o in driver.find_elements(By.CSS_SELECTOR, "#board-select option") if o.text.startswith("Mini")]
    assert len(minis) == 2 and minis[0] != minis[1], minis

    # A refused upload names the file once.
    bad = ui["tmp"].mktemp("bad") / "broken.json"
    bad.write_text('{"name": "Broken", "cities": []}')
    driver.find_element(By.ID, "board-upload").send_keys(str(bad))
    wait(driver, lambda d: text(d, "create-error"), "the upload refused")
    assert text(driver, "create-error").count("broken.json") <= 1, text(driver, "create-error")

    # A USA game with the coach, as yellow (the colour the coach once used).
    Select(driver.find_element(By.ID, "board-select")).select_by_value("usa")
    name = driver.find_element(By.ID, "game-name")
    name.clear()
    name.send_keys("UI test")
    driver.find_element(By.CSS_SELECTOR, '.color-choice[data-color="yellow"]').click()
    driver.find_element(By.ID, "create-coach").click()
    driver.find_element(By.ID, "create-submit").click()
    wait(driver, lambda d: shown(d, "game") and d.find_element(By.ID, "game").get_attribute("data-state") == "open",
         "the new game")
    ui["game"] = int(driver.find_element(By.ID, "game").get_attribute("data-game-id"))

    # Another player sees it with seat buttons named by their colour.
    other = chromium(ui["tmp"].mktemp("profile-dave"))
    try:
        register(other, url, "dave", "correct horse 4")
        row = f'#joinable-games tbody tr[data-game-id="{ui["game"]}"]'
        wait(other, lambda d: d.find_elements(By.CSS_SELECTOR, row + " .join-color"), "the game to join")
        buttons = other.find_elements(By.CSS_SELECTOR, row + " .join-color")
        assert len(buttons) == 4
        for b in buttons:
            color = b.get_attribute("data-color")
            assert b.text.strip().lower() == color and color in b.get_attribute("aria-label")
        # The creator's seat in the lobby shows its mark (pattern and initial).
        assert other.find_element(By.CSS_SELECTOR, row + " .seat-mark .initial").get_attribute("data-initial") == "C"
    finally:
        other.quit()


def test_a_game_as_a_player_sees_it(ui):
    driver = ui["driver"]
    driver.find_element(By.ID, "add-bot-easy").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 2, "the bot's seat")
    driver.find_element(By.ID, "start-game").click()

    # The ticket choice covers neither the map nor the hand.
    wait(driver, lambda d: shown(d, "offer-modal"), "the first tickets")
    offer = rect(driver, "#offer-modal")
    for css in ("#map-wrap", "#panel-hand", "#panel-board"):
        assert not meet(offer, rect(driver, css)), css
    # The draw controls beside the hand, both shown at once.
    assert shown(driver, "panel-board") and shown(driver, "panel-hand")
    boxes = driver.find_elements(By.CSS_SELECTOR, "#offer-list input[type=checkbox]")
    for box in boxes[:2]:
        box.click()
    driver.find_element(By.ID, "offer-submit").click()
    wait(driver, lambda d: not shown(d, "offer-modal"), "the tickets kept")

    # City names on the USA map: inside it, and pairwise apart.
    boxes = driver.execute_script("""
        const svg = document.getElementById('map');
        const v = svg.viewBox.baseVal;
        return [[v.x, v.y, v.x + v.width, v.y + v.height],
                [...svg.querySelectorAll('text.city')].map((t) => {
                  const b = t.getBBox(); return [t.textContent, b.x, b.y, b.x + b.width, b.y + b.height]; })];""")
    view, labels = boxes
    assert len(labels) == 36
    for name, *b in labels:
        assert view[0] <= b[0] and b[2] <= view[2] and view[1] <= b[1] and b[3] <= view[3], (name, b, view)
    for i, (n1, *a) in enumerate(labels):
        for n2, *b in labels[i + 1:]:
            assert not meet(a, b), (n1, n2)

    # Turns until both seats have a track: claim when one can, else draw.
    wait(driver, lambda d: (lambda m: m and m["turn"] and m["turn"]["phase"] != "setup")(model(d)), "play")
    coached = False
    notices_seen = 0
    deadline = time.monotonic() + PATIENCE
    while True:
        assert time.monotonic() < deadline, "no claims by both seats"
        m = model(driver)
        owners = {o for o in m["routes"] if o is not None}
        # No notice over the coach's panel, whenever both are shown (checked
        # before the loop may end: the last claim's notice counts too).
        if coached:
            panel = rect(driver, "#coach-panel")
            # Read in one script: a notice found by one call could fade
            # before the next (a stale element under a loaded machine).
            shown_notices = driver.execute_script("""
                return [...document.querySelectorAll('#notices .notice')].map((n) => {
                  const r = n.getBoundingClientRect(); return [n.textContent, [r.left, r.top, r.right, r.bottom]]; });""")
            for text_, r in shown_notices:
                notices_seen += 1
                assert not meet(r, panel), (text_, r, panel)
        if len(owners) == 2:
            break
        if not my_turn(m):
            time.sleep(0.1)
            continue
        if not coached:
            driver.find_element(By.ID, "coach-button").click()
            wait(driver, lambda d: d.find_element(By.ID, "coach-panel").get_attribute("data-score") not in (None, ""),
                 "the coach's plan")
            # The coach's highlight on the map is no seat's colour.
            strokes = driver.execute_script("""
                const out = [];
                for (const l of document.querySelectorAll('#map line.coach-plan')) {
                  for (const u of document.querySelectorAll('#map line:not(.route)')) {
                    if (['x1','y1','x2','y2'].every((k) => u.getAttribute(k) === l.getAttribute(k))) out.push(u.getAttribute('stroke'));
                  }
                }
                return out;""")
            assert strokes, "the plan's tracks are highlighted"
            assert not set(s.lower() for s in strokes) & set(SEAT_HEX.values()), strokes
            border = driver.execute_script("return getComputedStyle(document.getElementById('coach-panel')).borderTopColor")
            assert border not in ("rgb(233, 196, 0)", "rgb(255, 191, 0)"), border
            coached = True
        before = m["historyLength"]
        mine = [c["routeIndex"] for c in m["claimable"]] if m["turn"]["phase"] == "turn" else []
        if mine and m["you"] not in owners:
            track = driver.find_element(By.CSS_SELECTOR, f'#map line.track.claimable[data-route-index="{mine[0]}"]')
            js_click(driver, track)
            wait(driver, lambda d: shown(d, "claim-modal"), "the claim dialog")
            driver.find_elements(By.CSS_SELECTOR, "#claim-modal .payment")[0].click()
        else:
            driver.find_element(By.ID, "deck").click()
        wait(driver, lambda d: model(d)["historyLength"] > before or not my_turn(model(d)), "the move answered")
    assert notices_seen, "notices came while the coach's panel was shown"

    # Two seats' tracks: different dash patterns; one's own says "you".
    m = model(driver)
    you = m["you"]
    seen = {}
    for line in driver.find_elements(By.CSS_SELECTOR, "#map line.track.claimed"):
        owner = int(line.get_attribute("data-owner"))
        seen.setdefault(owner, (line.get_attribute("data-pattern"), line.get_attribute("stroke-dasharray")))
        title = line.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        if owner == you:
            assert title.endswith("claimed by you"), title
            assert "carol" not in title
        else:
            assert "claimed by Bot" in title or "claimed by bot" in title.lower(), title
    assert len(seen) == 2
    (p1, d1), (p2, d2) = seen.values()
    assert p1 != p2 and d1 != d2, seen
    # Each player's card: the seat's pattern and initial, and what its number is.
    marks = {}
    for li in driver.find_elements(By.CSS_SELECTOR, "#players li"):
        mark = li.find_element(By.CSS_SELECTOR, ".seat-mark")
        marks[int(li.get_attribute("data-player-id"))] = mark.get_attribute("data-pattern")
        initial = mark.find_element(By.CSS_SELECTOR, ".initial")
        assert initial.get_attribute("data-initial") and initial.size["width"] > 0
        assert "route point" in li.find_element(By.CSS_SELECTOR, ".points").text
    assert marks == {o: seen[o][0] for o in seen}


def test_a_phone_shows_everything_within_its_width(ui):
    driver, url = ui["driver"], ui["url"]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        for where, view in ((f"/#game={ui['game']}", "game"), ("/", "lobby")):
            driver.get(url + where)
            driver.refresh()  # a new hash alone loads nothing: the page as a phone opens it
            wait(driver, lambda d: shown(d, view) and text(d, "status") == "connected", view)
            if view == "game":
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#map text.city"), "the map")
                # The map is enlarged in its box: a name is at least 10 px high.
                size = driver.execute_script("""
                    const t = document.querySelector('#map text.city');
                    return parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a;""")
                assert size >= 10, size
                # Tickets drawn on a phone: a sheet at the bottom, within the
                # width, the upper half of the screen (the map) left free.
                wait(driver, lambda d: my_turn(model(d)) and model(d)["turn"]["phase"] == "turn", "a turn")
                js_click(driver, driver.find_element(By.ID, "destination-deck"))
                wait(driver, lambda d: shown(d, "offer-modal"), "the tickets offered")
                sheet = rect(driver, "#offer-modal")
                assert sheet[0] >= 0 and sheet[2] <= 390 and sheet[1] >= 844 / 2, sheet
                assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
                driver.find_element(By.CSS_SELECTOR, "#offer-list input[type=checkbox]").click()
                driver.find_element(By.ID, "offer-submit").click()
                wait(driver, lambda d: not shown(d, "offer-modal"), "the ticket kept")
            else:
                wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#user-games tbody tr[data-game-id]"), "the games")
            width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], (view, width)
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_controls_wait_for_the_server_and_the_error_clears(ui):
    driver, url, server = ui["driver"], ui["url"], ui["server"]
    driver.get(url + f"/#game={ui['game']}")
    wait(driver, lambda d: shown(d, "game") and text(d, "status") == "connected"
         and model(d) is not None, "the game")
    server.stop()
    wait(driver, lambda d: text(d, "status") == "reconnecting…", "the page knows")
    wait(driver, lambda d: "offline" in d.find_element(By.TAG_NAME, "body").get_attribute("class"), "offline")
    for css in ("#chat-send", "#coach-button", "#destination-deck", "#deck"):
        assert not driver.find_element(By.CSS_SELECTOR, css).is_enabled(), css
    # What a click sent now would say (the controls are disabled: sent as the page does).
    driver.execute_script("send('sendChat', {gameId: play.gameId, message: 'hello?'}, {user: true})")
    wait(driver, lambda d: "Not connected" in text(d, "error-text"), "the error")
    server.start()
    wait(driver, lambda d: text(d, "status") == "connected", "reconnected")
    wait(driver, lambda d: not shown(d, "error"), "the stale error cleared")
    assert driver.find_element(By.ID, "chat-send").is_enabled()
    assert "offline" not in driver.find_element(By.TAG_NAME, "body").get_attribute("class")
