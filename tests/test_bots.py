"""Bots and simulations: shipped bots only ever make legal moves (checked over whole games with every
invariant), the heuristic bot does what it promises and beats the random bot clearly, and a simulation
gives the same results whatever the number of worker processes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tomllib

import attrs
import pytest
from helpers_uno import wild_draw_four_at_odds

import unoengine as u
from unoengine import simulate as sim
from unoengine.bots import HeuristicBot, ISMCTSBot, RandomBot, make_bot
from unoengine.bots.ismcts import win_chances
from unoengine.testing import check_random_game

SPECS = (
    "classic-108", "gdj85+stacking-cross+jump-in", "ffk04+seven-zero+forced-play", "mattel-42003+wd4-unrestricted",
    "classic-108+stacking-no-mercy+draw-to-match+uno-penalty-4",
)


def seat(bot: u.bots.Bot, seed: int) -> u.testing.Bot:
    rng = random.Random(seed)
    return lambda v: bot.act(v, rng)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name", ["heuristic", "random"])
def test_bots_only_make_legal_moves(spec: str, name: str) -> None:
    """PLAY-1..8, UNO-1..7, WD4-1..5, HOUSE-1..5: three-round matches with every invariant checked; the
    check fails on any move not in the bot's view's legal moves."""
    profile = attrs.evolve(u.load_profile(spec), target_score=200)
    bots = [seat(make_bot(name), i) for i in range(3)] + [seat(RandomBot(), 9)]
    state = check_random_game(bots, profile, 4, seed=7, rounds=3, expensive_rate=0.02)
    assert state.round_over


def act(state: u.GameState, player: int, bot: u.bots.Bot | None = None) -> u.Move | None:
    return (bot or HeuristicBot()).act(u.view(state, player), random.Random(0))


def test_heuristic_calls_uno_with_the_next_to_last_card() -> None:
    """UNO-1: from two cards the bot plays with the call."""
    state = u.from_position("classic-108", ["R3 G5", "B1 B2 B3", "Y1 Y2 Y3"], "R7")
    assert act(state, 0) == u.Play(0, "R3", uno=True)


def test_heuristic_catches_a_missed_call() -> None:
    """UNO-2: a player who did not call is caught by the bot at once, out of turn."""
    state = u.apply(u.from_position("classic-108", ["R3 G5", "B1 B2 B3", "Y1 Y2 Y3"], "R7"), u.Play(0, "R3"))
    assert act(state, 2) == u.CatchUno(2, 0)


def test_heuristic_sheds_points_and_keeps_wilds() -> None:
    """SCORE-1, PLAY-3: the 9 goes before the 2; a wild stays in hand while a coloured card can be played."""
    state = u.from_position("classic-108", ["R2 R9 W G4", "B1 B2 B3 B4", "Y1 Y2 Y3 Y4"], "R7")
    assert act(state, 0) == u.Play(0, "R9")
    state = u.from_position("classic-108", ["W G4 B6", "B1 B2 B3 B4", "Y1 Y2 Y3 Y4"], "G7")
    assert act(state, 0) == u.Play(0, "G4")


def test_heuristic_attacks_the_player_about_to_win() -> None:
    """ACT-3: with the next player on one card, the Draw Two beats a higher number."""
    state = u.from_position("classic-108", ["R9 R+2 G4 G6", "B1", "Y1 Y2 Y3 Y4"], "R7")
    assert act(state, 0) == u.Play(0, "R+2")


def test_heuristic_names_the_colour_it_holds_most() -> None:
    """ACT-4: a wild names the colour most held."""
    state = u.from_position("classic-108", ["W B1 B2 G3", "Y1 Y2 Y3 Y4", "Y5 Y6 Y7"], "R7")
    move = act(state, 0)
    assert isinstance(move, u.Play) and move.card == u.WILD and move.color == u.Color.BLUE


REDS_SEEN = "R0 R1 R1 R2 R2 R3 R3 R4 R4 R5 R5 R6 R6 R8 R8 R9 R9 RS RS RR RR R+2 R7"
"""23 of the 25 red cards of classic-108 on the discard pile (the top one, R7, last)."""


@pytest.mark.parametrize(("attacker_hand", "discard", "expected"), [
    ("W+4 R1 G1 G2 G3 B1 B2 B3 B4 B5 B6 Y1 Y2 Y3", "R7", u.Challenge),  # 13 cards left, reds unseen: likely guilty
    ("W+4 G9", REDS_SEEN, u.Accept),  # one card left and one red unseen: almost surely innocent
])
def test_heuristic_challenges_when_the_odds_favour_it(attacker_hand: str, discard: str, expected: type) -> None:
    """WD4-3..5: challenge when P(guilty) > 1/(T+1) by the cards unseen: yes against a big hand with red
    cards unseen, no when almost every red card has been seen."""
    state = u.from_position("classic-108", [attacker_hand, "R+2 B7 Y8", "Y4 Y5 Y6"], discard)
    calls = len(state.hands[0]) == 2  # UNO-1: called, so nothing to catch first
    state = u.apply(state, u.Play(0, u.WILD_DRAW_FOUR, u.Color.GREEN, uno=calls))
    assert state.phase is u.Phase.CHALLENGE
    assert isinstance(act(state, 1), expected)


@pytest.mark.parametrize(("unseen", "expected"), [(19, u.Challenge), (20, u.Accept), (21, u.Accept)])
def test_heuristic_accepts_at_an_exact_tie_of_its_odds(unseen: int, expected: type) -> None:
    """WD4-3..5: one red card among the 20 unseen, four of them the attacker's: P(guilty) = 1/5,
    exactly the threshold 1/(T+1), which is not beaten, so the bot accepts; with 19 unseen the odds
    beat it. The bot compares exact integers (a float ratio would round either way here)."""
    state = wild_draw_four_at_odds(unseen)
    assert isinstance(act(state, 1), expected)


def test_heuristic_answers_a_stack() -> None:
    """HOUSE-1: facing a Draw Two it can answer, the bot passes the total on."""
    state = u.from_position("classic-108+stacking", ["G+2 G5 Y1", "B1 B2 B3", "Y2 Y3"], "R5 R+2", pending_draw=2)
    assert act(state, 0) == u.Play(0, "G+2")


def test_heuristic_beats_random_clearly() -> None:
    """The heuristic bot wins far more than its share against three random bots (95% interval)."""
    bots = ["heuristic", "random", "random", "random"]
    summary = sim.summarize(sim.run("classic-108", bots, 300, seed=11), bots)
    low, _ = summary.seats[0].interval
    assert low > 0.5, summary.seats[0]


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    """The same seed gives the same games with one worker or two."""
    bots = ["heuristic", "random", "heuristic"]
    one = sim.run("gdj85+jump-in", bots, 40, seed=3, workers=1)
    two = sim.run("gdj85+jump-in", bots, 40, seed=3, workers=2)
    assert one == two
    assert [r.index for r in one] == list(range(40))


def test_matches_are_played_to_the_target() -> None:
    """SCORE-2: with --match a game is a whole match; its winner reached the target."""
    profile = attrs.evolve(u.load_profile("classic-108"), target_score=100)
    (result,) = sim.run(profile, ["heuristic", "random"], 1, seed=5, match=True)
    assert result.points[result.winner] >= 100


def test_wilson_interval() -> None:
    """The Wilson 95% interval of known proportions."""
    assert sim.wilson(0, 10)[0] == 0.0
    low, high = sim.wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert sim.wilson(0, 0) == (0.0, 1.0)


def test_a_bot_returning_an_illegal_move_is_reported() -> None:
    """PLAY-1: a bot that returns something not legal stops the game with BotError naming it."""

    class Cheat:
        name = "cheat"

        def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
            return u.Play(view.player, "R1") if view.my_turn else None

    with pytest.raises(sim.BotError, match="cheat"):
        sim.next_move(u.from_position("classic-108", ["G3 G4", "B1 B2"], "Y5"), [Cheat(), Cheat()],
                      [random.Random(0)] * 2)


def test_a_bot_that_raises_is_a_bot_error_naming_its_seat() -> None:
    """A bot's own exception stops the game as a BotError naming the bot, its seat and the
    exception (chained to it), so a run can tell which seat failed; so does an illegal move."""

    class Broken:
        name = "broken"

        def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
            raise KeyError("no such card")

    state = u.from_position("classic-108", ["G3 G4", "B1 B2"], "Y5", current=1)
    with pytest.raises(sim.BotError) as caught:
        sim.next_move(state, [Broken(), Broken()], [random.Random(0)] * 2)
    assert str(caught.value) == "bot 'broken' at seat 1 raised KeyError: 'no such card'"
    assert caught.value.seat == 1 and isinstance(caught.value.__cause__, KeyError)

    class Cheat:
        name = "cheat"

        def act(self, view: u.PlayerView, rng: random.Random) -> u.Move | None:
            return u.Play(view.player, "R1") if view.my_turn else None

    with pytest.raises(sim.BotError, match="at seat 1 returned") as illegal:
        sim.next_move(state, [Cheat(), Cheat()], [random.Random(0)] * 2)
    assert illegal.value.seat == 1


def test_simulate_command() -> None:
    """`unoengine simulate` through the real entry point: a table, JSON, and a clear error for a bad bot."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "unoengine", "simulate", *args], capture_output=True, text=True)

    table = run("--games", "30", "--bots", "heuristic,random", "--seed", "2")
    assert table.returncode == 0, table.stderr
    assert "95% interval" in table.stdout and "heuristic" in table.stdout
    data = json.loads(run("--games", "30", "--bots", "heuristic,random", "--seed", "2", "--json").stdout)
    assert data["games"] == 30 and len(data["seats"]) == 2
    assert sum(s["wins"] for s in data["seats"]) == 30
    bad = run("--games", "3", "--bots", "heuristic,nobody")
    assert bad.returncode == 2 and "unknown bot 'nobody'" in bad.stderr


def test_tournament_round_robin_ranks_with_intervals() -> None:
    """A round-robin plays every pair heads-up in both seat orders and ranks the bots by win rate."""
    standings, results = sim.tournament("classic-108", ["random", "heuristic"], 40, seed=1)
    assert list(results) == [("random", "heuristic"), ("heuristic", "random")]
    assert [s.bot for s in standings] == ["heuristic", "random"]
    assert sum(s.wins for s in standings) == 80 and all(s.games == 80 for s in standings)
    assert standings[0].expected == 0.5 and standings[0].interval[0] > 0.5
    with pytest.raises(ValueError, match="heads-up"):
        sim.lineups(["a", "b"], "round-robin", 3)


def test_tournament_rotations_seat_every_bot_everywhere() -> None:
    """All-seat rotations: every bot sits in every seat once per rotation."""
    seatings = sim.lineups(["a", "b", "c"], "rotations", 3)
    assert seatings == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    for seat in range(3):
        assert {s[seat] for s in seatings} == {"a", "b", "c"}


def test_profiles_command_lists_and_shows_resolved() -> None:
    """`unoengine profiles` lists bases and overlays; with a name it prints the resolved profile, which loads
    back with the same fingerprint."""
    listing = subprocess.run([sys.executable, "-m", "unoengine", "profiles"], capture_output=True, text=True)
    assert "classic-108" in listing.stdout and "stacking-no-mercy" in listing.stdout
    shown = subprocess.run([sys.executable, "-m", "unoengine", "profiles", "gdj85+stacking+jump-in"],
                           capture_output=True, text=True)
    assert shown.returncode == 0
    first, _, toml = shown.stdout.partition("\n")
    profile = u.load_profile("gdj85+stacking+jump-in")
    assert first == f"# fingerprint {profile.fingerprint}"
    assert u.profile_from_dict(tomllib.loads(toml)).fingerprint == profile.fingerprint
    bad = subprocess.run([sys.executable, "-m", "unoengine", "profiles", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "nope" in bad.stderr


@pytest.mark.parametrize("spec", SPECS)
def test_ismcts_makes_legal_moves(spec: str) -> None:
    """PLAY-1..8, UNO-1..7, WD4-1..5, HOUSE-1..5: the ISMCTS bot (few iterations) returns a legal move
    at every decision of a round at a three-player table, with every invariant checked."""
    bot = ISMCTSBot(iterations=12, playout_moves=8)
    state = check_random_game([seat(bot, 1), seat(HeuristicBot(), 2), seat(RandomBot(), 3)], spec, 3, seed=4,
                              expensive_rate=0.0)
    assert state.round_over


def test_win_chances_favour_fewer_cards_and_the_turn() -> None:
    """The playout cut-off's evaluation: shares summing to 1, more for fewer cards, a little more for the
    player to act; 7 cards against 7 with the turn is about 55% (heads-up heuristic games: 52%)."""
    state = u.from_position("classic-108", ["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"], "G7")
    even = win_chances(state)
    assert sum(even) == pytest.approx(1.0) and 0.53 < even[0] < 0.57
    ahead = win_chances(u.from_position("classic-108", ["R1 R2", "B1 B2 B3 B4 B5 B6"], "G7"))
    behind = win_chances(u.from_position("classic-108", ["R1 R2 R3 R4 R5 R6", "B1 B2"], "G7"))
    assert ahead[0] > even[0] > behind[0] and behind[1] > 0.6
    table = win_chances(u.from_position("classic-108", ["R1 R2 R3", "B1", "Y1 Y2 Y3 Y4 Y5"], "G7"))
    assert sum(table) == pytest.approx(1.0) and table[1] > table[0] > table[2]


def test_ismcts_playouts_follow_the_heuristic_rules() -> None:
    """WD4-1, WD4-3, ACT-6: in playouts a player does not bluff a Wild Draw Four even at a player about to
    win, plays it there when it is no bluff, and the player hit by one challenges it, as the heuristic bot
    does (its odds nearly always say so)."""
    from unoengine.bots.ismcts import _quick_move

    rng = random.Random(1)
    bluff = u.from_position("classic-108", ["W+4 G3 B1 B2", "Y3"], "G7")
    assert _quick_move(bluff, rng) == u.Play(0, "G3")
    honest = u.from_position("classic-108", ["W+4 R3 B1 B2", "Y3"], "G7")
    assert _quick_move(honest, rng) == u.Play(0, u.WILD_DRAW_FOUR, u.Color.BLUE)
    hit = u.apply(honest, u.Play(0, u.WILD_DRAW_FOUR, u.Color.BLUE))
    assert _quick_move(hit, rng) == u.Challenge(1)
    assert HeuristicBot().act(u.view(hit, 1), rng) == u.Challenge(1)


def test_tournament_plays_every_deal_in_every_seat() -> None:
    """Duplicate format: game i of each seating is dealt from the same seed, and each bot's interval
    comes from its per-deal scores (Wilson's below 30 deals)."""
    standings, results = sim.tournament("classic-108", ["heuristic", "random"], 40, seed=3)
    first, second = results[("heuristic", "random")], results[("random", "heuristic")]
    assert [r.seed for r in first] == [r.seed for r in second]
    scores = [((a.winner == 0) + (b.winner == 1)) / 2 for a, b in zip(first, second, strict=True)]
    best = standings[0]
    assert best.bot == "heuristic" and best.win_rate == pytest.approx(sum(scores) / 40)
    assert best.interval == sim.duplicate_interval(scores, best.wins, best.games)


def test_duplicate_interval() -> None:
    """Normal interval from per-deal scores; Wilson's for fewer than 30 deals; clamped to [0, 1]."""
    scores = [1.0, 0.5] * 20  # mean 0.75, sample sd 0.2532, 40 deals
    lo, hi = sim.duplicate_interval(scores, 60, 80)
    half = 1.959964 * 0.25318484 / 40 ** 0.5
    assert lo == pytest.approx(0.75 - half, abs=1e-6) and hi == pytest.approx(0.75 + half, abs=1e-6)
    assert sim.duplicate_interval(scores[:20], 15, 40) == sim.wilson(15, 40)
    assert sim.duplicate_interval([1.0] * 29 + [0.5], 59, 60)[1] == 1.0


@pytest.mark.parametrize("workers", [1, 2])
def test_max_moves_stops_a_game_that_runs_on(workers: int) -> None:
    """A cap on moves per game turns a never-ending game into a BotError naming the game and the cap;
    a cap the games stay within changes nothing."""
    with pytest.raises(sim.BotError, match=r"game 0 \(seed \d+\) of heuristic, random: did not end within 5 moves"):
        sim.run("classic-108", ["heuristic", "random"], 4, seed=1, workers=workers, max_moves=5)
    capped = sim.run("classic-108", ["heuristic", "random"], 4, seed=1, workers=workers, max_moves=100_000)
    assert capped == sim.run("classic-108", ["heuristic", "random"], 4, seed=1)
    with pytest.raises(ValueError, match="at least 1"):
        sim.run("classic-108", ["heuristic", "random"], 4, max_moves=0)
    cli = subprocess.run([sys.executable, "-m", "unoengine", "simulate", "--games", "3", "--max-moves", "4"],
                         capture_output=True, text=True)
    assert cli.returncode == 2 and "did not end within 4 moves" in cli.stderr
