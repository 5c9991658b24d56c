"""Game records: replaying the moves from the recorded start reproduces every state exactly, and a
record whose moves do not replay is refused at the first bad move with its index and the rule."""

from __future__ import annotations

import copy
import json
import random

import pytest

import unoengine as u

SPECS = (
    "classic-108",
    "gdj85+seven-zero+jump-in",
    "ffk04+stacking-cross+uno-penalty-4",
    "mattel-42003+draw-to-match+wd4-first-card-applies",
)


def play(spec: str, players: int, seed: int, moves: int) -> tuple[u.GameRecord, list[u.GameState]]:
    """A random game of up to ``moves`` moves over several rounds, as a record and its states."""
    state = u.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    states, made = [state], []
    while len(made) < moves and not state.match_over:
        move = rng.choice(u.legal_moves(state))
        state = u.apply(state, move)
        made.append(move)
        states.append(state)
    return u.GameRecord(u.load_profile(spec), players, seed, moves=tuple(made)), states


@pytest.mark.parametrize("spec", SPECS)
def test_replay_reproduces_every_state(spec: str) -> None:
    """SETUP-1..11, PLAY-7, SCORE-2: a long random game (several rounds, reshuffles) replays to equal
    states at every step, and to the same final state."""
    record, states = play(spec, 4, seed=11, moves=3000)
    assert record.fingerprint == u.load_profile(spec).fingerprint
    replayed = list(record.states())
    assert len(replayed) == len(states) == len(record.moves) + 1
    for i, (a, b) in enumerate(zip(replayed, states, strict=True)):
        assert a == b, f"state {i} differs"
    assert record.replay() == states[-1]


def test_a_fixed_deck_and_dealer_are_part_of_the_start() -> None:
    """SETUP-1, SETUP-2: a record with an exact deck order and dealer starts from that deal."""
    profile = u.load_profile("classic-108")
    deck = tuple(u.CARDS[c] for c in reversed(profile.deck_cards()))
    record = u.GameRecord(profile, 3, seed=5, deck=deck, dealer=2)
    start = record.initial_state()
    assert start == u.new_game(profile, 3, seed=5, dealer=2, deck=deck)
    assert start.dealer == 2
    first = u.legal_moves(start)[0]
    assert record.with_moves([first]).replay() == u.apply(start, first)


def test_first_bad_move_is_named_with_its_index_and_rule() -> None:
    """PLAY-8 / PLAY-1: a record that does not replay is refused at its first bad move, with the
    index, the move and the rule of the refusal; moves before it replay normally."""
    record, states = play("classic-108", 3, seed=2, moves=40)
    wrong = u.Play((states[20].current + 1) % 3, states[20].top_card)  # out of turn
    broken = u.GameRecord(record.profile, 3, 2, moves=(*record.moves[:20], wrong, *record.moves[20:]))
    seen = []
    with pytest.raises(u.RecordError) as info:
        for state in broken.states():
            seen.append(state)
    err = info.value
    assert (err.index, err.move, err.rule, err.reason) == (20, wrong, "PLAY-8", "not-your-turn")
    assert "move 20" in str(err) and repr(wrong) in str(err)
    assert seen == states[:21]
    assert isinstance(err, u.UnoEngineError)


def test_a_record_of_something_else_than_moves_is_refused() -> None:
    """A record holding a non-move at some index is refused there, before anything is applied."""
    record, _ = play("classic-108", 2, seed=3, moves=5)
    broken = record.with_moves(["p0 R7"])  # type: ignore[list-item]
    with pytest.raises(u.RecordError) as info:
        broken.replay()
    assert (info.value.index, info.value.rule, info.value.reason) == (5, "MOVE", "not-a-move")


def test_records_save_and_load_as_json() -> None:
    """A record written with dumps and read back with loads is equal and replays to the same state; the
    document holds the profile, its fingerprint, the start and the moves in notation."""
    record, states = play("gdj85+stacking+jump-in", 3, seed=9, moves=400)
    text = u.dumps(record)
    document = json.loads(text)
    assert (document["unoengine"], document["version"], document["players"], document["seed"]) == ("record", 1, 3, "9")
    assert document["fingerprint"] == record.fingerprint
    assert document["moves"][:2] == [u.format_move(m) for m in record.moves[:2]]
    loaded = u.loads(text)
    assert loaded == record
    assert isinstance(loaded, u.GameRecord)
    assert loaded.replay() == states[-1]


def test_a_hostile_record_names_every_problem() -> None:
    """A record document is checked field by field before anything is replayed: the player count (SETUP-1),
    the seed, a move that is not notation, a deck that is not the profile's (DECK-5), the fingerprint."""
    record, _ = play("classic-108", 3, seed=4, moves=20)
    document = u.to_json(record)
    bad = copy.deepcopy(document)
    bad.update(players=1, seed="-3", fingerprint="0" * 16)
    bad["moves"][5] = "p9 R10"
    with pytest.raises(u.SerializationError) as info:
        u.from_json(bad)
    fields = {field for field, _ in info.value.problems}
    assert {"players", "seed", "moves[5]", "fingerprint"} <= fields
    short = copy.deepcopy(document)
    short["deck"] = "R1 R2 R3"
    with pytest.raises(u.SerializationError) as info:
        u.from_json(short)
    assert info.value.problems[0][0] == "deck"


def test_a_loaded_record_that_does_not_replay_names_its_first_bad_move() -> None:
    """A well-formed record whose moves are not legal loads, then fails its replay at the first bad move."""
    record, _ = play("classic-108", 3, seed=4, moves=20)
    document = u.to_json(record)
    document["moves"][7] = document["moves"][6]
    loaded = u.from_json(document)
    assert isinstance(loaded, u.GameRecord)
    with pytest.raises(u.RecordError) as info:
        loaded.replay()
    assert info.value.index == 7
