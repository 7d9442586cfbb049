"""City names on the map, as Chromium draws them: on every shipped board
no name overlaps another name or another city's dot, and none leaves the
map (issue 59: Smolensk and Moskva, Wien and Budapest, Brest overlapped).

Each board is opened on the designer page (`ttr-opt serve`), and the
boxes are the browser's own measures of the drawn text (`getBBox`), not
the placement's estimates.
"""

import json
import subprocess
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / "target" / "release" / "ttr-opt"
PATIENCE = 120
BOARDS = sorted(p.stem for p in (ROOT / "data").glob("*.json"))

# The share of the smaller box two boxes may share before it counts: text
# boxes include the font's whole ascent and descent, so two names whose
# boxes share a hair of their padding still read apart.
TOLERANCE = 0.03

MEASURE = """
const map = document.getElementById("map");
const names = [...map.querySelectorAll("text.city")].map((t) => {
  const b = t.getBBox();
  return { name: t.textContent, box: [b.x, b.y, b.x + b.width, b.y + b.height] };
});
const dots = [...map.querySelectorAll("circle:not(.city-hit)")]
  .filter((c) => c.closest("g") === map.querySelector("text.city").closest("g"))
  .map((c) => {
    const x = +c.getAttribute("cx"), y = +c.getAttribute("cy"), r = +c.getAttribute("r");
    return [x - r, y - r, x + r, y + r];
  });
const v = map.viewBox.baseVal;
return JSON.stringify({ names, dots, view: [v.x, v.y, v.x + v.width, v.y + v.height] });
"""


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1100"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def area(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def overlap(a, b):
    """Whether boxes a and b share more than TOLERANCE of the smaller."""
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return area(a, b) > TOLERANCE * smaller


@pytest.mark.parametrize("board", BOARDS)
def test_no_city_name_overlaps_another_or_a_city(browser, board):
    cities = len(json.loads((ROOT / "data" / f"{board}.json").read_text())["cities"])
    process = subprocess.Popen(
        [str(BINARY), "serve", "--board", str(ROOT / "data" / f"{board}.json"), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert "http://" in line, line + process.stderr.read()
        browser.get("http://" + line.split("http://")[1].split()[0])
        WebDriverWait(browser, PATIENCE, poll_frequency=0.2).until(
            lambda d: d.execute_script("return document.querySelectorAll('#map text.city').length")
            == cities,
            message=f"{board}: the map's city names",
        )
        seen = json.loads(browser.execute_script(MEASURE))
    finally:
        process.kill()
        process.wait(timeout=30)
    names, dots, view = seen["names"], seen["dots"], seen["view"]
    assert len(names) == cities and len(dots) == cities
    problems = []
    for i, a in enumerate(names):
        box = a["box"]
        if box[0] < view[0] or box[1] < view[1] or box[2] > view[2] or box[3] > view[3]:
            problems.append(f"{a['name']} leaves the map")
        for b in names[i + 1 :]:
            if overlap(box, b["box"]):
                problems.append(f"{a['name']} overlaps {b['name']}")
        for j, d in enumerate(dots):
            if j != i and overlap(box, d):
                problems.append(f"{a['name']} covers the dot of {names[j]['name']}")
    assert not problems, f"{board}: " + "; ".join(problems)
