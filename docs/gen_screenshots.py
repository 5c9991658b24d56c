"""Make the screenshots of docs/rendering.md in headless Chromium: a 2-player and a 10-player
table (render/svg.py), a replay page (render/replay.py) and a simulation report (render/report.py).

    PYTHONPATH=src python docs/gen_screenshots.py        # writes docs/images/*.png

The games are fixed by their seeds, so the pictures change only when the drawing or the shuffle
does. The pictures in docs/images were taken under the legacy shuffle "mt19937"; since the
default is "splitmix64-v1" (docs/shuffle.md), running this again deals other games, and what
docs/rendering.md says of each picture (who is to play, what was drawn) must be checked against
the new ones. Chromium is driven as in the browser tests (tests/chromium.py).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from chromium import browser, file_url  # noqa: E402

import unoengine as u  # noqa: E402
from unoengine.render.replay import replay_html  # noqa: E402
from unoengine.render.svg import view_svg  # noqa: E402
from unoengine.tools import simulate as sim  # noqa: E402
from unoengine.tools.report import simulate_report  # noqa: E402

IMAGES = ROOT / "docs" / "images"


def played(profile: str, players: int, seed: int, moves: int) -> u.GameState:
    """A game some moves in, played by heuristic bots (so the hands are mixed and the badges real)."""
    record, _ = sim.record_game(profile, ["heuristic"] * players, seed)
    states = list(record.states())
    return states[min(moves, len(states) - 2)]


def page(svg: str) -> str:
    return ('<!DOCTYPE html><html><head><link rel="icon" href="data:,"><style>svg{display:block}</style></head>'
            f'<body style="margin:0">{svg}</body></html>')


def shoot(html: str, name: str, width: int, height: int, folder: Path) -> None:
    path = folder / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    with browser(width, height) as b:
        b.open(file_url(path) + "#12")
        if "DecompressionStream" in html:
            b.wait_until("document.body.dataset.ready === '1'")
        height = min(int(b.evaluate("Math.ceil(document.body.getBoundingClientRect().height)")), 1600)
        png = b.screenshot((0, 0, width, height))
        problems = b.problems()
    if problems:
        raise SystemExit(f"{name}: the page reported {problems}")
    (IMAGES / f"{name}.png").write_bytes(png)
    print(f"wrote docs/images/{name}.png ({len(png):,} bytes)")


def main() -> None:
    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        two = played("classic-108", 2, 11, 9)
        shoot(page(view_svg(u.view(two, 0))), "table-2-players", 760, 560, folder)
        ten = played("classic-108", 10, 5, 40)
        shoot(page(view_svg(u.view(ten, 3))), "table-10-players", 760, 560, folder)
        record, _ = sim.record_game("classic-108", ["heuristic"] * 4, sim.game_seed(0, 1))
        shoot(replay_html(record, None), "replay-page", 1000, 900, folder)
        started = time.perf_counter()
        tally = sim.Tally(4)
        for result in sim.iter_results("classic-108", ["heuristic", "heuristic", "random", "random"], 400, seed=0):
            tally.add(result)
        summary = tally.summary(["heuristic", "heuristic", "random", "random"])
        report = simulate_report(summary, "classic-108", 0, False, time.perf_counter() - started)
        shoot(report, "simulate-report", 900, 1400, folder)


if __name__ == "__main__":
    main()
