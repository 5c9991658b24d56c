"""Pages with hostile text in them (issue 33, item 5): every text a caller or a file can put on a
page (bot names, a profile's name, a custom effect's name, titles, facts, notes, headings) is
escaped in text and in attributes alike, quotes included, so it can add no element, no attribute
and no script to the page.

Each hostile page is parsed (``html.parser`` for the page, ``xml.etree`` for each SVG) and its
shape, the sequence of elements with the names of their attributes, compared with the same page
made from plain names: the texts differ, the shape must not. The hostile text itself must come
through whole, as text or as an attribute's value.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import attrs
import pytest

import unoengine as u
from unoengine.bots import base as bot_registry
from unoengine.bots.random_bot import RandomBot
from unoengine.engine import effects
from unoengine.engine.events import EffectApplied
from unoengine.render.replay import replay_html
from unoengine.render.report import Rate, RateChart, report_html
from unoengine.tools import cli
from unoengine.tools import simulate as sim

HOSTILE = (
    'x" onmouseover="document.title=1" data-x="',
    "y' onfocus='document.title=2' autofocus '",
    "<img src=x onerror=document.title=3>",
    "</script><script>document.title=4</script>",
    "javascript:document.title=5",
    "a & b &amp; <!-- c --> d",
    "</title></svg><svg onload=document.title=6>",
)
"""Texts that would add an element or an attribute to a page that quoted them carelessly."""

URL_ATTRIBUTES = ("href", "src", "xlink:href", "action", "formaction")


class Shape(HTMLParser):
    """A page as the browser's tokenizer sees it: each element with its attribute names, every
    attribute value, the text of each element with an ``id``, and every piece of text."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, tuple[str, ...]]] = []
        self.values: list[str] = []
        self.text: list[str] = []
        self.by_id: dict[str, str] = {}
        self._open_id: str | None = None
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, tuple(name for name, _ in attrs)))
        self.values += [value or "" for _, value in attrs]
        self._open_id = dict(attrs).get("id")
        for name, value in attrs:
            assert not name.startswith("on"), f"an event handler attribute {name}={value!r}"
            assert name not in URL_ATTRIBUTES or not (value or "").lower().startswith("javascript:"), (name, value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._open_id is not None:
            self.by_id[self._open_id] = self.by_id.get(self._open_id, "") + data


def same_shape(hostile: str, plain: str) -> Shape:
    """The hostile page has exactly the elements and attributes of the plain one; its Shape."""
    bad, good = Shape(hostile), Shape(plain)
    assert bad.elements == good.elements
    for svg in re.findall(r"<svg .*?</svg>", hostile, re.S):
        ET.fromstring(svg)  # each chart or table is well-formed XML too
    return bad


@pytest.fixture
def hostile_bots() -> Iterator[list[str]]:
    """Random bots registered under hostile names (and plain ones), removed afterwards."""
    names = [name.replace(",", ";") for name in HOSTILE] + [f"plain-{i}" for i in range(4)]
    for name in names:
        bot_registry.register_bot(name, RandomBot)
    yield names[:-4]
    for name in names:
        bot_registry._REGISTRY.pop(name, None)


def test_report_page_escapes_every_text() -> None:
    """Title, facts, headings, notes and bar labels, each hostile, add nothing to the page."""

    def page(texts: list[str]) -> str:
        rates = tuple(Rate(t, 1, 4, 0.25, 0.05, 0.7, 0.5) for t in texts)
        return report_html(texts[0], [(t, t) for t in texts], [RateChart(texts[1], rates, texts[2])],
                           [(10, 2), (12, 2)], notes=texts)

    hostile = page(list(HOSTILE))
    shape = same_shape(hostile, page([f"plain {i}" for i in range(len(HOSTILE))]))
    for text in HOSTILE:
        assert shape.values.count(text) == 1  # each bar's data-label holds the text whole
        assert sum(piece.count(text) for piece in shape.text) >= 3  # the title, a fact, a bar, a table row...
    assert "<script" not in hostile and "onmouseover=" not in hostile.replace("onmouseover=&quot;", "")


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_report_command_escapes_bot_names(command: str, hostile_bots: list[str], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: ``simulate --report`` with a bot named ``x" onmouseover=...``."""
    pages = {}
    for kind, bots in (("hostile", hostile_bots[:4]), ("plain", [f"plain-{i}" for i in range(4)])):
        path = tmp_path / f"{kind}.html"
        args = [command, "--games", "3", "--bots", ",".join(bots), "--report", str(path)]
        if command == "tournament":
            args += ["--mode", "rotations"]
        assert cli.main(args) == 0, capsys.readouterr().err
        pages[kind] = path.read_text(encoding="utf-8")
    shape = same_shape(pages["hostile"], pages["plain"])
    labels = [v for v in shape.values if any(name in v for name in hostile_bots[:4])]
    assert labels and all(name in " ".join(labels) for name in hostile_bots[:4])


@pytest.fixture
def hostile_effect() -> Iterator[str]:
    """A custom effect (a plain wild) registered under a hostile name, and a plain one."""
    name = "<!--<script>" + HOSTILE[3]  # "<!--<script>" would make the browser read past the real end
    effects.register_effect(name, lambda state, player, target: state)
    effects.register_effect("plain-effect", lambda state, player, target: state)
    yield name
    effects._REGISTRY.pop(name, None)
    effects._REGISTRY.pop("plain-effect", None)


def record_with_effect(name: str, effect: str) -> u.GameRecord:
    """The first game (by seed) of random bots under GDJ85 where the Wild Customizable is played
    with ``effect`` (ACT-8), the profile named ``name``."""
    profile = attrs.evolve(u.load_profile("gdj85"), name=name, custom_effect=effect, description=name)
    for seed in range(200):
        record, _ = sim.record_game(profile, ["random"] * 4, seed)
        if any(isinstance(e, EffectApplied) for _, events, _ in record.steps() for e in events):
            return record
    raise AssertionError("no game of 200 played the Wild Customizable")


@pytest.mark.parametrize("player", [None, 1])
def test_replay_page_escapes_profile_effect_and_title(hostile_effect: str, player: int | None) -> None:
    hostile = record_with_effect(HOSTILE[0], hostile_effect)
    plain = record_with_effect("plain-profile", "plain-effect")
    assert hostile.moves == plain.moves  # the names change no card: the two pages show one game
    title = HOSTILE[2]
    shape = same_shape(replay_html(hostile, player, title), replay_html(plain, player, "plain title"))
    assert title in shape.text and any(HOSTILE[0] in piece for piece in shape.text)
    data = shape.by_id["steps"]
    # No "<" at all in a script's data: "<!--" then "<script" puts the browser's tokenizer in a state
    # where the real "</script>" no longer ends the element (html.parser does not model it).
    assert "<" not in data
    steps = json.loads(data)  # the script's data is still one JSON document
    words = " ".join(text for step in steps for _, text in step["events"])
    if player is None:  # every event is on the spectator's page, the effect's name with it
        assert repr(hostile_effect) in words

