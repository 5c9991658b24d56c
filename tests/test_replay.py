"""The replay page (render/replay.py, ``unoengine replay``) and where its records come from
(``play --save-record``, ``simulate --records``): every frame of the page is the picture of that
step (parsed as XML), every event of a move is there in words with its rule ID (PLAY-1, ACT-1,
...), a player's page holds nothing hidden from that player, and bad input is one line, exit 2.
The page in a real browser is tests/test_browser.py."""

from __future__ import annotations

import base64
import gzip
import io
import json
import re
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from budget import DEEP
from test_play_cli import parse as play_options

import unoengine as u
from unoengine.engine.events import events_for
from unoengine.engine.limits import MAX_REPLAY_MOVES
from unoengine.formats.describe import describe
from unoengine.render.replay import ReplayError, event_lines, pack_frames, replay_html, replay_steps
from unoengine.render.svg import state_svg, view_svg
from unoengine.tools import cli
from unoengine.tools import simulate as sim
from unoengine.tools.play import run as play_run


def page_data(html: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The steps' text and the frames, unpacked as the page's script unpacks them."""
    steps = json.loads(re.search(r'<script type="application/json" id="steps">(.*?)</script>', html, re.S)
                       .group(1).replace("<\\/", "</"))  # type: ignore[union-attr]
    blob = re.search(r'<script type="text/plain" id="frames">(.*?)</script>', html, re.S).group(1)  # type: ignore[union-attr]
    packed = json.loads(gzip.decompress(base64.b64decode(blob)))
    frames = ["".join(packed["pieces"][i] for i in ids) for ids in packed["frames"]]
    return steps, frames


@pytest.fixture(scope="module")
def record() -> u.GameRecord:
    """A four-player game of heuristic bots with a Wild Draw Four, a skip and a round's end."""
    rec, result = sim.record_game("classic-108", ["heuristic"] * 4, sim.game_seed(0, 1), 1)
    assert result.moves == len(rec.moves) and rec.replay().round_over
    return rec


@pytest.mark.parametrize("player", [0, 2, None])
def test_every_step_is_the_picture_and_the_events_of_that_move(record: u.GameRecord, player: int | None) -> None:
    html = replay_html(record, player)
    steps, frames = page_data(html)
    states = list(record.states())
    assert len(steps) == len(frames) == len(record.moves) + 1
    for state, frame in zip(states, frames, strict=True):
        ET.fromstring(frame)  # each frame is a well-formed SVG document
        assert frame == (view_svg(u.view(state, player)) if player is not None else state_svg(state, 0))
    assert [s["move"] for s in steps[1:]] == [u.format_move(m) for m in record.moves]
    assert [rule for rule, _ in steps[0]["events"]] == ["SETUP-1", "SETUP-3"]
    for step, (move, events, _) in zip(steps[1:], record.steps(), strict=True):
        seen = events if player is None else events_for(events, player)
        assert step["events"] == [[e.rule, describe([e], lambda p: f"p{p}")] for e in seen]
        assert step["player"] == move.player
    first = re.search(r'<div id="table">(.*?)</div>', html, re.S).group(1)  # type: ignore[union-attr]
    assert first == frames[0]  # the deal shows before the script runs
    assert "https://" not in html and "http://" not in html.replace("http://www.w3.org/2000/svg", "")


def test_the_events_are_in_words_with_their_rules() -> None:
    """PLAY-1 a card played on its colour, PLAY-2 on its symbol, ACT-1 a Skip."""
    state = u.from_position("classic-108", ["RS R+2 R5", "G1 G2 G3", "B1 GS B2"], "R1", current=0)
    state, events = u.apply_with_events(state, u.Play(0, u.parse_card("RS")))
    assert event_lines(events) == [("PLAY-1", "p0 plays RS"), ("ACT-1", "p1 misses the turn")]
    state, events = u.apply_with_events(state, u.Play(2, u.parse_card("GS")))
    assert event_lines(events) == [("PLAY-2", "p2 plays GS"), ("ACT-1", "p0 misses the turn")]


def test_a_players_page_hides_what_the_player_cannot_see(record: u.GameRecord) -> None:
    """No other hand, no other player's drawn cards, and not the seed, from which every shuffle follows."""
    html = replay_html(record, 1)
    steps, frames = page_data(html)
    assert str(record.seed) not in html and "Spectator" not in html
    for state, frame in zip(record.states(), frames, strict=True):
        cards = re.findall(r'data-card="([^"]+)"', frame)
        assert sorted(cards) == sorted([repr(state.top_card)] + [repr(c) for c in state.hands[1]])
    draws = [(int(m.group(1)), text) for step in steps for _, text in step["events"]
             if (m := re.match(r"p(\d) draws", text))]
    assert any(p != 1 for p, _ in draws) and any(p == 1 and "(" in text for p, text in draws)
    assert all("(" not in text for p, text in draws if p != 1)  # others' drawn cards are not named
    spectator = replay_html(record, None)
    assert str(record.seed) in spectator
    assert "Spectator's replay: this page shows every player's hidden" in unescape(spectator)
    _, frames = page_data(spectator)
    assert all("spectator view: shows every hidden hand" in f for f in frames)


def test_frames_pack_into_shared_pieces_and_back() -> None:
    frames = ['<svg><g a="1">x</g><g b="2"><g c="3">y</g></g>tail</svg>', '<svg><g a="1">x</g>other</svg>']
    packed = pack_frames(frames)
    assert ["".join(packed["pieces"][i] for i in ids) for ids in packed["frames"]] == frames
    assert len(packed["pieces"]) < sum(len(f) for f in packed["frames"])


def test_a_long_game_stays_small(record: u.GameRecord) -> None:
    """The pieces shared between frames and gzip keep a spectator's page small (the deep run: a
    ten-player game of some 220 moves, under an eighth of its frames' size)."""
    rec = sim.record_game("classic-108", ["heuristic"] * 10, sim.game_seed(0, 0), 0)[0] if DEEP else record
    html = replay_html(rec, None)
    raw = sum(len(f) for f in (state_svg(s, 0) for s in rec.states()))
    assert len(html) < raw / (8 if DEEP else 5), (len(html), raw)


def test_bad_input_names_the_problem(record: u.GameRecord) -> None:
    with pytest.raises(ReplayError, match="record: expected a GameRecord"):
        replay_html("not a record")  # type: ignore[arg-type]
    with pytest.raises(ReplayError, match="player: must be a seat from 0 to 3, got 4"):
        replay_steps(record, 4)
    with pytest.raises(ReplayError, match="player: must be a seat"):
        replay_steps(record, True)  # type: ignore[arg-type]
    too_long = record.with_moves([u.Draw(0)] * (MAX_REPLAY_MOVES + 1 - len(record.moves)))
    with pytest.raises(ReplayError, match="at most 30,000 moves, this record has 30,001"):
        replay_html(too_long, 0)
    with pytest.raises(u.RecordError):  # at the limit the record is replayed (and this one refused)
        replay_html(record.with_moves([u.Draw(0)] * (MAX_REPLAY_MOVES - len(record.moves))), 0)
    broken = record.with_moves([u.Play(0, u.parse_card("R5"))])  # the round is over: nothing may be played
    with pytest.raises(u.RecordError, match=f"move {len(record.moves)}"):
        replay_html(broken, 0)


# --- the command line -------------------------------------------------------------------------------
def main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = cli.main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def test_replay_command_writes_the_page(tmp_path: Path, record: u.GameRecord, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    path = tmp_path / "game.json"
    path.write_text(u.dumps(record))
    rc, out, _ = main(capsys, "replay", str(path), "--html", str(tmp_path / "p2.html"), "--player", "2")
    assert rc == 0 and "seen by p2" in out
    assert (tmp_path / "p2.html").read_text() == replay_html(record, 2)
    rc, out, _ = main(capsys, "replay", str(path), "--html", str(tmp_path / "all.html"), "--spectator")
    assert rc == 0 and (tmp_path / "all.html").read_text() == replay_html(record, None)
    rc, _, _ = main(capsys, "replay", str(path), "--html", str(tmp_path / "p0.html"))
    assert rc == 0 and (tmp_path / "p0.html").read_text() == replay_html(record, 0)  # p0 by default


def bad(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    rc, out, err = main(capsys, *args)
    assert rc == 2 and err.count("\n") == 1 and not out, (rc, out, err)
    return err


def test_replay_command_refuses_bad_input(tmp_path: Path, record: u.GameRecord,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "game.json"
    good.write_text(u.dumps(record))
    out = str(tmp_path / "out.html")
    (tmp_path / "junk.json").write_text("<html>")
    assert "not valid JSON" in bad(capsys, "replay", str(tmp_path / "junk.json"), "--html", out)
    (tmp_path / "profile.json").write_text(u.dumps(u.load_profile("classic-108")))
    assert "not a game record" in bad(capsys, "replay", str(tmp_path / "profile.json"), "--html", out)
    broken = json.loads(good.read_text())
    broken["players"] = "four"
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    assert "players" in bad(capsys, "replay", str(tmp_path / "broken.json"), "--html", out)
    assert "--player must be a seat from 0 to 3" in bad(capsys, "replay", str(good), "--html", out, "--player", "9")
    assert "--player must be a seat" in bad(capsys, "replay", str(good), "--html", out, "--player", "-1")
    assert "not a file in an existing folder" in bad(capsys, "replay", str(good), "--html",
                                                     str(tmp_path / "no" / "such.html"))
    assert "cannot read" in bad(capsys, "replay", str(tmp_path / "missing.json"), "--html", out)
    assert not (tmp_path / "out.html").exists()


def test_play_saves_a_record_that_replays(tmp_path: Path) -> None:
    """``play --save-record``: the game as it was played (the person's moves and the bots'), even on quit."""
    target = tmp_path / "mine.json"
    out = io.StringIO()
    rc = play_run(play_options("--seed", "5", "--players", "3", "--save-record", str(target)),
                  io.StringIO("1\n1\n1\nquit\n"), out)
    assert rc == 0 and f"written to {target}" in out.getvalue()
    record = u.loads(target.read_text())
    assert isinstance(record, u.GameRecord) and record.seed == 5 and record.players == 3 and record.moves
    assert any(m.player == 0 for m in record.moves)  # the person's own moves are in it
    steps, _ = page_data(replay_html(record, 0))
    assert len(steps) == len(record.moves) + 1
    rc = play_run(play_options("--save-record", str(tmp_path / "no" / "such.json")), io.StringIO("quit\n"),
                  io.StringIO())
    assert rc == 2


def test_simulate_saves_a_bounded_number_of_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "records"
    rc, out, err = main(capsys, "simulate", "--games", "6", "--bots", "heuristic,random,random", "--json",
                        "--records", str(folder), "--record-count", "2")
    assert rc == 0 and "saved 2 record(s)" in err
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["game-000000.json", "game-000001.json"]
    results = sim.run("classic-108", ["heuristic", "random", "random"], 2)
    for name, result in zip(names, results, strict=True):
        record = u.loads((folder / name).read_text())
        assert isinstance(record, u.GameRecord) and record.seed == result.seed
        assert len(record.moves) == result.moves
        assert record.replay().match.last_round.winner == result.winner  # type: ignore[union-attr]
    assert json.loads(out)["games"] == 6
    assert "--record-count must be from 1 to 1,000" in bad(capsys, "simulate", "--games", "2", "--records",
                                                           str(folder), "--record-count", "0")
    (tmp_path / "file").write_text("")
    assert "--records" in bad(capsys, "simulate", "--games", "2", "--records", str(tmp_path / "file"))
