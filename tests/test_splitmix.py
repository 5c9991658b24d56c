"""The portable shuffle ``"splitmix64-v1"`` and the versioning of shuffles (docs/shuffle.md, issue 34).

The Python engine is held to the documented test vectors; the JavaScript example engine of
docs/examples/ is run under node against the same vectors and against the reference engine's
deal and reshuffle (PLAY-7); and a record written before shuffles were named replays move for
move.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import unoengine as u
from unoengine.engine import splitmix
from unoengine.engine.cards import CARDS
from unoengine.engine.shuffling import DEFAULT_SHUFFLE, MT19937, SPLITMIX64_V1, Stream, shuffled
from unoengine.engine.splitmix import SplitMix64

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SHUFFLE_JS = ROOT / "docs" / "examples" / "conformance" / "shuffle.mjs"
TINY_ENGINE = ROOT / "docs" / "examples" / "conformance" / "tiny_engine.mjs"


def _vectors() -> dict[str, Any]:
    text = (ROOT / "docs" / "shuffle.md").read_text(encoding="utf-8")
    block = re.search(r"## Test vectors.*?```json\n(.*?)```", text, re.S)
    assert block is not None, "docs/shuffle.md has its test vectors in a json block"
    vectors: dict[str, Any] = json.loads(block.group(1))
    return vectors


def _portable() -> u.Profile:
    """classic-108, which shuffles with the portable default."""
    profile = u.load_profile("classic-108")
    assert profile.shuffle == SPLITMIX64_V1
    return profile


def _int(value: int | str) -> int:
    return value if isinstance(value, int) else int(value, 0)


def _names(cards: Any) -> str:
    return " ".join(repr(c) for c in cards)


def test_the_generator_gives_the_documented_outputs() -> None:
    vectors = _vectors()
    assert vectors["outputs"][0]["first"][0] == "0xe220a8397b1dcdaf"  # SplitMix64's published first output of 0
    for case in vectors["outputs"]:
        stream = SplitMix64(_int(case["seed"]))
        assert [f"0x{stream.next():016x}" for _ in case["first"]] == case["first"]


def test_the_bounded_draw_gives_the_documented_draws_rejecting_as_documented() -> None:
    for case in _vectors()["below"]:
        seed = _int(case["seed"])
        stream = SplitMix64(seed)
        assert [stream.below(_int(case["bound"])) for _ in case["draws"]] == [_int(d) for d in case["draws"]]
        used = stream.state - seed  # the state moves on by GAMMA an output
        assert used % (1 << 64) == case["outputs_used"] * splitmix.GAMMA % (1 << 64)
    assert any(c["outputs_used"] > len(c["draws"]) for c in _vectors()["below"]), "a vector that rejects"


def test_shuffles_deck_and_deal_give_the_documented_cards() -> None:
    vectors = _vectors()
    for case in vectors["shuffle"]:
        items = case["items"].split()
        assert shuffled(SPLITMIX64_V1, _int(case["seed"]), items) == _int(case["next_seed"])
        assert " ".join(items) == case["result"]
    profile = _portable()
    for case in vectors["deck"]:
        cards = [CARDS[c] for c in profile.deck_cards()]
        assert shuffled(SPLITMIX64_V1, _int(case["seed"]), cards) == _int(case["next_seed"])
        assert _names(cards[:12]) == case["top_12"]
    for case in vectors["deal"]:
        game = u.new_game(profile, case["players"], _int(case["seed"]), dealer=case["dealer"])
        assert [_names(h) for h in game.hands] == case["hands"]
        assert repr(game.discard[0]) == case["top"] and game.rng == _int(case["next_seed"])


@given(st.integers(0, 2**64 - 1), st.integers(0, 120))
def test_the_written_out_shuffle_is_fisher_yates_over_the_bounded_draw(seed: int, length: int) -> None:
    ours, theirs = list(range(length)), list(range(length))
    fast, plain = SplitMix64(seed), SplitMix64(seed)
    fast.shuffle(ours)
    for i in range(length - 1, 0, -1):
        j = plain.below(i + 1)
        theirs[i], theirs[j] = theirs[j], theirs[i]
    assert ours == theirs and fast.state == plain.state


def test_a_large_bound_rejects_in_the_shuffle_as_in_the_draw() -> None:
    """The rejection branch of the written-out loop: bounds over 2**63 reject about half the
    outputs, so the loop must draw exactly as :meth:`below` does (checked on a stand-in list
    whose length makes no such bound; the branch itself is the draw's, so compare draws)."""
    stream = SplitMix64(1)
    draws = [stream.below(2**63 + 1) for _ in range(50)]
    assert all(0 <= d <= 2**63 for d in draws)
    assert (stream.state - 1) % (1 << 64) != 50 * splitmix.GAMMA % (1 << 64)  # some were rejected


def test_draws_are_uniform_below_small_bounds() -> None:
    stream = SplitMix64(99)
    counts = [0] * 7
    for _ in range(7000):
        counts[stream.below(7)] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_the_stream_draws_lots_and_shuffles_under_either_algorithm() -> None:
    """SETUP-2: the dealer draw's stream: MT19937 as ``random.Random`` did, SplitMix64 by draws below."""
    r = random.Random(5)
    legacy = Stream(MT19937, 5)
    assert legacy.choice([0, 1, 2]) == r.choice([0, 1, 2]) and legacy.next_seed() == r.getrandbits(64)
    portable, plain = Stream(SPLITMIX64_V1, 5), SplitMix64(5)
    assert portable.choice("abc") == "abc"[plain.below(3)] and portable.next_seed() == plain.next()


# --- versions: profiles, documents, records --------------------------------------------------
def _legacy(name: str = "classic-108") -> u.Profile:
    """A shipped profile under the legacy shuffle: what it was before the portable one became the default."""
    return attrs.evolve(u.load_profile(name), shuffle=MT19937)


def test_shipped_profiles_take_the_portable_default_and_the_legacy_keeps_its_fingerprint() -> None:
    assert DEFAULT_SHUFFLE == SPLITMIX64_V1
    for name in u.shipped_profiles():
        assert u.load_profile(name).shuffle == SPLITMIX64_V1
    base = u.load_profile("classic-108")
    saved = json.loads((FIXTURES / "legacy-mt19937-classic-108.json").read_text(encoding="utf-8"))
    assert _legacy().fingerprint == saved["record"]["fingerprint"]  # as before shuffles were named
    assert base.fingerprint != _legacy().fingerprint  # other cards for a seed, another fingerprint
    assert u.new_game(base, 3, 9).hands != u.new_game(_legacy(), 3, 9).hands
    assert u.Profile(name="in-code", deck_counts=base.deck_counts, points=base.points).shuffle == SPLITMIX64_V1
    tables = u.serialize.to_json(base)["profile"]
    tables["setup"]["shuffle"] = "xorshift"
    with pytest.raises(u.ProfileError, match=r"setup\.shuffle.*must be one of 'splitmix64-v1', 'mt19937'"):
        u.profile_from_dict(tables)
    with pytest.raises(u.ProfileError, match="shuffle"):
        attrs.evolve(base, shuffle="xorshift")


def test_a_profile_file_without_a_shuffle_gets_the_portable_default() -> None:
    import tomllib

    text = u.profile_to_toml(_legacy())
    assert 'shuffle = "mt19937"' in text
    assert u.profile_from_dict(tomllib.loads(text)).shuffle == MT19937
    bare = tomllib.loads(text.replace('shuffle = "mt19937"\n', ""))
    assert "shuffle" not in bare["setup"]
    assert u.profile_from_dict(bare).shuffle == SPLITMIX64_V1


def test_a_json_profile_without_a_shuffle_reads_as_mt19937_keeping_its_fingerprint() -> None:
    """The same tables without ``setup.shuffle``: the default in a profile file (above), the
    legacy shuffle in a JSON document, which was written before shuffles were named."""
    doc = json.loads(u.dumps(u.load_profile("classic-108")))
    del doc["profile"]["setup"]["shuffle"]
    doc["fingerprint"] = _legacy().fingerprint
    profile = u.loads(json.dumps(doc))
    assert isinstance(profile, u.Profile) and profile.shuffle == MT19937
    assert profile.fingerprint == doc["fingerprint"]
    doc["fingerprint"] = u.load_profile("classic-108").fingerprint  # the default's is not the one it had
    with pytest.raises(u.SerializationError, match="fingerprint"):
        u.loads(json.dumps(doc))


@pytest.mark.parametrize("shuffle", [SPLITMIX64_V1, MT19937])
def test_every_document_written_names_its_shuffle_and_reads_back_with_it(shuffle: str) -> None:
    """A document written now says which shuffle it was played with, so it is read back with that
    one, whatever the default is when it is read."""
    profile = attrs.evolve(u.load_profile("classic-108"), shuffle=shuffle)
    state = u.new_game(profile, 3, 5)
    record = u.GameRecord(profile, 3, 5, moves=(u.Draw(state.current),))
    for obj in (profile, state, u.view(state, 0), record):
        doc = u.serialize.to_json(obj)
        assert doc["profile"]["setup"]["shuffle"] == shuffle, type(obj)
        again = u.loads(u.dumps(obj))
        assert u.serialize.to_json(again) == doc
        assert (again if isinstance(again, u.Profile) else again.profile) == profile, type(obj)
    assert u.loads(u.dumps(record)).replay() == record.replay()
    assert u.profile_to_toml(profile).count(f'shuffle = "{shuffle}"') == 1


@pytest.mark.parametrize("name", ["classic-108", "mattel-42003"])
def test_a_record_made_before_shuffles_were_named_replays_move_for_move(name: str) -> None:
    """tests/fixtures/legacy-mt19937-*.json were written by the engine before this change (the
    commit before shuffles were named): 1,500 random moves each, with reshuffles (PLAY-7), the
    dealer draw (SETUP-2) and, in mattel-42003, a Wild Shuffle Hands (ACT-6)."""
    saved = json.loads((FIXTURES / f"legacy-mt19937-{name}.json").read_text(encoding="utf-8"))
    assert "shuffle" not in saved["record"]["profile"]["setup"]
    record = u.loads(json.dumps(saved["record"]))
    assert isinstance(record, u.GameRecord) and record.profile.shuffle == MT19937
    assert record.fingerprint == saved["record"]["fingerprint"]
    final = record.replay()
    written = json.loads(u.dumps(final))
    assert written["profile"]["setup"].pop("shuffle") == MT19937
    assert written == saved["final_state"]


def test_a_profile_file_naming_mt19937_plays_the_old_games(tmp_path: Path) -> None:
    """``shuffle = "mt19937"`` in a profile file (an overlay on classic-108 here) deals from a seed
    what classic-108 dealt before the default changed, under the fingerprint it had then: the old
    record's moves replay under it to the same final state."""
    saved = json.loads((FIXTURES / "legacy-mt19937-classic-108.json").read_text(encoding="utf-8"))
    old = u.loads(json.dumps(saved["record"]))
    assert isinstance(old, u.GameRecord)
    overlay = tmp_path / "old-deals.toml"
    overlay.write_text('overlay = true\nname = "old-deals"\n\n[setup]\nshuffle = "mt19937"\n', encoding="utf-8")
    profile = u.load_profile(["classic-108", str(overlay)])
    assert profile.shuffle == MT19937 and profile.fingerprint == old.fingerprint
    final = u.serialize.to_json(attrs.evolve(old, profile=profile).replay())
    expected = dict(saved["final_state"])
    for doc in (final, expected):
        del doc["profile"]  # the name differs ("classic-108+old-deals"), not the rules
    assert final == expected


# --- the JavaScript example engine -------------------------------------------------------------
def _node() -> str:
    node = shutil.which("node")
    if node is None:
        import os

        if os.environ.get("CI"):
            pytest.fail("node is not installed, and CI runs the JavaScript example engine")
        pytest.skip("node is not installed (the machines of CI have Node.js, and there this test fails without it)")
    return node


def test_the_javascript_shuffle_gives_the_documented_vectors() -> None:
    script = f"""
import {{ SplitMix64, shuffled }} from {json.dumps(SHUFFLE_JS.as_uri())};
const v = JSON.parse(process.argv[1]);
const out = {{ outputs: [], below: [], shuffle: [] }};
for (const c of v.outputs) {{
  const s = new SplitMix64(BigInt(c.seed));
  out.outputs.push(c.first.map(() => "0x" + s.next().toString(16).padStart(16, "0")));
}}
for (const c of v.below) {{
  const s = new SplitMix64(BigInt(c.seed));
  out.below.push(c.draws.map(() => s.below(BigInt(c.bound)).toString()));
}}
for (const c of v.shuffle) {{
  const items = c.items.split(" ");
  const next = shuffled(BigInt(c.seed), items);
  out.shuffle.push([items.join(" "), "0x" + next.toString(16).padStart(16, "0")]);
}}
console.log(JSON.stringify(out));
"""
    vectors = _vectors()
    run = subprocess.run([_node(), "--input-type=module", "-e", script, json.dumps(vectors)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["outputs"] == [c["first"] for c in vectors["outputs"]]
    assert out["below"] == [[str(_int(d)) for d in c["draws"]] for c in vectors["below"]]
    assert out["shuffle"] == [[c["result"], c["next_seed"]] for c in vectors["shuffle"]]


class _Wire:
    """The JavaScript example engine over its conformance wire protocol (docs/conformance.md)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([_node(), str(TINY_ENGINE)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        assert self.ask({"type": "hello", "protocol": 2})["type"] == "ready"
        self.ids = 0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.ids += 1
        answer = self.ask({"type": kind, "id": self.ids, "game": "g", **fields})
        assert answer.get("type") not in ("error", "unsupported", "rejected"), answer
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"type": "bye"}) + "\n")
        self.process.stdin.close()
        self.process.wait(timeout=60)


def _sorted(hand: str) -> str:
    order = {repr(c): i for i, c in enumerate(CARDS)}
    return " ".join(sorted(hand.split(), key=order.__getitem__))


def test_the_javascript_engine_deals_and_reshuffles_as_the_reference_engine() -> None:
    """The same seed, the same cards: a seeded deal (SETUP-1), a draw pile left out of a start
    position, and the reshuffle of the discard pile when the draw pile runs out (PLAY-7)."""
    profile = _portable()
    wire = _Wire()
    try:
        dealt = 0
        for seed in range(40):
            game = u.new_game(profile, 3, seed, dealer=1)
            deck = [CARDS[c] for c in profile.deck_cards()]
            shuffled(SPLITMIX64_V1, seed, deck)
            if not re.fullmatch(r"[RYGB][0-9]", repr(deck[21])):
                continue  # the example engine turns only a number card first (SETUP-4..10)
            deal = {"players": 3, "seed": seed, "dealer": 1}
            wire.request("start", scenario={"profile": "classic-108", "deal": deal})
            facts = wire.request("observe")["facts"]
            assert [_sorted(h) for h in facts["hands"]] == [_names(h) for h in game.hands], seed
            assert facts["top"] == repr(game.discard[0]) and facts["current"] == game.current
            dealt += 1
        assert dealt >= 20
        hands = ["R1 Y2", "G3 B4", "Y5 B6"]
        discard = "R0 R2 R3 Y3 G5 G6 B7 B8 B9 W Y9 R9"
        for seed in (0, 2**53 - 1, 123456789):  # JSON numbers in JavaScript are exact to 2**53
            state = u.from_position(profile, hands, discard, draw_pile=(), seed=seed)
            wire.request("start", scenario={"profile": "classic-108", "start": {
                "hands": hands, "discard": discard, "draw_pile": "", "seed": seed}})
            for turn in range(9):  # eleven cards reshuffled, drawn one a turn
                seat = state.current
                events = wire.request("play", move=f"p{seat} draw")["events"]
                state = u.apply(state, u.Draw(seat))
                assert events[0]["cards"] == repr(state.drawn), (seed, turn)
                state = u.apply(state, u.Pass(seat))
        for seed in (3, 4):  # a start position whose draw pile is left out: shuffled from the seed
            state = u.from_position(profile, hands, discard, seed=seed)
            wire.request("start", scenario={"profile": "classic-108", "start": {
                "hands": hands, "discard": discard, "seed": seed}})
            events = wire.request("play", move="p0 draw")["events"]
            assert events[0]["cards"] == repr(state.draw_pile[state.draw_pos])
    finally:
        wire.close()
