"""Write the example messages of docs/protocol.md ("One decision of each kind") from real games.

    python docs/gen_protocol_examples.py           # print the section
    python docs/gen_protocol_examples.py --write   # put it into docs/protocol.md

Seeded games between the shipped bots are played through the runners' own turn order
(``unoengine.bots.turns.next_move``); the first decision of each kind is written as the runner
sends it to a program (``unoengine.formats.protocol.decide``, as ``ProgramBot`` builds it), so the
examples are never written by hand. tests/test_protocol_doc.py holds the page to the code: each
example must load as a ``decide`` message and have the fields and types of one made today.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "protocol.md"
START = "<!-- examples: start -->"
END = "<!-- examples: end -->"
TIME_MS = 10_000  # ProgramBot's default: ten seconds a decision
WIDTH = 100

sys.path.insert(0, str(ROOT / "src"))  # the source beside this file, installed or not

from unoengine import apply, load_profile, new_game  # noqa: E402
from unoengine.bots import make_bot  # noqa: E402
from unoengine.bots.turns import next_move  # noqa: E402
from unoengine.engine.moves import CallUno, CatchUno, Move, Play  # noqa: E402
from unoengine.engine.state import Phase  # noqa: E402
from unoengine.engine.view import PlayerView  # noqa: E402
from unoengine.formats import protocol  # noqa: E402


@attrs.frozen
class Kind:
    """One kind of decision: how to recognise it, the games it is looked for in, and what to say."""

    name: str
    title: str
    profile: str
    bots: tuple[str, ...]
    match: bool
    text: str
    shows: Callable[[PlayerView], bool] = lambda v: True
    """What the page's example should show besides its kind (a wild to name a colour for, say)."""


KINDS: tuple[Kind, ...] = (
    Kind("turn", "A turn: play a card, or draw", "classic-108", ("heuristic", "random"), False,
         "`phase` is `PLAY` and `current` is the bot's seat. A wild is listed once per colour it can "
         "name (`W:R`, `W:Y`, ...), and `draw` is there too.",
         lambda v: any(type(m) is Play and m.color is not None for m in v.legal_moves)),
    Kind("turn-uno", "A turn with two cards: call UNO with the play", "classic-108", ("heuristic", "random"), False,
         "Every play is listed twice, without and with `!`: the `!` form plays the next-to-last card "
         "and calls UNO (UNO-1). Count the cards of `hand` (split it on spaces) or read "
         "`hand_sizes[player]`."),
    Kind("drawn", "After drawing: play the drawn card, or pass", "classic-108", ("heuristic", "random"), False,
         "`phase` is `DRAWN` and `drawn_card` names the card just drawn (PLAY-4). The only plays are "
         "of that card; `pass` keeps it (PLAY-5)."),
    Kind("challenge", "A Wild Draw Four against the bot: challenge or accept", "classic-108",
         ("random", "random"), False,
         "`phase` is `CHALLENGE`; `challenge_attacker` played the Wild Draw Four and `challenge_color` is "
         "the colour it is judged on (WD4-2, WD4-3)."),
    Kind("choose-color", "A wild turned up first: name the colour", "classic-108", ("heuristic", "random"), False,
         "`phase` is `CHOOSE_COLOR` and `color` is `null`: the first player names it with "
         "`pN color C` (SETUP-8)."),
    Kind("penalty", "A Draw card under stacking: answer it or accept", "classic-108+stacking",
         ("heuristic", "random"), False,
         "`phase` is `PENALTY` and `pending_draw` counts the cards `accept` draws; a Draw card that "
         "answers it passes them on (HOUSE-1).",
         lambda v: any(type(m) is Play for m in v.legal_moves)),
    Kind("catch", "Out of turn: catch a player who did not call UNO", "classic-108", ("random", "random"), False,
         "`out_of_turn` is true, so `null` is an answer. `uno_exposed` is the seat that may be caught, "
         "and `pN catch pM` catches it (UNO-2)."),
    Kind("late-uno", "Out of turn: call UNO late", "classic-108", ("random", "random"), False,
         "The bot played its next-to-last card without calling (`uno_exposed` is its own seat): "
         "`pN uno` calls it before anyone catches it (UNO-4)."),
    Kind("jump-in", "Out of turn: jump in with the same card", "classic-108+jump-in", ("random", "random"), False,
         "Under the jump-in house rule, a card identical to the top card may be played out of turn "
         "(HOUSE-2); `null` lets the moment pass."),
    Kind("deal", "After a round of a match: deal the next one", "classic-108", ("heuristic", "random"), True,
         "`phase` is `ROUND_OVER`, `last_round` holds the result and `scores` the match so far; the "
         "next dealer answers `pN deal` (SETUP-11). Only in match play."),
)


def kind_of(v: PlayerView) -> str | None:
    """The kind of decision a view asks for (None when the player has no move)."""
    legal = v.legal_moves
    mine = [m for m in legal if m.player == v.player]
    if not mine:
        return None
    if not v.my_turn:
        if any(type(m) is CatchUno for m in mine):
            return "catch"
        if any(type(m) is CallUno for m in mine):
            return "late-uno"
        return "jump-in" if any(type(m) is Play for m in mine) else None
    by_phase = {Phase.ROUND_OVER: "deal", Phase.CHOOSE_COLOR: "choose-color", Phase.CHALLENGE: "challenge",
                Phase.PENALTY: "penalty", Phase.DRAWN: "drawn"}
    if v.phase in by_phase:
        return by_phase[v.phase]
    if v.phase is Phase.PLAY:
        return "turn-uno" if any(type(m) is Play and m.uno for m in mine) else "turn"
    return None


class Recorder:
    """A shipped bot that also writes the ``decide`` message a program in its seat would be sent,
    the first time its view is a decision of the wanted kind."""

    def __init__(self, name: str, wanted: str, found: Callable[[dict[str, Any]], None]) -> None:
        self.bot = make_bot(name)
        self.name = name
        self.wanted = wanted
        self.found = found
        self.decisions = 0
        self.seeds: random.Random | None = None

    def act(self, view: PlayerView, rng: random.Random) -> Move | None:
        if self.seeds is None:  # as ProgramBot: the seeds come from a copy of the seat's stream
            self.seeds = random.Random()
            self.seeds.setstate(rng.getstate())
        self.decisions += 1
        line = protocol.decide(self.decisions, view, self.seeds.getrandbits(53), TIME_MS)
        if kind_of(view) == self.wanted:
            self.found(json.loads(line))
        return self.bot.act(view, rng)


def messages(kind: Kind, games: int) -> Iterator[dict[str, Any]]:
    """Every ``decide`` message of ``kind`` in ``games`` seeded games of its profile and bots, in order."""
    profile = load_profile(kind.profile)
    end = Phase.MATCH_OVER if kind.match else Phase.ROUND_OVER
    for seed in range(games):
        found: list[dict[str, Any]] = []
        seats = [Recorder(name, kind.name, found.append) for name in kind.bots]
        rngs = [random.Random(f"{seed}/seat{i}") for i in range(len(seats))]
        state = new_game(profile, len(seats), seed=seed)
        while state.phase < end and not (kind.match and found):  # a match: its first round is enough
            state = apply(state, next_move(state, seats, rngs))  # type: ignore[arg-type]
        yield from found


def first_message(kind: Kind, games: int = 200) -> dict[str, Any]:
    """The first ``decide`` message of ``kind`` in seeded games of its profile and bots."""
    for message in messages(kind, games):
        return message
    raise SystemExit(f"no decision of kind {kind.name!r} in {games} games of {kind.profile}")


def example(kind: Kind, games: int = 200, candidates: int = 40) -> dict[str, Any]:
    """The page's example of ``kind``: the shortest of the first ``candidates`` that show what it should."""
    from unoengine.formats.protocol import read_decide

    fitting = (m for m in messages(kind, games) if kind.shows(read_decide(m).view))
    chosen = list(itertools.islice(fitting, candidates))
    if not chosen:
        raise SystemExit(f"no decision of kind {kind.name!r} showing what it should in {games} games")
    return min(chosen, key=lambda m: len(json.dumps(shown(m))))


def shown(message: dict[str, Any]) -> dict[str, Any]:
    """The message as the page shows it: the view without its profile tables."""
    view = {k: v for k, v in message["view"].items() if k != "profile"}
    return {**message, "view": view}


def layout(value: Any, column: int = 0) -> str:
    """JSON text: a value that fits on the rest of the line stays on it, else an object's items are
    packed into lines of at most WIDTH characters, aligned under its first item."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict) or column + len(flat) <= WIDTH:
        return flat
    lines: list[str] = []
    line = "{"
    for i, (key, item) in enumerate(value.items()):
        piece = json.dumps(key) + ": "
        tail = "," if i < len(value) - 1 else "}"
        if line.strip() not in ("", "{"):  # after another item: on this line if it fits
            text = layout(item, column + len(line) + 1 + len(piece))
            if "\n" not in text and column + len(line) + 1 + len(piece + text + tail) <= WIDTH:
                line += " " + piece + text + tail
                continue
            lines.append(line)
            line = " "
        text = layout(item, column + len(line) + len(piece))
        line += piece + text + tail
        if "\n" in text:  # an object spread over lines: the next item starts a line of its own
            lines.append(line)
            line = " "
    if line.strip():
        lines.append(line)
    return ("\n" + " " * column).join(lines)


def examples() -> Iterator[tuple[Kind, dict[str, Any]]]:
    for kind in KINDS:
        yield kind, example(kind)


def section() -> str:
    """The Markdown between the markers of docs/protocol.md."""
    out = [START, ""]
    for kind, message in examples():
        players = len(kind.bots)
        about = f"`{kind.profile}`, {players} players{', match play' if kind.match else ''}. {kind.text}"
        out += [f"### {kind.title}", "", textwrap.fill(about, WIDTH, break_on_hyphens=False), "",
                "```json", layout(shown(message)), "```", ""]
    out.append(END)
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true", help="replace the section in docs/protocol.md")
    args = parser.parse_args()
    text = section()
    if not args.write:
        print(text)
        return 0
    page = PAGE.read_text(encoding="utf-8")
    if START not in page or END not in page:
        print(f"{PAGE}: the markers of the examples section are missing", file=sys.stderr)
        return 1
    before, rest = page.split(START, 1)
    after = rest.split(END, 1)[1]
    PAGE.write_text(before + text + after, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
