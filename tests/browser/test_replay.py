"""Issue 57's replay of a finished game, in a headless Chromium on the Mini
board (test_play.py's server and helpers): a player plays a game against
a medium (greedy) bot to its end, then opens the replay under the results and
slides through it:

- at the first move no track is claimed on the map; in the middle the map
  shows the tracks claimed up to that move (and only those), the move's
  line and every player's totals then; at the last move the map is the
  final model's;
- ◀ ▶ and the arrow keys step one move;
- the marker on the review's curve stands at the turn of the player who
  made the move shown, and moves with the slider; a click on the curve
  moves the slider to the turn clicked;
- closing the replay gives the final board back;
- a spectator of the finished game replays it the same way.

Expected values come from the server, asked over a WebSocket opened with
the browser's own session (getReplay, getReview and the final model).
TTR_SCREENSHOTS=1 saves replay.png into output/play/.
"""

import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_play import (  # noqa: F401 (board_file and server are fixtures)
    PATIENCE,
    Session,
    board_file,
    chromium,
    model,
    my_turn,
    register,
    screenshot,
    server,
    shown,
    take_turn,
    text,
    wait,
)
from test_social import keep_first_tickets


def ask(server, driver, command, parameters):
    session = Session(server, driver)
    try:
        out = session.ask(command, parameters)
    finally:
        session.close()
    assert out["description"] == "success", out
    return out


def claimed_on_map(driver):
    """The tracks the map draws as claimed: {routeIndex: owner}."""
    return driver.execute_script(
        "const out = {};"
        "for (const l of document.querySelectorAll('#map line.track.claimed'))"
        "  out[l.dataset.routeIndex] = Number(l.dataset.owner);"
        "return out;"
    )


def claimed_until(replay, at):
    """The tracks claimed by the replay's moves up to `at`: {routeIndex: seat}."""
    out = {}
    for e in replay["moves"][: at + 1]:
        if "routeIndex" in e:
            out[str(e["routeIndex"])] = e["seat"]
    return out


def slide(driver, at):
    """Moves the slider to `at` as a drag does (its value, then an input event)."""
    driver.execute_script(
        "const s = document.getElementById('replay-slider');"
        "s.value = arguments[0]; s.dispatchEvent(new Event('input', { bubbles: true }));",
        at,
    )
    shown_at(driver, at)


def shown_at(driver, at):
    wait(driver, lambda d: d.find_element(By.ID, "replay-move").get_attribute("data-index") == str(at),
         f"move {at} shown")


def marker(driver):
    """The curve's replay marker: (seat, turn, x), or None."""
    found = driver.find_elements(By.CSS_SELECTOR, "#review-curve line.replay-marker")
    if not found:
        return None
    line = found[0]
    return (int(line.get_attribute("data-player-id")), int(line.get_attribute("data-turn")),
            float(line.get_attribute("x1")))


def expected_turn(review, seat, at):
    """The review's turn of `seat` holding move `at` (the start-of-game
    tickets: the first turn)."""
    turns = next(p["turns"] for p in review["players"] if p["seat"] == seat)
    before = [t["turn"] for t in turns if t["move_index"] <= at]
    return before[-1] if before else turns[0]["turn"]


def check_move(driver, replay, review, at):
    """Move `at` as the page shows it: the map's claims, the line, the
    totals and the curve's marker."""
    e = replay["moves"][at]
    assert claimed_on_map(driver) == claimed_until(replay, at), at
    assert text(driver, "replay-move") == f"Move {at + 1} of {len(replay['moves'])}: {e['text']}"
    assert driver.find_element(By.ID, "replay-move").get_attribute("data-seat") == str(e["seat"])
    for seat, totals in enumerate(e["players"]):
        li = driver.find_element(By.CSS_SELECTOR, f'#replay-players li[data-player-id="{seat}"]')
        assert [int(li.get_attribute(a)) for a in
                ("data-points", "data-trains-left", "data-card-count", "data-destination-count")] == totals
    seat, turn, _ = marker(driver)
    assert (seat, turn) == (e["seat"], expected_turn(review, e["seat"], at)), at


def test_replay_slider_map_and_curve(server, tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("profile-replay"))
    drivers = [driver]
    try:
        register(driver, server, "rhea", "correct horse 8")
        driver.find_element(By.ID, "create-game-button").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#board-select option[value="mini"]'), "the Mini board")
        Select(driver.find_element(By.ID, "board-select")).select_by_value("mini")
        name = driver.find_element(By.ID, "game-name")
        name.clear()
        name.send_keys("Replay test")
        driver.find_element(By.ID, "create-submit").click()
        wait(driver, lambda d: shown(d, "game") and d.find_element(By.ID, "game").get_attribute("data-state") == "open",
             "the new game")
        game_id = int(driver.find_element(By.ID, "game").get_attribute("data-game-id"))
        driver.find_element(By.ID, "add-bot-medium").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 2, "the bot's seat")
        driver.find_element(By.ID, "start-game").click()
        keep_first_tickets(driver)
        assert not shown(driver, "replay"), "no replay while the game is played"

        deadline = time.monotonic() + PATIENCE
        while True:
            assert time.monotonic() < deadline, "the game does not end"
            got = wait(driver, lambda d: (lambda m: "over" if m["state"] == "over" else my_turn(m))(model(d)),
                       "a turn or the end")
            if got == "over":
                break
            take_turn(driver)

        final = ask(server, driver, "sendClientModelInformation", {"gameId": game_id})
        replay = ask(server, driver, "getReplay", {"gameId": game_id})
        review = ask(server, driver, "getReview", {"gameId": game_id})["review"]
        moves = replay["moves"]
        claims = [i for i, e in enumerate(moves) if "routeIndex" in e]
        assert claims, "the game claimed tracks"
        wait(driver, lambda d: d.find_element(By.ID, "review").get_attribute("data-state") == "done", "the review")
        wait(driver, lambda d: shown(d, "replay"), "the replay panel")
        final_claims = {str(i): o for i, o in enumerate(final["routes"]) if o is not None}
        assert claimed_on_map(driver) == final_claims
        assert marker(driver) is None, "no marker before the replay is opened"

        # Opened: the first move, no track claimed yet.
        driver.find_element(By.ID, "replay-open").click()
        wait(driver, lambda d: d.find_element(By.ID, "replay").get_attribute("data-state") == "open", "the replay open")
        shown_at(driver, 0)
        slider = driver.find_element(By.ID, "replay-slider")
        assert slider.get_attribute("max") == str(len(moves) - 1)
        assert claimed_on_map(driver) == {} and claims[0] > 0
        check_move(driver, replay, review, 0)
        first_x = marker(driver)[2]

        # The middle: as many claims as the replay made by then.
        middle = (claims[0] + len(moves) - 1) // 2
        slide(driver, middle)
        check_move(driver, replay, review, middle)
        assert len(claimed_on_map(driver)) == sum(1 for i in claims if i <= middle) > 0
        driver.execute_script("document.getElementById('replay').scrollIntoView({ block: 'start' });"
                              "document.getElementById('notices').replaceChildren()")
        screenshot(driver, "replay.png")

        # One move on with ▶, one back with the left arrow key.
        driver.find_element(By.ID, "replay-next").click()
        shown_at(driver, middle + 1)
        check_move(driver, replay, review, middle + 1)
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
        shown_at(driver, middle)
        driver.find_element(By.ID, "replay-prev").click()
        shown_at(driver, middle - 1)

        # The end: the final board; the marker has moved on.
        slide(driver, len(moves) - 1)
        check_move(driver, replay, review, len(moves) - 1)
        assert claimed_on_map(driver) == final_claims
        assert marker(driver)[2] > first_x, "the marker moves along the curve"
        assert not driver.find_element(By.ID, "replay-next").is_enabled()

        # A click on the curve at a turn of the player's own line: the
        # slider goes to that turn's first move.
        me = final["you"]
        turns = next(p["turns"] for p in review["players"] if p["seat"] == me)
        target = turns[len(turns) // 2]
        point = driver.execute_script(
            "const c = window.play.curve, svg = document.getElementById('review-curve');"
            "svg.scrollIntoView({ block: 'center' });"
            "const p = svg.createSVGPoint(); p.x = c.x(arguments[0]); p.y = c.y(arguments[1]);"
            "const q = p.matrixTransform(svg.getScreenCTM()); const r = svg.getBoundingClientRect();"
            "return [q.x - (r.left + r.width / 2), q.y - (r.top + r.height / 2)];",
            target["turn"], target["best"])
        same = {t["move_index"] for p in review["players"] for t in p["turns"]
                if t["turn"] == target["turn"] and t["best"] == target["best"]}
        curve = driver.find_element(By.ID, "review-curve")
        ActionChains(driver).move_to_element_with_offset(curve, round(point[0]), round(point[1])).click().perform()
        wait(driver, lambda d: int(d.find_element(By.ID, "replay-move").get_attribute("data-index")) in same,
             "the slider at the turn clicked")
        at = int(driver.find_element(By.ID, "replay-move").get_attribute("data-index"))
        check_move(driver, replay, review, at)
        assert int(slider.get_attribute("value")) == at

        # Closed: the final board again, no marker.
        slide(driver, middle)
        driver.find_element(By.ID, "replay-close").click()
        wait(driver, lambda d: not shown(d, "replay-controls"), "the replay closed")
        assert claimed_on_map(driver) == final_claims
        assert marker(driver) is None

        # A spectator of the finished game replays it too (no review, so no curve).
        watcher = chromium(tmp_path_factory.mktemp("profile-replay-watcher"))
        drivers.append(watcher)
        register(watcher, server, "sven", "correct horse 9")
        watcher.get(server + f"/#watch={game_id}")
        wait(watcher, lambda d: (model(d) or {}).get("spectator") is True and shown(d, "replay"), "the spectator's replay panel")
        assert not shown(watcher, "review")
        watcher.find_element(By.ID, "replay-open").click()
        shown_at(watcher, 0)
        assert claimed_on_map(watcher) == {}
        slide(watcher, middle)
        assert claimed_on_map(watcher) == claimed_until(replay, middle)
        assert text(watcher, "replay-move") == f"Move {middle + 1} of {len(moves)}: {moves[middle]['text']}"
        slide(watcher, len(moves) - 1)
        assert claimed_on_map(watcher) == final_claims
    finally:
        for d in drivers:
            d.quit()
