"""Issue 57's social features in three headless Chromiums on the Mini board
(test_play.py's server and helpers):

- an invite link: whoever opens it is seated in the game;
- a spectator: another user watches from the lobby's "Games to watch",
  sees the board and the moves but no hand, no ticket and no chat box,
  and the page's model (the server's public view) never holds a hand or
  a ticket while the game is played;
- the history numbered by each line's place in the whole game;
- the coach gone once the game is over;
- a rematch: one player asks, the other is told on their page and joins
  with one click, both in the same new game;
- the ratings: the lobby's leaderboard lists both players, best first, and
  a player's page shows the game just played.
"""

import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_play import (  # noqa: F401 (board_file and server are fixtures)
    PATIENCE,
    board_file,
    chromium,
    model,
    my_turn,
    register,
    server,
    shown,
    take_turn,
    text,
    wait,
)


def click(driver, css):
    """Clicks the element `css` names as found now: the lobby is redrawn
    at every push, so an element found before may be gone."""
    wait(driver, lambda d: d.execute_script(
        "const e = document.querySelector(arguments[0]); if (e) e.click(); return Boolean(e);", css), css)


def keep_first_tickets(driver):
    wait(driver, lambda d: shown(d, "offer-modal"), "the first tickets offered")
    boxes = driver.find_elements(By.CSS_SELECTOR, "#offer-list input[type=checkbox]")
    for box in boxes[:2]:
        box.click()
    driver.find_element(By.ID, "offer-submit").click()
    wait(driver, lambda d: not shown(d, "offer-modal"), "the tickets kept")


def assert_public(m):
    """The page's model of a spectator: nothing of any player's own."""
    assert m["spectator"] is True and m["you"] is None, m
    assert m["cities"] == [] and m["offer"] is None and m["claimable"] == [], m
    assert all("cards" not in p for p in m["players"]), m["players"]


def test_invite_watch_and_rematch(server, tmp_path_factory):
    one, two, three = (chromium(tmp_path_factory.mktemp(f"profile-social-{i}")) for i in range(3))
    try:
        register(one, server, "ines", "correct horse 5")
        register(two, server, "jules", "correct horse 6")
        register(three, server, "karin", "correct horse 7")

        # Ines creates a Mini game (coach allowed) and copies its invite link.
        one.find_element(By.ID, "create-game-button").click()
        wait(one, lambda d: d.find_elements(By.CSS_SELECTOR, '#board-select option[value="mini"]'), "the Mini board")
        Select(one.find_element(By.ID, "board-select")).select_by_value("mini")
        name = one.find_element(By.ID, "game-name")
        name.clear()
        name.send_keys("Social test")
        one.find_element(By.CSS_SELECTOR, '.color-choice[data-color="red"]').click()
        one.find_element(By.ID, "create-coach").click()
        one.find_element(By.ID, "create-submit").click()
        wait(one, lambda d: shown(d, "game") and d.find_element(By.ID, "game").get_attribute("data-state") == "open",
             "the new game")
        game_id = int(one.find_element(By.ID, "game").get_attribute("data-game-id"))
        link = one.find_element(By.ID, "invite-link").get_attribute("value")
        assert link.endswith(f"#join={game_id}"), link

        # Jules opens the link: seated, in the game's view.
        two.get(link)
        wait(two, lambda d: shown(d, "game") and d.find_element(By.ID, "game").get_attribute("data-game-id") == str(game_id)
             and (model(d) or {}).get("you") is not None, "Jules seated by the invite link")
        wait(one, lambda d: len(model(d)["players"]) == 2, "Jules's seat at Ines's")
        one.find_element(By.ID, "start-game").click()
        for driver in (one, two):
            keep_first_tickets(driver)

        # Karin watches it from the lobby.
        row = f'#watch-games tbody tr[data-game-id="{game_id}"]'
        three.get(three.current_url.split("#")[0])
        wait(three, lambda d: d.find_elements(By.CSS_SELECTOR, row + " .watch-game"), "the game among those to watch")
        click(three, row + " .watch-game")
        wait(three, lambda d: (model(d) or {}).get("spectator") is True and shown(d, "spectator-banner"), "Karin watching")
        assert three.execute_script("return location.hash") == f"#watch={game_id}"
        for hidden in ("panel-hand", "chat-form", "coach-button", "tab-hand"):
            assert not shown(three, hidden), hidden
        assert_public(model(three))

        # The game to its end, the spectator's page checked after each move.
        seats = {model(one)["you"]: one, model(two)["you"]: two}
        deadline = time.monotonic() + PATIENCE
        while True:
            assert time.monotonic() < deadline, "the game does not end"

            def ready(_):
                ms = {s: model(d) for s, d in seats.items()}
                if any(m["state"] == "over" for m in ms.values()):
                    return "over"
                return next((("turn", s) for s, m in ms.items() if my_turn(m)), None)

            got = wait(one, ready, "a turn or the end")
            if got == "over":
                break
            before = len(model(three)["history"])
            take_turn(seats[got[1]])
            wait(three, lambda d: model(d)["historyLength"] > before or model(d)["state"] == "over",
                 "the move on the spectator's page")
            assert_public(model(three))
        wait(three, lambda d: shown(d, "results"), "the results on the spectator's page")
        assert not shown(three, "rematch"), "a spectator has no rematch"

        # The history is numbered by each line's place in the game.
        m = model(one)
        wait(one, lambda d: model(d)["state"] == "over", "the last model")
        m = model(one)
        first = m["historyLength"] - len(m["history"])
        assert one.execute_script("return document.getElementById('history').start") == first + 1
        # Once over, the coach offers nothing.
        assert not shown(one, "coach-button") and not shown(one, "coach-panel")

        # A rematch: Jules asks; Ines is told and joins with one click.
        wait(two, lambda d: shown(d, "rematch"), "the rematch button")
        two.find_element(By.ID, "rematch").click()
        wait(two, lambda d: (model(d) or {}).get("state") == "open" and model(d)["gameId"] != game_id,
             "Jules in the rematch")
        rematch = model(two)["gameId"]
        wait(one, lambda d: text(d, "rematch") == "Join the rematch", "the offer on Ines's page")
        one.find_element(By.ID, "rematch").click()
        wait(one, lambda d: (model(d) or {}).get("gameId") == rematch, "Ines in the rematch")
        m = model(one)
        assert sorted(p["username"] for p in m["players"]) == ["ines", "jules"]
        assert m["state"] == "open" and m["gameName"].endswith("(rematch)") and m["board"] == "mini"

        # The finished game rated both: the lobby's leaderboard and a
        # player's page, as the server has them.
        three.get(three.current_url.split("#")[0])
        read = ("return [...document.querySelectorAll('#ratings tbody tr[data-name]')]"
                ".map((r) => [r.dataset.name, Number(r.cells[2].textContent)])")
        wait(three, lambda d: {"ines", "jules"} <= {n for n, _ in d.execute_script(read)}, "the ratings")
        shown_ratings = [r for _, r in three.execute_script(read)]
        assert shown_ratings == sorted(shown_ratings, reverse=True), shown_ratings
        click(three, '#ratings .player-link[data-name="ines"]')
        wait(three, lambda d: shown(d, "player-page"), "ines's page")
        assert text(three, "player-name") == "ines"
        assert "1 game" in text(three, "player-summary"), text(three, "player-summary")
        rows = three.find_elements(By.CSS_SELECTOR, "#player-games tbody tr[data-game-id]")
        assert [r.get_attribute("data-game-id") for r in rows] == [str(game_id)]
        assert "jules" in rows[0].text
    finally:
        for d in (one, two, three):
            d.quit()
