"""docs/protocol.md says what the runner sends: every field of every message and of the view, the
card names, and one example per kind of decision, each still a message the code sends today.

The examples were written from real games by docs/gen_protocol_examples.py; here each is loaded
as the bot would load it, and its fields and their JSON types are compared with a message of the
same kind that protocol.decide builds now from a real game. So the page cannot drift from the code.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import unoengine as u
from unoengine.formats import protocol

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_protocol_examples", ROOT / "docs" / "gen_protocol_examples.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = _generator()


def section(heading: str) -> str:
    """The text of the page's section ``## heading`` (up to the next ``## ``)."""
    start = PAGE.index(f"\n## {heading}\n")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start:end if end >= 0 else None]


def table_rows(text: str) -> list[list[str]]:
    """The cells of the Markdown table rows in ``text``, header and rule lines left out."""
    lines = text.splitlines()
    headers = {i - 1 for i, line in enumerate(lines) if line.startswith("| ---")}
    return [[c.strip() for c in line.strip().strip("|").split("|")] for i, line in enumerate(lines)
            if line.startswith("|") and not line.startswith("| ---") and i not in headers]


def code_spans(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def shape(value: Any) -> Any:
    """What a JSON value's type says: objects by their keys, arrays by their items' shape; null is
    anything (a field that is null in one message holds a value in another)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        shapes = [shape(v) for v in value]
        return ["list", *shapes[:1]]
    return None if value is None else type(value).__name__


def same_shape(documented: Any, sent: Any, path: str = "") -> list[str]:
    """Where two shapes differ (an empty list or a null matches anything)."""
    if documented is None or sent is None:
        return []
    if isinstance(documented, dict) and isinstance(sent, dict):
        problems = [f"{path}.{k}: documented, not sent" for k in documented.keys() - sent.keys()]
        problems += [f"{path}.{k}: sent, not documented" for k in sent.keys() - documented.keys()]
        for k in documented.keys() & sent.keys():
            problems += same_shape(documented[k], sent[k], f"{path}.{k}")
        return problems
    if isinstance(documented, list) and isinstance(sent, list):
        return same_shape(documented[1], sent[1], f"{path}[]") if len(documented) > 1 and len(sent) > 1 else []
    return [] if documented == sent else [f"{path}: documented {documented}, sent {sent}"]


def documented_examples() -> list[dict[str, Any]]:
    start, end = PAGE.index(gen.START), PAGE.index(gen.END)
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", PAGE[start:end], re.S)]


# --- the fields -----------------------------------------------------------------------------------

def test_every_field_of_the_view_is_specified() -> None:
    """The view table names exactly the fields of the view document, in its order."""
    state = u.new_game("classic-108", 3, seed=1)
    sent = list(u.to_json(u.view(state, 0)))
    documented = [name for row in table_rows(section("The view")) for name in code_spans(row[0])]
    assert documented == sent


def test_every_field_of_every_message_is_specified() -> None:
    """Each message's row in the tables of "Messages" names each field the code writes."""
    state = u.new_game("classic-108", 2, seed=1)
    sent = [protocol.hello(), protocol.game(0, 2, state.profile),
            protocol.decide(1, u.view(state, 0), 5, 1000, rng_state=[1, 2]),
            protocol.event(u.legal_moves(state)[0]), protocol.game_over(), protocol.bye(),
            protocol.ready("x", events=True), protocol.move(1, None)]
    rows = {code_spans(row[0])[0]: row for row in table_rows(section("Messages"))}
    for line in sent:
        message = json.loads(line)
        row = " | ".join(rows[message["type"]][1:])
        missing = [field for field in message if field != "type" and f"`{field}`" not in row]
        assert not missing, f"{message['type']}: {missing} not in docs/protocol.md"


def test_the_card_names_are_the_engines() -> None:
    """Each card name on the page is a card's name as the engine writes it, and every kind of card
    (numbers, Skip, Reverse, Draw Two, each wild) has one."""
    names = [n for row in table_rows(section("Cards, colours and moves")) for cell in row[1:] for n in code_spans(cell)]
    cards = []
    for name in names:
        if name.startswith(("W", "BLK")) or re.fullmatch(r"[RYGB](\d|S|R|\+2)", name):
            card = u.parse_card(name)
            assert repr(card) == name
            cards.append(card)
    kinds = {int(c) if c.is_wild else ("number" if c.symbol <= 9 else c.symbol) for c in cards}
    every = {int(c) if c.is_wild else ("number" if c.symbol <= 9 else c.symbol) for c in map(u.Card, range(58))}
    assert kinds == every


# --- the examples ---------------------------------------------------------------------------------

def test_there_is_one_example_per_kind_of_decision() -> None:
    examples = zip(documented_examples(), gen.KINDS, strict=True)
    kinds = [gen.kind_of(protocol.read_decide(with_profile(m, k)).view) for m, k in examples]
    assert kinds == [k.name for k in gen.KINDS]
    headings = re.findall(r"^### (.+)$", PAGE[PAGE.index(gen.START):PAGE.index(gen.END)], re.M)
    assert headings == [k.title for k in gen.KINDS]


def with_profile(message: dict[str, Any], kind: Any) -> dict[str, Any]:
    """The example as it was sent: the view's profile put back (the page leaves it out)."""
    profile = u.load_profile(kind.profile)
    assert message["view"]["fingerprint"] == profile.fingerprint, f"{kind.name}: not a {kind.profile} game"
    view = {"unoengine": "view", "version": 1, "profile": u.to_json(profile)["profile"], **message["view"]}
    return {**message, "view": view}


@pytest.mark.parametrize("index", range(len(gen.KINDS)), ids=[k.name for k in gen.KINDS])
def test_each_example_is_a_message_the_runner_sends_today(index: int) -> None:
    """The example loads as a ``decide`` message (its view is checked as any untrusted view is),
    its ``legal`` are its view's legal moves, and it has the fields, and their types, of a message
    of the same kind that protocol.decide builds now from a real game."""
    kind = gen.KINDS[index]
    documented = with_profile(documented_examples()[index], kind)
    decision = protocol.read_decide(documented)
    assert documented["legal"] == documented["view"]["legal_moves"]
    assert [u.parse_move(m) for m in documented["legal"]] == list(decision.view.legal_moves)
    assert documented["out_of_turn"] == (not decision.view.my_turn)
    sent = gen.first_message(kind)
    assert protocol.read_decide(sent).view.phase.name == documented["view"]["phase"]
    assert not same_shape(shape(documented), shape(sent)), same_shape(shape(documented), shape(sent))


def test_a_changed_field_is_seen() -> None:
    """The comparison can fail: a field renamed, dropped or of another type is reported."""
    sent = {"type": "decide", "view": {"hand": "R1 R2", "known": [{"owner": 1, "cards": "G1"}]}}
    assert same_shape(shape(sent), shape(sent)) == []
    renamed = {"type": "decide", "view": {"cards": "R1 R2", "known": []}}
    assert sorted(same_shape(shape(renamed), shape(sent))) == [".view.cards: documented, not sent",
                                                                ".view.hand: sent, not documented"]
    as_array = {"type": "decide", "view": {"hand": ["R1", "R2"], "known": [{"owner": 1, "cards": "G1"}]}}
    assert same_shape(shape(as_array), shape(sent)) == [".view.hand: documented ['list', 'str'], sent str"]
