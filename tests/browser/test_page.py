"""The designer's page in headless Chromium: load the board, move the
budget slider, edit a ticket's value, see the variant's optimum and what
enters the plan, download the scenario (and get the same numbers from
`ttr-opt compare`), and upload a broken board file.

Expected values come from other faces: the Python package's solves of the
same boards, and the command line's compare. The board is the USA board
with 10 cars, so every sweep takes about a second.
"""

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import ttr_opt

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / "target" / "release" / "ttr-opt"
# Watchdogs, not timings: how long to wait for something that should happen.
PATIENCE = 180


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    value = json.loads((ROOT / "data" / "usa.json").read_text())
    value["cars"] = 10
    path = tmp_path_factory.mktemp("board") / "usa-10.json"
    path.write_text(json.dumps(value))
    return path, value


@pytest.fixture(scope="module")
def server(board):
    path, _ = board
    process = subprocess.Popen(
        [str(BINARY), "serve", "--board", str(path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    assert "http://" in line, line + process.stderr.read()
    address = line.split("http://")[1].split()[0]
    yield "http://" + address
    process.send_signal(2)  # Ctrl-C: a clean stop
    assert process.wait(timeout=60) == 0


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
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
        "--window-size=1400,1100",
    ]:
        options.add_argument(flag)
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def wait(driver, condition, what):
    return WebDriverWait(driver, PATIENCE, poll_frequency=0.2).until(
        lambda d: condition(d), message=what
    )


def text(driver, element_id):
    found = driver.find_elements(By.ID, element_id)
    return found[0].text if found else ""


def test_the_designers_flow(server, browser, board, downloads):
    path, value = board
    sweep = {r["cars"]: r["score"] for r in ttr_opt.sweep(1, 10, board=value)}
    browser.get(server)
    wait(browser, lambda d: "base: done" in text(d, "progress"), "the base run ends")
    # The map is drawn: every route's tracks and every city.
    assert len(browser.find_elements(By.CSS_SELECTOR, "#map line.route")) >= len(value["routes"])
    assert browser.find_element(By.ID, "base-score").text == str(sweep[10])

    # The slider, moved with the keyboard as a user would: 10 -> 6 cars.
    slider = browser.find_element(By.ID, "budget")
    slider.click()
    slider.send_keys(Keys.END)
    for _ in range(4):
        slider.send_keys(Keys.LEFT)
    wait(browser, lambda d: text(d, "budget-value") == "6", "the slider reads 6")
    assert browser.find_element(By.ID, "base-score").text == str(sweep[6])

    # Edit a ticket: Denver - El Paso (4 points, in no plan at 6 cars) at 20.
    row = browser.find_element(By.CSS_SELECTOR, 'tr[data-ticket="Denver – El Paso"]')
    points = row.find_element(By.CSS_SELECTOR, "input[type=number]")
    points.send_keys(Keys.CONTROL, "a")
    points.send_keys("20", Keys.TAB)
    variant = json.loads(json.dumps(value))
    for t in variant["tickets"]:
        if {t["from"], t["to"]} == {"Denver", "El Paso"}:
            t["points"] = 20
    expected = ttr_opt.solve(cars=6, board=variant)
    wait(browser, lambda d: text(d, "variant-score") == str(expected["score"]), "the variant's optimum")
    entering = browser.find_element(By.ID, "diff").text
    assert "Tickets entering the plan" in entering and "Denver – El Paso" in entering
    wait(browser, lambda d: "variant: done" in text(d, "progress"), "the variant's sweep ends")
    # The curve has ticks on both axes and a legend naming both curves.
    for axis in ("x", "y"):
        count = len(browser.find_elements(By.CSS_SELECTOR, f"#curve line.{axis}-tick"))
        assert count >= 3, f"{count} ticks on the {axis} axis"
    legend = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#curve text.legend")]
    assert legend == ["base", "variant"], legend

    # Download the scenario: the documented format, and compare agrees.
    browser.find_element(By.ID, "download").click()
    target = downloads / "scenario.json"
    wait(browser, lambda d: target.exists() and target.stat().st_size > 0, "the download")
    scenario = json.loads(target.read_text())
    assert scenario["changes"] == [
        {"set_ticket": {"from": "Denver", "to": "El Paso", "points": 20}}
    ]
    out = subprocess.run(
        [str(BINARY), "compare", str(target), "--board", str(path), "--json", "--out", str(downloads)],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = {r["cars"]: r for r in json.loads(out.stdout)["rows"]}
    assert rows[6]["variant"] == expected["score"] and rows[6]["base"] == sweep[6]
    page_status = json.loads(
        browser.execute_script("return JSON.stringify(page.status)")
    )
    assert [b["score"] for b in page_status["variant"]["budgets"]] == [
        rows[c]["variant"] for c in range(1, 11)
    ]
    if os.environ.get("TTR_OPT_SCREENSHOTS"):
        browser.save_screenshot(os.environ["TTR_OPT_SCREENSHOTS"] + "/what-if.png")

    # A broken board file: every problem shown as the command line says it.
    broken = json.loads(json.dumps(value))
    broken["routes"][4]["length"] = 0
    broken_path = downloads / "broken.json"
    broken_path.write_text(json.dumps(broken))
    browser.find_element(By.ID, "board-file").send_keys(str(broken_path))
    wait(browser, lambda d: "routes[4].length" in text(d, "error"), "the board's error")
    assert "broken.json" in text(browser, "error")
    # ... and the page still shows the board it had.
    assert browser.find_element(By.ID, "base-score").text == str(sweep[6])
    time.sleep(0.1)


def test_suggest_lists_the_tuning_and_applies_its_changes_as_edits(server, browser, board):
    """The Suggest button: the revisions `ttr_opt.tune` finds on the same
    board, each change an Apply button that makes it an edit, answered as
    edits are (the variant's optimum at the page's 10 cars)."""
    path, value = board
    expected = ttr_opt.tune(board=value)
    assert expected["revisions"], "the USA board at 10 cars has revisions to suggest"
    browser.get(server)
    wait(browser, lambda d: "base: done" in text(d, "progress"), "the base run ends")
    browser.find_element(By.ID, "suggest").click()
    wait(
        browser,
        lambda d: "miss fewer" in text(d, "suggest-status"),
        "the suggestion ends with revisions",
    )
    assert f"misses {expected['base']['misses']} target" in text(browser, "suggest-status")
    shown = browser.find_elements(By.CSS_SELECTOR, "#suggestions > li.revision")
    assert len(shown) == len(expected["revisions"])
    for li, r in zip(shown, expected["revisions"]):
        assert f"{r['misses']} target(s) missed" in li.text
        for c in r["changes"]:
            assert c["kind"] == "ticket", "the default targets move tickets' points only"
            assert f"{c['ticket']} {c['before']}→{c['after']}" in li.text
    first = expected["revisions"][0]["changes"][0]
    shown[0].find_element(By.CSS_SELECTOR, "button.apply").click()
    wait(
        browser,
        lambda d: f"{first['after']} points" in text(d, "changes"),
        "the change is an edit",
    )
    variant = json.loads(json.dumps(value))
    for t in variant["tickets"]:
        if {t["from"], t["to"]} == {first["from"], first["to"]}:
            t["points"] = first["after"]
    score = ttr_opt.solve(cars=10, board=variant)["score"]
    wait(browser, lambda d: text(d, "variant-score") == str(score), "the variant's optimum")
