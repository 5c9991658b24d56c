"""The learning recipe (benchmarks/learn_vs_heuristic.py, docs/learning.md), run for a few hundred
steps: deterministic from its seed, its curve and weights written and loadable, and the trained
policy a bot that plays legal moves in reference games. Learning well is the recipe's full run,
recorded in docs/learning.md, not a test."""

from __future__ import annotations

import csv
import io
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import unoengine as u
from unoengine.bots import make_bot
from unoengine.envs.actions import ActionError
from unoengine.envs.learn.bot import ResidualPolicyBot
from unoengine.envs.learn.es import Settings, Trainer, duplicate_wins
from unoengine.envs.learn.policy import PolicyFileError, ResidualPolicy, load_policy
from unoengine.tools.simulate import play_game, tournament

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

QUICK = ["--generations", "3", "--eval-every", "2", "--curve-deals", "16", "--final-deals", "4",
         "--pairs", "2", "--deals", "12", "--sigma", "0.5", "--learning-rate", "0.3"]


def test_the_recipe_is_deterministic_and_writes_what_it_says(tmp_path: Path) -> None:
    from learn_vs_heuristic import main

    one = main([*QUICK, "--seed", "4", "--out", str(tmp_path / "one")])
    main([*QUICK, "--seed", "4", "--out", str(tmp_path / "two"), "--final-deals", "0"])
    main([*QUICK, "--seed", "5", "--out", str(tmp_path / "other"), "--final-deals", "0"])
    a, b, c = (load_policy(tmp_path / d / "policy.npz") for d in ("one", "two", "other"))
    assert np.array_equal(a.W, b.W) and np.array_equal(a.b, b.b)
    assert not np.array_equal(a.b, c.b)  # the seed matters, and training moved the biases
    assert np.abs(a.b).sum() > 0 and not a.W.any()  # the recipe learns b alone
    with open(tmp_path / "one" / "curve.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["generation"]) for r in rows] == [0, 2, 3]
    assert all(0 <= float(r["low"]) <= float(r["win_rate"]) <= float(r["high"]) <= 1 for r in rows)
    assert all(int(r["games"]) == 32 for r in rows)
    png = (tmp_path / "one" / "curve.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and b"IEND" in png[-12:]
    assert (tmp_path / "one" / "curve.svg").read_text().startswith("<svg")
    assert one["final_games"] == 8 and 0 <= one["final_wins"] <= 8


def test_the_trained_policy_plays_legal_moves_as_a_bot(tmp_path: Path) -> None:
    trainer = Trainer(seed=1, settings=Settings(pairs=2, deals=8, sigma=1.0, learning_rate=1.0, bias_only=False))
    trainer.generation()
    policy = trainer.current()
    assert policy.W.any() and policy.b.any()
    path = tmp_path / "w.npz"
    policy.save(path)
    bots = [f"policy:{path}", "heuristic"]
    for seed in range(4):  # play_game raises BotError on any illegal move
        result = play_game(u.load_profile("classic-108"), bots, seed, max_moves=5000)
        assert result.winner in (0, 1)
    ranked, _ = tournament("classic-108", bots, 3, 9)
    assert sum(s.games for s in ranked) == 12
    bot = make_bot(f"policy:{path}")
    assert isinstance(bot, ResidualPolicyBot) and bot.name == f"policy:{path}"


def test_a_zero_policy_is_the_heuristic() -> None:
    """With no correction the policy plays the heuristic's action wherever it is legal."""
    policy = ResidualPolicy("classic-108", 2)
    obs = np.random.default_rng(0).random((5, policy.observations.size)).astype(np.float32)
    masks = np.ones((5, policy.actions.size), np.uint8)
    prior = np.array([1, 20, 30, 4, 60])
    assert policy.act(obs, masks, prior).tolist() == prior.tolist()
    with pytest.raises(ActionError, match="observations, masks"):
        policy.act(obs[:, :5], masks, prior)
    with pytest.raises(ActionError, match="theta"):
        policy.with_flat(np.zeros(3))
    with pytest.raises(ActionError, match="seed"):
        Trainer(seed=-1)
    wins = duplicate_wins(policy, 40, 3)
    assert wins.shape == (40,) and set(wins.tolist()) <= {0, 1, 2}


def _npz(**fields: object) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **fields)  # type: ignore[arg-type]
    return buffer.getvalue()


def refused_field(path: Path, match: str | None = None) -> str:
    """load_policy refuses the file with one line naming it; the field it names."""
    with pytest.raises(PolicyFileError, match=match) as info:
        load_policy(path)
    assert str(info.value).startswith(f"weights file {str(path)!r}: {info.value.field}: ")
    assert "\n" not in str(info.value)
    return info.value.field


def test_bad_weights_files_are_refused_naming_the_field(tmp_path: Path) -> None:
    good = ResidualPolicy("classic-108", 2)
    base = {"format": np.array("unoengine-residual-policy/1"), "profile": np.array("classic-108"),
            "players": np.array(2), "prior": np.array(1.0), "W": good.W, "b": good.b}
    cases = {
        "format": {**base, "format": np.array("something-else")},
        "players": {**base, "players": np.array(11)},
        "prior": {**base, "prior": np.array(np.nan)},
        "W": {**base, "W": np.zeros((3, 3), np.float32)},
        "b": {**base, "b": np.full(good.b.shape, np.inf, np.float32)},
        "profile": {**base, "profile": np.array("no-such-profile")},
        "extra": {**base, "extra": np.zeros(1)},
    }
    for field, data in cases.items():
        path = tmp_path / f"{field}.npz"
        path.write_bytes(_npz(**data))
        assert refused_field(path) == ("file" if field == "extra" else field), field
    missing = dict(base)
    del missing["b"]
    (tmp_path / "missing.npz").write_bytes(_npz(**missing))
    assert refused_field(tmp_path / "missing.npz", "missing") == "b"
    pickled = dict(base, W=np.array([object()], dtype=object))
    buffer = io.BytesIO()
    np.savez(buffer, **pickled)  # an object array is stored pickled: never unpickled on loading
    (tmp_path / "pickled.npz").write_bytes(buffer.getvalue())
    assert refused_field(tmp_path / "pickled.npz", "pickled") == "W"
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    assert refused_field(tmp_path / "junk.npz", "not an .npz") == "file"
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    assert refused_field(tmp_path / "empty.npz", "missing") == "format"
    assert refused_field(tmp_path / "absent.npz", "cannot read") == "file"
    (tmp_path / "big.npz").write_bytes(b"\0" * (16 << 20 | 1))
    assert refused_field(tmp_path / "big.npz", "larger than") == "file"
    good.save(tmp_path / "good.npz")
    assert load_policy(tmp_path / "good.npz").size == good.size


def test_the_command_line_finds_the_policy_kind_without_an_import() -> None:
    """``policy:PATH`` is declared as an entry point (group unoengine.bot_kinds), so a fresh
    process that never imported unoengine.envs.learn plays it from the command line."""
    import subprocess

    weights = ROOT / "docs" / "examples" / "learned-policy.npz"
    done = subprocess.run([sys.executable, "-m", "unoengine", "simulate", "--bots", f"policy:{weights},heuristic",
                           "--games", "4", "--seed", "2", "--json"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert '"bot": "policy:' in done.stdout


def test_an_unknown_bot_kind_is_no_bot_name() -> None:
    from unoengine.bots.base import is_bot_name, known_bots_text

    assert not is_bot_name("no-such-kind:x") and is_bot_name("policy:anything.npz")
    assert "policy:..." in known_bots_text()
