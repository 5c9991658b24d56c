"""The pictures in a real browser: headless Chromium opens a rendered table and a replay page,
and the screenshots (PNG, decoded in tests/chromium.py) are checked for what a person would see:
the top card's area has the card's colour (PLAY-1: the card to match), the hand shows as many
cards as the player holds, stepping forward with the keyboard, the buttons or the address's
``#k`` changes the picture, and the page logs no error.

These tests start a browser (a second or two each), so they run in the deep run (``pytest
--deep``), which CI runs. Without Chromium they fail in CI (``CI=true``; .ci/run installs it)
and are skipped elsewhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from budget import DEEP
from chromium import Browser, browser, chromium_path, file_url, pixel, read_png

import unoengine as u
from unoengine.render.replay import replay_html
from unoengine.render.report import Rate, RateChart, report_html
from unoengine.render.svg import CARD_H, FILL, HAND_TOP, WILD_FILL, view_svg
from unoengine.tools import simulate as sim

pytestmark = pytest.mark.skipif(not DEEP, reason="starts a browser: the deep run (pytest --deep) runs it")

BACKGROUND = (0xF4, 0xF1, 0xEA)
"""The picture's paper colour, around the felt and behind the hand (render/svg.py)."""


def hex_rgb(color: str) -> tuple[int, int, int]:
    return (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))


def near(a: tuple[int, int, int], b: tuple[int, int, int], tolerance: int = 10) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def chrome() -> Iterator[Browser]:
    if chromium_path() is None:
        if os.environ.get("CI"):
            pytest.fail("CI=true but Chromium is missing: .ci/run installs it (apt-get install chromium)")
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    with browser(1200, 900) as b:
        yield b


def picture_page(tmp_path: Path, svg: str, name: str) -> str:
    path = tmp_path / f"{name}.html"
    path.write_text('<!DOCTYPE html><html><head><link rel="icon" href="data:,"><style>body{margin:0}'
                    f"svg{{display:block}}</style></head><body>{svg}</body></html>", encoding="utf-8")
    return file_url(path)


def box(b: Browser, selector: str) -> tuple[float, float, float, float]:
    """Where an element is drawn on the page (x, y, width, height in CSS pixels)."""
    r = b.evaluate(f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect(); "
                   "return [r.x, r.y, r.width, r.height]; })()")
    return (r[0], r[1], r[2], r[3])


def top_card_colour(b: Browser, within: str = "svg") -> tuple[int, int, int]:
    """The colour a person sees in the top card's corner, inside its border and away from its face."""
    x, y, _, _ = box(b, f"{within} g.top rect")
    _, _, rows = read_png(b.screenshot((x + 5, y + 5, 6, 6)))
    colours = {pixel(rows, i, j) for i in range(6) for j in range(6)}
    assert len(colours) == 1, colours  # one flat colour: the card's
    return colours.pop()


def cards_in_hand(b: Browser, within: str = "svg") -> int:
    """The cards a person counts in the hand's first row: runs of card colour across a line
    through the row's upper part (above the faces), between stretches of the paper colour."""
    x, y, w, _ = box(b, within)
    scale = w / 760
    line_y = y + (HAND_TOP + CARD_H * 0.2) * scale
    width, _, rows = read_png(b.screenshot((x, line_y, w, 1)))
    runs, inside, length = 0, False, 0
    for i in range(width):
        card = not near(pixel(rows, i, 0), BACKGROUND, 24)
        if card:
            length += 1
        elif inside and length >= 20 * scale:
            runs += 1
        inside, length = (card, length) if card else (False, 0)
    return runs + (1 if inside and length >= 20 * scale else 0)


def test_a_rendered_table_shows_the_top_card_and_the_hand(chrome: Browser, tmp_path: Path) -> None:
    """Two and ten players: the top card's area has its colour; as many cards in the hand as it holds."""
    cases = [
        (u.from_position("classic-108", ["R1 Y2 G3 B4 RS GR W B+2 W+4", "G1 G2"], "G5", current=0), 0),
        (u.new_game("classic-108", 10, seed=4), 3),
        (u.from_position("classic-108", ["R1 R2", "Y4 Y5 Y6 Y7 Y8 Y9 B1 B2 B3 B4 B5 B6 B7 B8", "G1"], "Y3",
                         current=1), 1),
    ]
    for k, (state, seat) in enumerate(cases):
        v = u.view(state, seat)
        chrome.open(picture_page(tmp_path, view_svg(v), f"table{k}"))
        expected = hex_rgb(WILD_FILL if v.top_card.is_wild else FILL[v.top_card.color or 0])
        assert near(top_card_colour(chrome), expected), (k, top_card_colour(chrome), expected)
        assert cards_in_hand(chrome) == len(v.hand), k
    assert chrome.problems() == []


def test_the_replay_page_steps_through_the_game(chrome: Browser, tmp_path: Path) -> None:
    record, _ = sim.record_game("classic-108", ["heuristic"] * 4, sim.game_seed(0, 1), 1)
    states = list(record.states())
    path = tmp_path / "replay.html"
    path.write_text(replay_html(record, 0), encoding="utf-8")
    url = file_url(path)
    chrome.open(url + "#3")  # a page opened at a step
    chrome.wait_until("document.body.dataset.ready === '1'")
    assert chrome.evaluate("document.body.dataset.step") == "3"

    def seen() -> tuple[int, bytes]:
        step = int(chrome.evaluate("document.body.dataset.step"))
        v = u.view(states[step], 0)
        colour = hex_rgb(WILD_FILL if v.top_card.is_wild else FILL[v.top_card.color or 0])
        assert near(top_card_colour(chrome, "#table svg"), colour), step
        assert cards_in_hand(chrome, "#table svg") == min(len(v.hand), 16), step
        assert chrome.evaluate("document.getElementById('move').textContent") == (
            "the deal" if step == 0 else f"move {step}: {u.format_move(record.moves[step - 1])}")
        x, y, w, h = box(chrome, "#table svg")
        return step, chrome.screenshot((x, y, w, h))

    before = seen()
    chrome.key("ArrowRight", "ArrowRight", 39)
    chrome.wait_until("document.body.dataset.step === '4'")
    after = seen()
    assert after[1] != before[1] and read_png(after[1])[2] != read_png(before[1])[2]  # the picture changed
    assert chrome.evaluate("location.hash") == "#4"
    chrome.key("End", "End", 35)
    chrome.wait_until(f"document.body.dataset.step === '{len(record.moves)}'")
    seen()
    assert chrome.evaluate("document.getElementById('next').disabled") is True
    chrome.key("Home", "Home", 36)
    chrome.wait_until("document.body.dataset.step === '0'")
    seen()
    chrome.evaluate("document.getElementById('next').click()")
    chrome.wait_until("document.body.dataset.step === '1'")
    chrome.evaluate("location.hash = '#9'")  # the address selects the step
    chrome.wait_until("document.body.dataset.step === '9'")
    seen()
    chrome.key("ArrowLeft", "ArrowLeft", 37)
    chrome.wait_until("document.body.dataset.step === '8'")
    events = chrome.evaluate("Array.from(document.querySelectorAll('#events li')).map(li => li.textContent)")
    assert events and all(re.match(r"[A-Z0-9]+-\d+ p\d ", e) for e in events), events  # rule ID, then words
    assert chrome.problems() == []


def test_the_spectator_page_says_it_shows_hidden_cards(chrome: Browser, tmp_path: Path) -> None:
    record, _ = sim.record_game("classic-108", ["heuristic"] * 3, sim.game_seed(0, 2), 2)
    path = tmp_path / "all.html"
    path.write_text(replay_html(record, None), encoding="utf-8")
    chrome.open(file_url(path))
    chrome.wait_until("document.body.dataset.ready === '1'")
    text = chrome.evaluate("document.body.innerText")
    assert "Spectator's replay: this page shows every player's hidden cards." in text
    x, y, _, _ = box(chrome, ".spectator")
    _, _, rows = read_png(chrome.screenshot((x + 2, y + 1, 4, 2)))
    assert near(pixel(rows, 0, 0), (0xB0, 0x00, 0x20))  # the red banner a person sees first
    assert chrome.evaluate("document.querySelectorAll('#table g.hidden-shown').length") == sum(
        len(h) for h in record.initial_state().hands[1:])
    assert chrome.problems() == []


HOSTILE_TEXTS = ('x" onmouseover="window.pwned=1" autofocus onfocus="window.pwned=1" data-x="',
                 "<img src=x onerror=window.pwned=2>", "</script><script>window.pwned=3</script>",
                 "<!--<script>", "</title><svg onload=window.pwned=4>")
"""Texts that would run a script on a page that quoted them carelessly (issue 33, item 5)."""

NO_HANDLERS = ("Array.from(document.querySelectorAll('*')).flatMap(e => Array.from(e.attributes))"
               ".filter(a => a.name.startsWith('on')).map(a => a.name)")


def test_hostile_names_run_nothing_on_the_pages(chrome: Browser, tmp_path: Path) -> None:
    """A report with hostile bot labels, title and facts, and a replay of a profile with a hostile
    name and title: the browser finds no event handler on any element, runs nothing, and shows
    each text as text."""
    title = HOSTILE_TEXTS[0]
    rates = tuple(Rate(t, 1, 4, 0.25, 0.05, 0.7, 0.5) for t in HOSTILE_TEXTS)
    report = report_html(title, [(t, t) for t in HOSTILE_TEXTS], [RateChart(HOSTILE_TEXTS[1], rates, title)],
                         [(10, 2), (12, 2)], notes=HOSTILE_TEXTS)
    (tmp_path / "report.html").write_text(report, encoding="utf-8")
    profile = attrs.evolve(u.load_profile("classic-108"), name=HOSTILE_TEXTS[2] + HOSTILE_TEXTS[3])
    record, _ = sim.record_game(profile, ["heuristic"] * 3, sim.game_seed(0, 2), 2)
    (tmp_path / "replay.html").write_text(replay_html(record, None, title), encoding="utf-8")
    for page in ("report.html", "replay.html"):
        chrome.open(file_url(tmp_path / page))
        if page == "replay.html":
            chrome.wait_until("document.body.dataset.ready === '1'")  # its script ran to the end
        x, y, w, h = box(chrome, "h1")
        chrome.page("Input.dispatchMouseEvent", type="mouseMoved", x=x + w / 2, y=y + h / 2)
        assert chrome.evaluate(NO_HANDLERS) == [], page
        assert chrome.evaluate("window.pwned === undefined"), page
        assert chrome.evaluate("document.querySelector('h1').textContent") == title
        assert chrome.problems() == [], page
