"""``simulate``/``tournament`` with ``backend="compiled"`` (tools/simulate_compiled.py, issue 34): the
same results as the reference backend for the same seed (winners, points, moves, penalty draws by
rule, failures), every compiled game's record replaying on the reference engine, and the refusals."""

from __future__ import annotations

import json
import random
import sys

import pytest

pytest.importorskip("numba")

import attrs
import numpy as np
from budget import budget
from compiled_games import VARIANT_IDS, VARIANTS, compiled_profile, random_states

import unoengine as u
from unoengine.bots.base import register_bot
from unoengine.bots.compiled_policies import compiled_policy
from unoengine.bots.heuristic import HeuristicBot
from unoengine.bots.random_bot import RandomBot
from unoengine.compiled.codes import MAX_LEGAL, decode
from unoengine.compiled.config import UnsupportedRuleError, config_of
from unoengine.compiled.convert import to_array
from unoengine.engine.moves import Move
from unoengine.engine.view import PlayerView
from unoengine.tools import cli
from unoengine.tools import simulate as sim


@pytest.mark.parametrize(("spec", "changes"), VARIANTS, ids=VARIANT_IDS)
def test_a_compiled_run_gives_the_reference_results(spec: str, changes: dict[str, object]) -> None:
    """Random bots (given decoded moves) and heuristic ones (given converted views), every
    profile and overlay: the same GameResults, penalty draws by rule included (PENALTY_RULES)."""
    profile = compiled_profile(spec, **changes)
    players = min(profile.max_players, 4)
    bots = ["random", "heuristic", "random", "heuristic"][:players]
    kw = {"max_moves": 3000, "keep_going": True}
    ref = sim.run(profile, bots, budget(4, 60, 600), seed=21, **kw)
    fast = sim.run(profile, bots, budget(4, 60, 600), seed=21, backend="compiled", **kw)
    assert fast == ref and fast.failures == ref.failures
    assert sum(r.moves for r in ref) > 0


def test_penalties_matches_and_failures_are_the_same() -> None:
    """Penalty draws of every kind are counted alike; a match; games cut by max_moves fail alike."""
    profile = compiled_profile("classic-108+stacking+uno-penalty-4")
    bots = ["random", "random", "heuristic"]
    ref = sim.run(profile, bots, budget(30, 300, 3000), seed=3)
    fast = sim.run(profile, bots, budget(30, 300, 3000), seed=3, backend="compiled")
    assert fast == ref
    drawn = {rule for r in ref for rule, _ in r.penalties}
    assert {"HOUSE-1", "UNO-2"} <= drawn  # stacked draws and caught UNOs were met, and counted alike
    quick = attrs.evolve(compiled_profile("mattel-42003+jump-in"), target_score=150)
    fast_match = sim.run(quick, bots, 2, seed=8, match=True, backend="compiled")
    assert fast_match == sim.run(quick, bots, 2, seed=8, match=True)
    cut = {"max_moves": 40, "keep_going": True}
    ref = sim.run(profile, bots, 6, seed=4, **cut)
    fast = sim.run(profile, bots, 6, seed=4, backend="compiled", **cut)
    assert ref.failures and fast == ref and fast.failures == ref.failures


def test_a_compiled_tournament_ranks_as_the_reference() -> None:
    profile = compiled_profile("gdj85+jump-in+seven-zero")
    kw = {"mode": "rotations", "players": 3}
    games = budget(4, 40, 400)
    ref = sim.tournament(profile, ["random", "heuristic", "random"], games, seed=2, **kw)
    fast = sim.tournament(profile, ["random", "heuristic", "random"], games, seed=2, backend="compiled", **kw)
    assert fast == ref


def test_every_compiled_game_replays_on_the_reference_engine() -> None:
    """record -> reference replay: each move of a compiled game is legal in the reference engine
    and the replay ends where the compiled game ended."""
    profile = compiled_profile("classic-108+jump-in+draw-to-match")
    for index in range(budget(5, 50)):
        seed = sim.game_seed(99, index)
        record, result = sim.record_game(profile, ["random", "heuristic", "random"], seed, index, backend="compiled")
        final = record.replay()  # applies every move with the reference's legality checks
        assert final.phase >= u.Phase.ROUND_OVER and final.match.last_round is not None
        assert final.match.last_round.winner == result.winner and len(record.moves) == result.moves
        assert sim.record_game(profile, ["random", "heuristic", "random"], seed, index) == (record, result)


class _Illegal:
    """Plays a move that is not legal on its tenth decision."""

    name = "test-illegal"

    def __init__(self) -> None:
        self.decisions = 0

    def act(self, v: PlayerView, rng: random.Random) -> Move | None:
        self.decisions += 1
        moves = v.legal_moves
        if self.decisions == 10:
            return u.Pass(v.player) if all(m != u.Pass(v.player) for m in moves) else u.Draw(v.player)
        return rng.choice(moves) if moves and v.current == v.player else None


register_bot("test-illegal", _Illegal)


def test_a_failing_bot_fails_the_same_game_the_same_way() -> None:
    profile = compiled_profile("classic-108")
    ref = sim.run(profile, ["random", "test-illegal"], 3, seed=1, keep_going=True)
    fast = sim.run(profile, ["random", "test-illegal"], 3, seed=1, keep_going=True, backend="compiled")
    assert ref.failures and fast.failures == ref.failures
    assert [f.error for f in fast.failures] == [f.error for f in ref.failures]


# --- refusals --------------------------------------------------------------------------------------
def test_an_unknown_backend_is_refused_by_name() -> None:
    for call in (lambda: sim.run("classic-108", ["random"] * 2, 1, backend="gpu"),
                 lambda: sim.tournament("classic-108", ["random"] * 2, 1, backend=None),
                 lambda: list(sim.iter_results("classic-108", ["random"] * 2, 1, backend="Compiled"))):
        with pytest.raises(sim.RunError, match="backend must be one of reference, compiled"):
            call()


def test_a_profile_the_kernels_refuse_is_refused_before_any_game() -> None:
    legacy = attrs.evolve(u.load_profile("classic-108"), shuffle="mt19937")
    with pytest.raises(UnsupportedRuleError, match=r"setup\.shuffle = 'mt19937' is not compiled"):
        sim.run(legacy, ["random"] * 2, 1, backend="compiled")
    with pytest.raises(UnsupportedRuleError, match="mt19937"):
        sim.play_game(legacy, ["random"] * 2, 1, backend="compiled")


def test_without_numba_the_compiled_backend_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)
    with pytest.raises(sim.RunError, match=r"backend 'compiled' needs numba, which is not installed: .*fast"):
        sim.run("classic-108", ["random"] * 2, 1, backend="compiled")


def test_the_command_line_backend_gives_the_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for backend in ("reference", "compiled"):
        args = ["simulate", "--games", "6", "--seed", "5", "--bots", "random,heuristic,random", "--json",
                "--quiet", "--backend", backend]
        assert cli.main(args) == 0
        out = json.loads(capsys.readouterr().out)
        out.pop("seconds", None)
        outs.append(out)
    assert outs[0] == outs[1]
    assert cli.main(["tournament", "--games", "2", "--bots", "random,heuristic", "--backend", "compiled"]) == 0
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--games", "1", "--backend", "gpu"])
    assert "invalid choice: 'gpu'" in capsys.readouterr().err


@pytest.mark.parametrize(("spec", "changes"), VARIANTS[::3], ids=VARIANT_IDS[::3])
def test_the_compiled_policies_make_the_python_bots_moves_from_the_same_stream(spec: str,
                                                                              changes: dict[str, object]) -> None:
    """bots/compiled_policies.py: on every state of biased games, for every seat, the move and what
    is left of the stream equal the Python bot's, a Wild Draw Four challenge (WD4-3) included."""
    profile = compiled_profile(spec, **changes)
    cfg = config_of(profile)
    buffer = np.empty(MAX_LEGAL, dtype=np.int64)
    checked = challenges = 0
    for k, (state, _move) in enumerate(random_states(profile, budget(2, 8, 20), seed=8, biased=True,
                                                     max_moves=budget(200, 2000))):
        a = to_array(state)
        for p in range(state.num_players):
            v = u.view(state, p)
            on_turn = p == state.current or state.round_over
            for bot in (HeuristicBot(), RandomBot()):
                mine, theirs = random.Random(k * 31 + p), random.Random(k * 31 + p)
                code = compiled_policy(bot)(cfg, a, p, on_turn, mine, buffer)  # type: ignore[misc]
                assert (None if code < 0 else decode(code)) == bot.act(v, theirs), (state, p, bot)
                assert mine.random() == theirs.random()
                checked += 1
                challenges += state.phase is u.Phase.CHALLENGE and p == state.current
    assert checked > 100
    assert compiled_policy(_Illegal()) is None
