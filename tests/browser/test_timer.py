"""Turn timers on the page (issue 57), in one headless Chromium against a
server that allows 2-second turns (the hidden --min-turn-seconds):

- the Create Game overlay asks for a real-time game of 3 seconds a turn;
- the countdown of the turn is shown and counts down;
- the player never moves: a bot chooses her first tickets and plays her
  turns, the history on the page says so, and her seat is marked away;
- the turn alerts: the notification permission is asked on the toggle's
  click, never on load; when the turn becomes hers, the sound function and
  (the tab hidden) a notification are called, and a muted page makes no
  sound. window.Notification and window.ttrPlaySound are stubbed before
  the page's script runs, to observe the calls.
"""

import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from test_play import (  # noqa: F401 (board_file is a fixture)
    BINARY,
    board_file,
    chromium,
    model,
    register,
    shown,
    wait,
)

# Installed before the page's own script: records permission requests and
# notifications; the page's sound function is replaced once it exists.
STUBS = """
window.__asked = 0;
window.__notes = [];
window.__beeps = 0;
function FakeNotification(title, options) { window.__notes.push([title, options && options.body]); }
FakeNotification.permission = "default";
FakeNotification.requestPermission = () => {
  window.__asked += 1;
  FakeNotification.permission = "granted";
  return Promise.resolve("granted");
};
window.Notification = FakeNotification;
"""


@pytest.fixture(scope="module")
def server(board_file, tmp_path_factory):
    db = tmp_path_factory.mktemp("timer") / "t.db"
    process = subprocess.Popen(
        [str(BINARY), "play", "--db", str(db), "--port", "0", "--bot-delay", "200",
         "--min-turn-seconds", "2", "--board", str(board_file)],
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


def history(driver):
    """The history's lines as the page shows them, read in one go (the
    list is redrawn at every push)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#history li'), (li) => li.textContent)")


def test_the_countdown_the_stand_in_and_the_turn_alerts(server, tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("profile-timer"))
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": STUBS})
        register(driver, server, "tina", "correct horse 8")
        assert driver.execute_script("return window.__asked") == 0, "never asked on load"
        assert driver.find_element(By.ID, "notify-toggle").get_attribute("aria-pressed") == "false"
        driver.find_element(By.ID, "notify-toggle").click()
        wait(driver, lambda d: d.find_element(By.ID, "notify-toggle").get_attribute("aria-pressed") == "true",
             "notifications allowed")
        assert driver.execute_script("return window.__asked") == 1
        assert driver.find_element(By.ID, "sound-toggle").get_attribute("aria-pressed") == "true"
        driver.execute_script("window.ttrPlaySound = () => { window.__beeps += 1; };")

        # A game of 3 seconds a turn against a medium (greedy) bot.
        driver.find_element(By.ID, "create-game-button").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#board-select option[value="mini"]'), "the Mini board")
        Select(driver.find_element(By.ID, "board-select")).select_by_value("mini")
        name = driver.find_element(By.ID, "game-name")
        name.clear()
        name.send_keys("Timer test")
        Select(driver.find_element(By.ID, "create-pace")).select_by_value("realtime")
        seconds = driver.find_element(By.ID, "create-turn-seconds")
        assert seconds.is_displayed()
        seconds.clear()
        seconds.send_keys("3")
        driver.find_element(By.ID, "create-submit").click()
        wait(driver, lambda d: (model(d) or {}).get("state") == "open", "the new game")
        assert model(driver)["turnLimit"] == 3
        assert not shown(driver, "turn-timer"), "no countdown before the start"
        driver.find_element(By.ID, "add-bot-medium").click()
        wait(driver, lambda d: len(model(d)["players"]) == 2, "the bot seated")

        # The tab hidden: the first tickets to choose alert her both ways.
        driver.execute_script("Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });")
        driver.find_element(By.ID, "start-game").click()
        wait(driver, lambda d: shown(d, "turn-timer"), "the countdown")
        timer = driver.find_element(By.ID, "turn-timer")
        left = int(timer.get_attribute("data-left"))
        assert 0 <= left <= 3, left
        assert timer.text.startswith("⏱ 0:0"), timer.text
        wait(driver, lambda d: d.execute_script("return window.__beeps") >= 1, "the sound of her turn")
        notes = driver.execute_script("return window.__notes")
        assert notes and notes[0][0] == "Your turn" and "Timer test" in notes[0][1], notes

        # She never moves: the bot plays for her, the page says so.
        wait(driver, lambda d: any(line == "tina timed out; a bot played for them" for line in history(d)),
             "the timeout in the history")
        wait(driver, lambda d: not shown(d, "offer-modal"), "her first tickets chosen for her")
        me = model(driver)["you"]
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#players li.away[data-player-id="{me}"] .tag.away'),
             "her seat marked away")
        assert any("a bot plays their seat" in line for line in history(driver)), history(driver)

        # Muted: her next turn makes no sound.
        driver.find_element(By.ID, "sound-toggle").click()
        assert driver.find_element(By.ID, "sound-toggle").get_attribute("aria-pressed") == "false"
        beeps = driver.execute_script("return window.__beeps")
        turns = sum(line == "tina is away; a bot played for them" for line in history(driver))
        wait(driver, lambda d: sum(line == "tina is away; a bot played for them" for line in history(d)) > turns
             or model(d)["state"] == "over", "another of her turns")
        assert driver.execute_script("return window.__beeps") == beeps
    finally:
        driver.quit()


# This browser's clock ten minutes behind the server's, from before the
# page's script runs.
SLOW_CLOCK = """
const realNow = Date.now;
Date.now = () => realNow() - 600000;
"""


def test_the_countdown_follows_the_servers_clock_and_a_player_may_leave_during_play(server, tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("profile-skew"))
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SLOW_CLOCK})
        register(driver, server, "ulla", "correct horse 8")
        driver.find_element(By.ID, "create-game-button").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#board-select option[value="mini"]'), "the Mini board")
        Select(driver.find_element(By.ID, "board-select")).select_by_value("mini")
        Select(driver.find_element(By.ID, "create-pace")).select_by_value("realtime")
        seconds = driver.find_element(By.ID, "create-turn-seconds")
        seconds.clear()
        seconds.send_keys("60")
        driver.find_element(By.ID, "create-submit").click()
        wait(driver, lambda d: (model(d) or {}).get("state") == "open", "the new game")
        assert not shown(driver, "leave-playing"), "no leaving a game not begun this way"
        driver.find_element(By.ID, "add-bot-medium").click()
        wait(driver, lambda d: len(model(d)["players"]) == 2, "the bot seated")
        driver.find_element(By.ID, "start-game").click()

        # A minute a turn, counted from the server's clock: ten minutes
        # more by this browser's own.
        wait(driver, lambda d: shown(d, "turn-timer"), "the countdown")
        left = int(driver.find_element(By.ID, "turn-timer").get_attribute("data-left"))
        assert 50 <= left <= 60, left

        # Leaving while it is played: confirmed, then a bot plays her seat.
        game = model(driver)["gameId"]
        me = model(driver)["you"]
        assert shown(driver, "leave-playing")
        driver.execute_script("window.confirm = () => true;")
        driver.find_element(By.ID, "leave-playing").click()
        wait(driver, lambda d: shown(d, "lobby"), "back in the lobby")
        driver.get(f"{server}/#game={game}")
        wait(driver, lambda d: (model(d) or {}).get("gameId") == game, "the game open again")
        wait(driver, lambda d: model(d)["players"][me]["away"] is True or model(d)["state"] == "over",
             "her seat played by the bot")
    finally:
        driver.quit()
