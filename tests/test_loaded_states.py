"""A loaded state is a state the engine could have reached (issue 13): ``loads`` holds every state it
builds to the engine's one copy of the state rules (unoengine.engine.consistency), ``from_position``
refuses positions that break them, views are held to their public part, and ``sample_state`` works
on every view that loads.

Each attack the attack run found is a test below (END-1 winner holding cards; SETUP-8, SETUP-10 and
HOUSE-7 the wrong player naming the first colour; duplicate known entries; WD4-3 a challenge hand
unrelated to the attacker's; PLAY-5 a DRAWN view whose drawer holds nothing), then the rules the
engine copy adds, then properties: mutate one field of the document of a random reachable state (or
view) and whatever loads accepts is consistent, playable, round-trips and can be determinized.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from budget import budget
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import unoengine as u
from unoengine import testing as ut
from unoengine.engine.consistency import state_problems
from unoengine.engine.view_consistency import view_problems
from unoengine.testing.checks import check_hands_sorted, check_round_result

Doc = dict[str, Any]
CLASSIC = u.load_profile("classic-108")


# --- building states ------------------------------------------------------------------------------
def position(profile: u.Profile | str, hands: list[str], discard: str, **kwargs: Any) -> u.GameState:
    return u.from_position(profile, hands, discard, seed=5, **kwargs)


def card(name: str) -> u.Card:
    return u.parse_card(name)


def play_state() -> u.GameState:
    return position(CLASSIC, ["R7 G5 W+4 B2", "Y1 Y2 R1", "G8 G9 B9"], "R3")


def drawn_state() -> u.GameState:
    """p0 has just drawn (PLAY-5); p1 holds one card."""
    return u.apply(position(CLASSIC, ["R7 G5 W+4 B2", "Y1", "G8 G9 B9"], "R3"), u.Draw(0))


def challenge_state() -> u.GameState:
    """p0 played a Wild Draw Four from R7 G5 on R3 (a bluff); p1 decides (WD4-3)."""
    return u.apply(position(CLASSIC, ["W+4 R7 G5", "Y1 Y2", "G8 G9"], "R3"), u.Play(0, card("W+4"), "G"))


def round_over_state(profile: u.Profile = CLASSIC) -> u.GameState:
    """p0 went out on R7 (END-1)."""
    return u.apply(position(profile, ["R7", "Y1 Y2", "G8 G9"], "R3"), u.Play(0, card("R7")))


def swapped_state() -> u.GameState:
    """ACT-7: p0 and p1 exchanged hands, so each knows the other's."""
    state = u.from_position("ffk04", ["WSW R3 G4", "B1 B2 B3", "Y1 Y2"], "R5")
    return u.apply(state, u.Play(0, u.WILD_SWAP_HANDS, "B", target=1))


def first_wild_state(spec: str, first: str, players: int = 3) -> u.GameState:
    """A new game, dealer p0, whose first card turned is ``first`` (SETUP-8..10)."""
    profile = u.load_profile(spec)
    deck = [u.CARDS[c] for c in profile.deck_cards()]
    deck.remove(card(first))
    deck.insert(profile.hand_size * players, card(first))
    return u.new_game(profile, players, dealer=0, deck=deck)


# --- documents -------------------------------------------------------------------------------------
def problems_of(doc: Doc) -> list[tuple[str, str]]:
    with pytest.raises(u.SerializationError) as info:
        u.from_json(doc, "test-doc")
    return info.value.problems


def assert_refused(doc: Doc, field: str, *words: str) -> list[tuple[str, str]]:
    """Loading fails with a problem at ``field`` whose text holds every one of ``words``."""
    problems = problems_of(doc)
    assert any(f == field and all(w in p for w in words) for f, p in problems), (field, words, problems)
    return problems


def take_top(doc: Doc, into: int) -> None:
    """Move the top card of the draw pile into hand ``into``, so the cards stay conserved (DECK-5)."""
    top, _, rest = doc["draw_pile"].partition(" ")
    doc["hands"][into] = f"{doc['hands'][into]} {top}".strip()
    doc["draw_pile"] = rest


# --- the attacks -------------------------------------------------------------------------------------
def test_a_round_won_by_a_player_still_holding_cards_is_refused() -> None:
    """END-1: a round won by going out leaves its winner no cards; SCORE-1: its hand points are the hands'."""
    doc = u.to_json(round_over_state())
    take_top(doc, 0)
    problems = assert_refused(doc, "hands[0]", "END-1", "holds no cards")
    assert any(f == "match.last_round.hand_points" and "SCORE-1" in p for f, p in problems)


@pytest.mark.parametrize(("spec", "first", "chooser", "rule"), [
    ("classic-108", "W", 1, "SETUP-8"),
    ("gdj85", "WSH", 1, "SETUP-10"),
    ("ffk04", "WCU", 1, "SETUP-10"),
    ("classic-108+wd4-first-card-applies", "W+4", 0, "HOUSE-7"),
])
def test_only_the_right_player_names_the_first_colour(spec: str, first: str, chooser: int, rule: str) -> None:
    """SETUP-8, SETUP-10: the player to the dealer's left names the colour of a first wild; HOUSE-7
    RULING: the dealer names it for a first Wild Draw Four that applies. A document naming anyone
    else is refused."""
    state = first_wild_state(spec, first)
    assert state.phase is u.Phase.CHOOSE_COLOR and state.current == chooser
    assert u.from_json(u.to_json(state)) == attrs.evolve(state, draw_pile=state.remaining_draw_pile, draw_pos=0)
    for wrong in {0, 1, 2} - {chooser}:
        doc = u.to_json(state)
        doc["current"] = wrong
        assert_refused(doc, "current", rule, f"not p{wrong}")


def test_duplicate_or_contradictory_known_entries_are_refused() -> None:
    """ACT-7 (knowledge.py): one entry per viewer and owner; a repeated or a contradictory second entry
    for the same pair is refused in a state and in a view, so determinization never meets one."""
    state = swapped_state()
    doc = u.to_json(state)
    doc["known"].append(copy.deepcopy(doc["known"][0]))
    assert_refused(doc, "known[1]", "one entry")
    doc = u.to_json(state)
    doc["known"][0]["cards"] = "R3"
    doc["known"].append({"viewer": 0, "owner": 1, "cards": "G4"})
    assert_refused(doc, "known[1]", "one entry")
    view_doc = u.to_json(u.view(state, 0))
    view_doc["known"].append(copy.deepcopy(view_doc["known"][0]))
    assert_refused(view_doc, "known[1]", "one entry")
    for p in range(state.num_players):
        ut.check_determinization(u.from_json(u.to_json(state)), p, random.Random(p))


def test_known_cards_of_two_hands_must_be_among_the_unseen_cards() -> None:
    """ACT-7: in a view, what is known of the other hands together must be cards the player cannot see."""
    doc = u.to_json(u.view(swapped_state(), 2))
    assert doc["known"] == []
    doc["known"] = [{"owner": 0, "cards": "B1 B2 B3"}, {"owner": 1, "cards": "B3 B3"}]
    assert_refused(doc, "known[1].cards", "cannot see")


@pytest.mark.parametrize(("hand", "bluff", "words"), [
    ("Y1 Y2", False, ("WD4-3", "does not hold Y1")),
    ("R7 G5 B1", True, ("WD4-3", "does not hold B1")),
    ("R7", True, ("WD4-3", "UNO-2", "beyond")),
    ("", False, ("WD4-3", "UNO-2", "beyond")),
])
def test_a_challenge_hand_unrelated_to_the_attackers_is_refused(hand: str, bluff: bool, words: tuple[str]) -> None:
    """WD4-3: a challenge shows the hand the Wild Draw Four was played from, which is the attacker's hand
    (WD4-2: its bluff flag agrees with it, so each document here is refused for the hand alone)."""
    doc = u.to_json(challenge_state())
    assert doc["challenge"]["hand"] == "R7 G5"
    doc["challenge"]["hand"], doc["challenge"]["bluff"] = hand, bluff
    assert_refused(doc, "challenge.hand", *words)


def test_a_caught_attacker_holds_the_penalty_beyond_the_challenge_hand() -> None:
    """WD4-3, UNO-2: an attacker left with one card and caught before the decision holds the penalty
    beyond the hand the card was played from; that state loads, and is refused with any other count."""
    state = u.apply(position(CLASSIC, ["W+4 R7", "Y1 Y2", "G8 G9"], "R3"), u.Play(0, card("W+4"), "G"))
    caught = u.apply(state, u.CatchUno(2, 0))
    assert len(caught.hands[0]) == 3 and caught.challenge is not None and caught.challenge.hand == (card("R7"),)
    assert state_problems(caught) == []
    assert u.loads(u.dumps(caught)) == attrs.evolve(caught, draw_pile=caught.remaining_draw_pile, draw_pos=0)
    doc = u.to_json(caught)
    take_top(doc, 0)
    assert_refused(doc, "challenge.hand", "UNO-2")


def test_a_drawn_view_whose_drawer_holds_no_card_is_refused() -> None:
    """PLAY-5, END-1: the player who just drew holds that card, so a view saying they hold none is refused
    on load; a view built by hand that says so makes sample_state raise UnoEngineError (not IndexError)."""
    state = drawn_state()
    doc = u.to_json(u.view(state, 1))
    doc["hand_sizes"][0] = 0
    doc["draw_pile_size"] += 5
    assert_refused(doc, "hand_sizes[0]", "END-1")
    bad = attrs.evolve(u.view(state, 1), hand_sizes=(0, 1, 3))
    with pytest.raises(u.UnoEngineError, match="holds none"):
        u.sample_state(bad, random.Random(0))


def test_a_view_listing_one_owner_twice_is_refused_by_sample_state() -> None:
    """knowledge.py: a hand-built view with two entries for one owner cannot be determinized."""
    v = u.view(swapped_state(), 0)
    bad = attrs.evolve(v, known=(*v.known, (1, (v.known[0][1][0],))))
    with pytest.raises(u.UnoEngineError, match="one entry"):
        u.sample_state(bad, random.Random(0))


# --- from_position -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("profile", "scores", "rule"), [
    (CLASSIC, [500, 0], "SCORE-2"),
    (attrs.evolve(CLASSIC, scoring="own-hand-lowest-wins"), [520, 0], "SCORE-3"),
    (attrs.evolve(CLASSIC, scoring="one-point-per-round", target_score=3), [1, 3], "SCORE-4"),
])
def test_from_position_refuses_scores_that_have_won_the_match(profile: u.Profile, scores: list[int],
                                                              rule: str) -> None:
    """SCORE-2..4: once someone has won the match no round is played, so such a position cannot be
    reached; PositionError lists the problem by field, as loads would."""
    with pytest.raises(u.PositionError, match="scores") as info:
        position(profile, ["R1", "B1"], "R3", scores=scores)
    assert [f for f, _ in info.value.problems] == ["match.scores"]
    assert rule in info.value.problems[0][1]


def test_from_position_allows_a_tie_for_lowest_and_cards_set_aside() -> None:
    """SCORE-3 RULING: a tie for the lowest total means another round, so those scores are a position;
    DECK-5: from_position may leave cards out of play (a short draw pile), which loads refuses."""
    lowest = attrs.evolve(CLASSIC, scoring="own-hand-lowest-wins")
    tie = position(lowest, ["R1", "B1", "G1"], "R3", scores=[520, 100, 100])
    assert state_problems(tie) == []
    short = position(CLASSIC, ["R1", "B1"], "R3", draw_pile="G2 G3")
    assert state_problems(short, whole_deck=False) == []
    assert [f for f, _ in state_problems(short)] == ["cards"]


# --- one copy of the rules --------------------------------------------------------------------------
def test_the_testing_kit_and_loads_apply_the_same_rules() -> None:
    """knowledge.py, END-1: the property suite's checks (unoengine.testing) and loads report the same
    problem, in the same words, because both call the engine's copy of the rules."""
    state = swapped_state()
    dup = attrs.evolve(state, known=tuple(sorted((*state.known, state.known[0]))))
    (problem,) = state_problems(dup)
    assert problem[0] == "known[1]"
    with pytest.raises(AssertionError, match=r"known\[1\]: p0's knowledge of p1's hand is one entry"):
        ut.check_phase_consistency(dup)
    assert problems_of(u.to_json(dup)) == [problem]
    won = round_over_state()
    holding = attrs.evolve(won, hands=(won.hands[1], *won.hands[1:]))
    with pytest.raises(AssertionError, match="END-1"):
        ut.check_phase_consistency(holding)
    with pytest.raises(AssertionError, match="SCORE-1"):
        check_round_result(holding)


NEW_RULES = [
    # (base, change the document, field with a problem, words of the problem): each loaded before.
    pytest.param(play_state, lambda d: d.update(passes=1), "passes", ("PLAY-7", "nothing can be drawn"),
                 id="PLAY-7-pass-with-cards-to-draw"),
    pytest.param(drawn_state, lambda d: d.update(uno_exposed=1), "uno_exposed", ("UNO-5",),
                 id="UNO-5-caught-after-a-draw"),
    pytest.param(lambda: first_wild_state("classic-108", "W"), lambda d: take_top(d, 2), "hands[2]",
                 ("SETUP-1", "8 cards"), id="SETUP-1-hand-before-the-first-colour"),
    pytest.param(lambda: first_wild_state("classic-108", "W"), lambda d: d.update(direction=-1), "direction",
                 ("SETUP-4",), id="SETUP-4-first-colour-counter-clockwise"),
    pytest.param(round_over_state, lambda d: d.update(current=1), "current", ("END-1", "winner p0"),
                 id="END-1-winner-to-act"),
    pytest.param(round_over_state, lambda d: d.update(passes=1), "passes", ("PLAY-7",), id="PLAY-7-passes-of-a-win"),
    pytest.param(round_over_state, lambda d: d["match"]["last_round"].update(points_won=[3, 0, 0]),
                 "match.last_round.points_won", ("SCORE-2",), id="SCORE-2-points-won"),
    pytest.param(round_over_state, lambda d: d["match"].update(scores=[0, 0, 0]), "match.scores",
                 ("SCORE-2", "include"), id="SCORE-2-scores-hold-the-round"),
    pytest.param(lambda: round_over_state(attrs.evolve(CLASSIC, target_score=20)),
                 lambda d: d["match"].update(winner=1), "match.winner", ("SCORE-2", "p0 has won"),
                 id="SCORE-2-wrong-match-winner"),
    pytest.param(play_state, lambda d: d["match"].update(scores=[0, 510, 0]), "match.scores",
                 ("SCORE-2", "already won"), id="SCORE-2-round-after-the-match"),
    pytest.param(play_state, lambda d: d["match"].update(round_number=2), "match.last_round", ("SETUP-11",),
                 id="SETUP-11-round-2-without-a-result"),
    pytest.param(play_state, lambda d: d.update(reveal={"viewer": 1, "owner": 1, "cards": "Y1"}), "reveal",
                 ("WD4-3",), id="WD4-3-hand-shown-to-its-owner"),
    pytest.param(swapped_state, lambda d: d["known"][0].update(cards=""), "known[0].cards",
                 ("at least one card",), id="known-nothing"),
]


@pytest.mark.parametrize(("base", "change", "field", "words"), NEW_RULES)
def test_rules_of_the_engine_copy_refuse_documents(base: Callable[[], u.GameState], change: Callable[[Doc], None],
                                                   field: str, words: tuple[str]) -> None:
    """The rules the engine copy holds a loaded state to, each broken by one changed field (rule in the id)."""
    doc = u.to_json(base())
    assert isinstance(u.from_json(copy.deepcopy(doc)), u.GameState)
    change(doc)
    assert_refused(doc, field, *words)


# --- properties: one field of a reachable state's document changed -----------------------------------
PHASES = [p.name for p in u.Phase]
COLOURS = [None, "R", "Y", "G", "B"]


def _cards_at(doc: Doc, where: tuple[str, int]) -> list[str]:
    name, i = where
    text = doc["hands"][i] if name == "hands" else doc[name]
    return text.split()


def _set_cards(doc: Doc, where: tuple[str, int], cards: list[str]) -> None:
    name, i = where
    if name == "hands":
        doc["hands"][i] = " ".join(cards)
    else:
        doc[name] = " ".join(cards)


def _move_card(doc: Doc, data: st.DataObject) -> None:
    """One card from a hand or pile to another (the cards stay conserved): hands grow, shrink, empty."""
    places = [("hands", i) for i in range(len(doc["hands"]))] + [("draw_pile", 0), ("discard_pile", 0)]
    src = data.draw(st.sampled_from([p for p in places if len(_cards_at(doc, p)) > (p[0] == "discard_pile")]))
    dst = data.draw(st.sampled_from([p for p in places if p != src]))
    taken = _cards_at(doc, src)
    i = data.draw(st.sampled_from([0, len(taken) - 1]))
    moved = taken.pop(i)
    _set_cards(doc, src, taken)
    put = _cards_at(doc, dst)
    put.insert(data.draw(st.sampled_from([0, len(put)])), moved)
    _set_cards(doc, dst, put)


def _add_or_drop_card(doc: Doc, data: st.DataObject) -> None:
    """A card more in a hand (any card of the deck) or one fewer: the cards in play no longer add up."""
    i = _seat(doc, data)
    hand = doc["hands"][i].split()
    if hand and data.draw(st.booleans()):
        hand.pop()
    else:
        hand.append(repr(data.draw(st.sampled_from(u.CARDS))))
    doc["hands"][i] = " ".join(hand)


def _swap_hands(doc: Doc, data: st.DataObject) -> None:
    n = len(doc["hands"])
    i, j = data.draw(st.sampled_from([(i, j) for i in range(n) for j in range(i + 1, n)]))
    doc["hands"][i], doc["hands"][j] = doc["hands"][j], doc["hands"][i]


def _seat(doc: Doc, data: st.DataObject) -> int:
    return data.draw(st.integers(0, len(doc["hands"]) - 1))


def _some_cards(doc: Doc, data: st.DataObject) -> str:
    """Cards of some hand, or a few of them, or of the draw pile."""
    source = data.draw(st.sampled_from([*doc["hands"], doc["draw_pile"]])).split()
    return " ".join(data.draw(st.lists(st.sampled_from(source), max_size=3, unique=True))) if source else ""


def _change_known(doc: Doc, data: st.DataObject) -> None:
    """Repeat an entry, add one of some player's cards, take a card out, or drop an entry."""
    known = doc["known"]
    how = data.draw(st.sampled_from(["repeat", "add", "cut", "drop"] if known else ["add"]))
    if how == "repeat":
        known.append(copy.deepcopy(data.draw(st.sampled_from(known))))
    elif how == "add":
        owner = _seat(doc, data)
        known.append({"viewer": _seat(doc, data), "owner": owner,
                      "cards": data.draw(st.sampled_from([_some_cards(doc, data), doc["hands"][owner]]))})
    else:
        i = data.draw(st.integers(0, len(known) - 1))
        if how == "drop":
            del known[i]
        else:
            known[i]["cards"] = " ".join(known[i]["cards"].split()[1:])


def _change_challenge(doc: Doc, data: st.DataObject) -> None:
    ch = doc["challenge"]
    how = data.draw(st.sampled_from(["hand", "bluff", "colour", "attacker", "none", "new"] if ch else ["new"]))
    if how == "none":
        doc["challenge"] = None
    elif how == "new":
        attacker = _seat(doc, data)
        doc["challenge"] = {
            "attacker": attacker, "victim": (attacker + doc["direction"]) % len(doc["hands"]),
            "bluff": data.draw(st.booleans()), "hand": doc["hands"][attacker],
            "color": data.draw(st.sampled_from(COLOURS[1:])),
        }
    elif how == "hand":
        ch["hand"] = _some_cards(doc, data)
    elif how == "bluff":
        ch["bluff"] = not ch["bluff"]
    elif how == "colour":
        ch["color"] = data.draw(st.sampled_from(COLOURS[1:]))
    else:
        ch["attacker"] = _seat(doc, data)


def _change_match(doc: Doc, data: st.DataObject) -> None:
    m = doc["match"]
    n = len(doc["hands"])
    how = data.draw(st.sampled_from(["score", "winner", "round", "dealer", "result", "no-result"]))
    if how == "score":
        m["scores"][_seat(doc, data)] = data.draw(st.sampled_from([0, 1, 2, 50, 499, 500, 1000]))
    elif how == "winner":
        m["winner"] = data.draw(st.none() | st.integers(0, n - 1))
    elif how == "round":
        m["round_number"] = data.draw(st.integers(1, 3))
    elif how == "dealer":
        m["dealer"] = _seat(doc, data)
    elif how == "no-result":
        m["last_round"] = None
    else:
        winner = _seat(doc, data)
        m["last_round"] = {
            "winner": winner, "blocked": data.draw(st.booleans()),
            "hand_points": [data.draw(st.sampled_from([0, 3, 20])) for _ in range(n)],
            "points_won": [data.draw(st.sampled_from([0, 3, 23])) for _ in range(n)],
        }


def _hand_card_or_none(doc: Doc, data: st.DataObject) -> str | None:
    cards = doc["hands"][doc["current"]].split()
    return data.draw(st.none() | (st.sampled_from(cards) if cards else st.none()))


MUTATIONS: dict[str, Callable[[Doc, st.DataObject], None]] = {
    "move a card": _move_card,
    "add or drop a card": _add_or_drop_card,
    "swap hands": _swap_hands,
    "phase": lambda d, data: d.update(phase=data.draw(st.sampled_from(PHASES))),
    "current": lambda d, data: d.update(current=_seat(d, data)),
    "direction": lambda d, data: d.update(direction=-d["direction"]),
    "colour": lambda d, data: d.update(color=data.draw(st.sampled_from(COLOURS))),
    "drawn": lambda d, data: d.update(drawn=_hand_card_or_none(d, data)),
    "uno exposed": lambda d, data: d.update(uno_exposed=data.draw(st.none() | st.integers(0, len(d["hands"]) - 1))),
    "passes": lambda d, data: d.update(passes=data.draw(st.integers(0, len(d["hands"])))),
    "pending draw": lambda d, data: d.update(pending_draw=data.draw(st.sampled_from([0, 2, 4, 6, 8]))),
    "known": _change_known,
    "challenge": _change_challenge,
    "match": _change_match,
    "reveal": lambda d, data: d.update(reveal=data.draw(st.none() | st.builds(
        lambda v, o, c: {"viewer": v, "owner": o, "cards": c},
        st.integers(0, len(d["hands"]) - 1), st.integers(0, len(d["hands"]) - 1), st.just(_some_cards(d, data))))),
}


def check_loaded_state(state: u.GameState, rng: random.Random) -> None:
    """A loaded state obeys every rule, plays (each listed move applies, to a state that obeys them
    too), round-trips, and every player's view of it can be determinized."""
    assert state_problems(state) == []
    check_hands_sorted(state)
    ut.check_cards_conserved(state)
    ut.check_phase_consistency(state)
    legal = u.legal_moves(state)
    assert legal or state.match_over
    for move in legal:
        after = u.apply(state, move)
        assert state_problems(after) == [], (move, state_problems(after))
    assert u.loads(u.dumps(state)) == state
    for p in range(state.num_players):
        sampled = ut.check_determinization(state, p, rng)
        assert_sample_consistent(sampled)


def assert_sample_consistent(sampled: u.GameState) -> None:
    """A determinized state obeys every rule; once a round is over its hidden hands too hold the
    points the round counted (SCORE-1)."""
    problems = state_problems(sampled)
    assert problems == [], problems


@settings(max_examples=budget(40, 800), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=ut.states(max_moves=200), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_whatever_loads_accepts_is_a_state_the_engine_could_reach(state: u.GameState, seed: int,
                                                                 data: st.DataObject) -> None:
    """DECK-5, SETUP-1..11, PLAY-1..7, WD4-2/3, UNO-1..5, END-1, SCORE-1..4: change one field of a
    reachable state's document (a card moved, hands swapped, the phase, the player to act, known cards,
    the challenge, the match...); the document loads only if the state obeys every rule, and then it
    plays, round-trips and determinizes."""
    doc = u.to_json(state)
    name = data.draw(st.sampled_from(sorted(MUTATIONS)))
    MUTATIONS[name](doc, data)
    try:
        loaded = u.from_json(doc)
    except u.SerializationError:
        event(f"refused: {name}")
        return
    event(f"loaded: {name}")
    assert isinstance(loaded, u.GameState)
    check_loaded_state(loaded, random.Random(seed))


def _move_own_card(doc: Doc, data: st.DataObject) -> None:
    """A card from the player's hand onto the discard pile (under or on top), or back."""
    hand, pile = doc["hand"].split(), doc["discard_pile"].split()
    if hand and (len(pile) == 1 or data.draw(st.booleans())):
        moved = hand.pop(data.draw(st.integers(0, len(hand) - 1)))
        pile.insert(data.draw(st.sampled_from([0, len(pile)])), moved)
    else:
        hand.append(pile.pop(data.draw(st.sampled_from([0, len(pile) - 1]))))
    doc["hand"], doc["discard_pile"] = " ".join(hand), " ".join(pile)
    doc["hand_sizes"][doc["player"]] = len(hand)


def _view_seat(doc: Doc, data: st.DataObject) -> int:
    return data.draw(st.integers(0, len(doc["hand_sizes"]) - 1))


def _view_seat_or_none(doc: Doc, data: st.DataObject) -> int | None:
    return data.draw(st.none() | st.integers(0, len(doc["hand_sizes"]) - 1))


VIEW_MUTATIONS: dict[str, Callable[[Doc, st.DataObject], None]] = {
    "own card": _move_own_card,
    "hand size": lambda d, data: d["hand_sizes"].__setitem__(_view_seat(d, data), data.draw(st.integers(0, 8))),
    "draw pile size": lambda d, data: d.update(draw_pile_size=max(0, d["draw_pile_size"] + data.draw(
        st.sampled_from([-1, 1])))),
    "phase": lambda d, data: d.update(phase=data.draw(st.sampled_from(PHASES))),
    "current": lambda d, data: d.update(current=_view_seat(d, data)),
    "colour": lambda d, data: d.update(color=data.draw(st.sampled_from(COLOURS))),
    "drawn card": lambda d, data: d.update(drawn_card=data.draw(st.none() | st.sampled_from(
        d["hand"].split() or ["R1"]))),
    "challenge": lambda d, data: d.update(challenge_attacker=_view_seat_or_none(d, data),
                                          challenge_color=data.draw(st.sampled_from(COLOURS))),
    "uno exposed": lambda d, data: d.update(uno_exposed=_view_seat_or_none(d, data)),
    "passes": lambda d, data: d.update(passes=data.draw(st.integers(0, len(d["hand_sizes"])))),
    "known": lambda d, data: d.update(known=[*d["known"], {
        "owner": _view_seat(d, data),
        "cards": data.draw(st.sampled_from([*(k["cards"] for k in d["known"]), d["discard_pile"].split()[-1]]))}]),
    "revealed": lambda d, data: d.update(revealed=data.draw(st.none() | st.just(
        {"viewer": d["player"], "owner": (d["player"] + 1) % len(d["hand_sizes"]), "cards": "R1"}))),
    "match winner": lambda d, data: d.update(match_winner=_view_seat_or_none(d, data)),
}


@settings(max_examples=budget(40, 800), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=ut.states(max_moves=200), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_sample_state_works_on_every_view_that_loads(state: u.GameState, seed: int, data: st.DataObject) -> None:
    """The view contract, PLAY-5, WD4-3, DECK-5: change one field of a reachable state's view document;
    if it loads, sample_state gives a state that obeys every rule and shows the player that very view
    (its legal moves are taken as written, so they are not compared)."""
    player = data.draw(st.integers(0, state.num_players - 1))
    doc = u.to_json(u.view(state, player))
    name = data.draw(st.sampled_from(sorted(VIEW_MUTATIONS)))
    VIEW_MUTATIONS[name](doc, data)
    try:
        loaded = u.from_json(doc)
    except u.SerializationError:
        event(f"refused: {name}")
        return
    event(f"loaded: {name}")
    assert isinstance(loaded, u.PlayerView)
    assert view_problems(loaded) == []
    sampled = u.sample_state(loaded, random.Random(seed))
    assert_sample_consistent(sampled)
    shown = u.view(sampled, player)
    assert attrs.evolve(shown, legal_moves=()) == attrs.evolve(loaded, legal_moves=())
