"""A recorded game as one self-contained HTML page that steps through it move by move.

:func:`replay_html` replays a :class:`~unoengine.formats.record.GameRecord` and writes a page
with, for every step, the table drawn by render/svg.py, the move in notation and the events of
the move in words, each with its rule ID. Step 0 is the deal; step ``k`` is the table after move
``k``. The page needs no network: the frames, the text and a small script are all inline. The
script steps with the buttons, the arrow keys, Home and End, and the address's ``#k`` opens the
page at step ``k``.

From a player's point of view (``player``), each frame is that player's view and each event the
account :func:`~unoengine.engine.events.events_for` gives them, so nothing hidden from them is
in the file, not even the record's seed (from which every shuffle follows). The spectator's page
(``player=None``) draws every hand and says so at the top.

The frames are many similar SVG documents, so they are stored as pieces shared between frames
(:func:`pack_frames`), gzip-compressed and base64-encoded, and unpacked by the browser's own
``DecompressionStream``: a long game is a few hundred kB rather than tens of MB. The first
frame is also inline as plain SVG, so the page shows the deal before its script runs.
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from html import escape
from typing import Any, Final

from ..engine.errors import UnoEngineError, shown
from ..engine.events import Event, events_for
from ..engine.limits import MAX_REPLAY_MOVES
from ..engine.state import GameState
from ..engine.view import view
from ..formats.describe import describe
from ..formats.notation import format_move
from ..formats.record import GameRecord
from .svg import state_svg, view_svg

SPECTATOR_BANNER: Final = "Spectator's replay: this page shows every player's hidden cards."


class ReplayError(UnoEngineError):
    """A replay page asked for with a bad record or seat."""


def _who(player: int) -> str:
    return f"p{player}"


def event_lines(events: Sequence[Event]) -> list[tuple[str, str]]:
    """Each event as (rule ID, words): ``("ACT-3", "p3 draws 2")``."""
    return [(e.rule, describe([e], _who)) for e in events]


def _frame(state: GameState, player: int | None) -> str:
    return view_svg(view(state, player)) if player is not None else state_svg(state, 0)


def _check(record: object, player: object) -> GameRecord:
    if not isinstance(record, GameRecord):
        raise ReplayError(f"record: expected a GameRecord, got {shown(record)}")
    if player is not None and (type(player) is not int or not 0 <= player < record.players):
        raise ReplayError(f"player: must be a seat from 0 to {record.players - 1}, got {shown(player)}")
    return record


def replay_steps(record: GameRecord, player: int | None = None) -> Iterator[dict[str, object]]:
    """The page's steps as plain data, one at a time: ``{"move", "player", "events": [[rule,
    words], ...], "svg"}`` for the deal and then each move (RecordError at a move that does not
    replay; ReplayError for a record of more than MAX_REPLAY_MOVES moves)."""
    _check(record, player)
    if len(record.moves) > MAX_REPLAY_MOVES:
        raise ReplayError(f"record: a replay page shows at most {MAX_REPLAY_MOVES:,} moves, "
                          f"this record has {len(record.moves):,}")
    return _steps(record, player)


def _steps(record: GameRecord, player: int | None) -> Iterator[dict[str, object]]:
    start = record.initial_state()
    deal = [["SETUP-1", f"p{start.dealer} deals {start.profile.hand_size} cards to each of {record.players} players"],
            ["SETUP-3", f"the discard pile starts with {start.top_card!r}"]]
    yield {"move": "", "player": None, "events": deal, "svg": _frame(start, player)}
    for move, events, state in record.steps():
        seen = events if player is None else events_for(events, player)
        yield {"move": format_move(move), "player": move.player,
               "events": [list(line) for line in event_lines(seen)], "svg": _frame(state, player)}


_PIECE: Final = re.compile(r"(?=<g[ >])|(?<=</g>)")


class FramePacker:
    """Frames cut into pieces as they come (see :func:`pack_frames`), so a long game's frames are
    never all held as text at once."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.frames: list[list[int]] = []

    def add(self, frame: str) -> None:
        self.frames.append([self.index.setdefault(piece, len(self.index)) for piece in _PIECE.split(frame) if piece])

    def packed(self) -> dict[str, list[Any]]:
        return {"pieces": list(self.index), "frames": self.frames}


def pack_frames(frames: Iterable[str]) -> dict[str, list[Any]]:
    """The frames as ``{"pieces": [text, ...], "frames": [[piece index, ...], ...]}``: each SVG cut
    before every ``<g`` and after every ``</g>``, each distinct piece (a card, a seat) kept once.
    Frames of a long game are mostly the same cards in the same places, and gzip's 32 kB window
    sees little of the frame before a large one, so this is what keeps a long spectator's replay
    small. Joining a frame's pieces in order gives the frame back exactly."""
    packer = FramePacker()
    for frame in frames:
        packer.add(frame)
    return packer.packed()


def _script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element: ``<``, ``>`` and ``&`` are written as ``\\u`` escapes,
    so no text it holds (``</script>``, ``<!--``) can end the element early or change how the
    browser reads the rest of it."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def replay_html(record: GameRecord, player: int | None = None, title: str | None = None) -> str:
    """The replay page of ``record`` (text of one HTML file): from ``player``'s point of view, or
    the spectator's with ``player=None``."""
    steps: list[dict[str, object]] = []
    packer = FramePacker()
    first = ""
    for step in replay_steps(record, player):
        frame = str(step.pop("svg"))
        first = first or frame
        packer.add(frame)
        steps.append(step)
    packed_json = json.dumps(packer.packed(), separators=(",", ":"))  # base64 below: nothing in it can end the element
    packed = base64.b64encode(gzip.compress(packed_json.encode(), 9, mtime=0)).decode()
    n = len(steps) - 1
    who = "spectator (every hand shown)" if player is None else f"seen by p{player} (other hands hidden)"
    heading = title or f"UNO replay: {record.profile.name}, {record.players} players, {n} moves"
    facts = [("profile", f"{record.profile.name} (fingerprint {record.fingerprint[:12]})"),
             ("players", str(record.players)), ("moves", str(n)), ("view", who)]
    if player is None:  # a player's page leaves the seed out: every hidden card follows from it
        facts.insert(2, ("seed", str(record.seed)))
    banner = f'<p class="spectator" role="note">{escape(SPECTATOR_BANNER)}</p>' if player is None else ""
    moves = "".join(
        f'<li value="{k}"><a href="#{k}" data-step="{k}">{escape(str(s["move"]) or "the deal")}</a></li>'
        for k, s in enumerate(steps))
    return _PAGE.format(
        title=escape(heading), banner=banner,
        facts="".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts),
        first=first, last=n, moves=moves, steps=_script_json(steps), frames=packed, script=_SCRIPT,
        style=_STYLE)


_STYLE: Final = """
body{font-family:system-ui,sans-serif;margin:0;background:#f4f1ea;color:#1b1b1b}
header{padding:8px 16px;background:#0f5132;color:#fff}
header h1{font-size:18px;margin:0 0 4px}
dl{margin:0;display:flex;flex-wrap:wrap;gap:2px 14px;font-size:13px}dt{font-weight:bold}dd{margin:0}
.spectator{margin:0;padding:6px 16px;background:#b00020;color:#fff;font-weight:bold}
main{display:flex;gap:16px;padding:12px 16px;align-items:flex-start}
#stage{flex:0 1 760px;min-width:0}#table svg{width:100%;height:auto;display:block}
nav{display:flex;gap:6px;align-items:center;margin:0 0 8px}
button{font-size:15px;padding:4px 10px}#where{margin-left:8px;font-weight:bold}
#move{font-size:16px;margin:8px 0 4px;font-family:ui-monospace,monospace}
#events{margin:0;padding-left:18px}#events li{margin:2px 0}
.rule{display:inline-block;min-width:64px;font-family:ui-monospace,monospace;color:#6a1b9a}
aside{flex:0 0 190px;max-height:90vh;overflow:auto;font-family:ui-monospace,monospace;font-size:13px}
aside ol{margin:0;padding-left:46px}aside a{color:#1b1b1b;text-decoration:none}
aside li.now{background:#ffd54f}#status{color:#b00020}
"""

_SCRIPT: Final = r"""
"use strict";
(async () => {
  const steps = JSON.parse(document.getElementById("steps").textContent);
  const packed = atob(document.getElementById("frames").textContent.trim());
  const bytes = Uint8Array.from(packed, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const pack = JSON.parse(await new Response(stream).text());
  const frame = (k) => pack.frames[k].map((i) => pack.pieces[i]).join("");  // joined when shown
  const last = pack.frames.length - 1;
  const links = Array.from(document.querySelectorAll("aside li"));
  let at = -1;
  const clamp = (k) => Math.max(0, Math.min(last, k));
  const fromHash = () => { const k = parseInt(location.hash.slice(1), 10); return Number.isNaN(k) ? 0 : clamp(k); };
  function show(k) {
    if (k === at) return;
    if (at >= 0) links[at].classList.remove("now");
    at = k;
    links[at].classList.add("now");
    links[at].scrollIntoView({block: "nearest"});
    document.getElementById("table").innerHTML = frame(k);
    document.getElementById("where").textContent = `step ${k} of ${last}`;
    const s = steps[k];
    document.getElementById("move").textContent = k === 0 ? "the deal" : `move ${k}: ${s.move}`;
    const list = document.getElementById("events");
    list.replaceChildren(...s.events.map(([rule, words]) => {
      const li = document.createElement("li");
      const tag = document.createElement("span");
      tag.className = "rule";
      tag.textContent = rule;
      li.append(tag, " " + words);
      return li;
    }));
    document.getElementById("first").disabled = document.getElementById("prev").disabled = k === 0;
    document.getElementById("next").disabled = document.getElementById("end").disabled = k === last;
    document.body.dataset.step = String(k);
  }
  function go(k) {  // shown at once (keys held down step every time), then the address follows
    show(clamp(k));
    if (location.hash !== "#" + at) location.replace("#" + at);
  }
  window.addEventListener("hashchange", () => show(fromHash()));
  document.addEventListener("keydown", (e) => {
    const to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: last}[e.key];
    if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    go(to);
  });
  document.getElementById("first").onclick = () => go(0);
  document.getElementById("prev").onclick = () => go(at - 1);
  document.getElementById("next").onclick = () => go(at + 1);
  document.getElementById("end").onclick = () => go(last);
  show(fromHash());
  document.body.dataset.ready = "1";
})().catch((err) => {
  document.getElementById("status").textContent = "This browser cannot unpack the replay: " + err;
  throw err;
});
"""

_PAGE: Final = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{title}</title>
<style>{style}</style></head>
<body data-step="0">
<header><h1>{title}</h1><dl>{facts}</dl></header>
{banner}
<main>
<section id="stage" aria-live="polite">
<nav aria-label="steps">
<button id="first" type="button" title="first step (Home)">|&#x25C0;</button>
<button id="prev" type="button" title="previous step (left arrow)">&#x25C0;</button>
<button id="next" type="button" title="next step (right arrow)">&#x25B6;</button>
<button id="end" type="button" title="last step (End)">&#x25B6;|</button>
<span id="where">step 0 of {last}</span><span id="status"></span>
</nav>
<div id="table">{first}</div>
<p id="move">the deal</p>
<ul id="events"></ul>
</section>
<aside aria-label="moves"><ol>{moves}</ol></aside>
</main>
<script type="application/json" id="steps">{steps}</script>
<script type="text/plain" id="frames">{frames}</script>
<script>{script}</script>
</body></html>
"""
