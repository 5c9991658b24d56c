"""The compiled mutants: for each reference mutant of docs/conformance.md, the same wrong rule
written into the kernel sources, and the tables it is played on (rule IDs from RULES.md).

Each entry names its reference mutant (which gives its rules and what it breaks); the patches say
where the kernels hold that rule. The tables make the rule come up well within the budget
(``report.MOVES``; most within a few hundred moves): its overlay, the player counts where it shows
(a Reverse with three or more, a two-player rule with two), short matches where it lives in the
deal (SETUP-2..10), a deck full of Wild Shuffle Hands for SETUP-10, and end-of-round positions
where it lives at the end of a round (blocked rounds, last cards, UNO windows).
"""

from __future__ import annotations

from typing import Final

from .base import CompiledMutant, Patch, Table

CLASSIC: Final = Table("classic-108")
SHORT_ROUNDS: Final = Table("classic-108", changes=(("hand_size", 2),))
"""Short hands: round ends come sooner than with seven cards."""
SHORT_MATCHES: Final = Table("classic-108+forced-play", changes=(("hand_size", 2), ("target_score", 1)))
"""Matches of one short round (forced play keeps random players from drawing for ever): a new
game, its dealer drawn and its first card turned, every few dozen moves (SETUP-2..10)."""
ENDGAME: Final = Table("classic-108", positions=True)
"""Random end-of-round positions: blocked rounds (PLAY-7), last cards and UNO windows come often."""
STACKING: Final = Table("classic-108+stacking")
JUMP_IN: Final = Table("classic-108+jump-in", players=(3, 4, 5))
WD4_NO_CHALLENGE: Final = Table("classic-108+wd4-unrestricted")
WD4_ENFORCED: Final = Table("classic-108+wd4-enforced")


def _m(name: str, tables: tuple[Table, ...], *patches: tuple[str, str, str]) -> CompiledMutant:
    return CompiledMutant(name, tuple(Patch(*p) for p in patches), tables)


_PLAY_BRANCH = "        for c in range(CODES):\n            if a[base + c] > 0 and row[c]:\n"
_WD4_CHECK = "    if k > 0 and out[k - 1] >= WILD_DRAW_FOUR:\n"
_TABLES_LEGAL = "from .tables import IS_WILD_T, MATCHES_T, STACKS_ON_T\n"
_UNO_WINDOW = "    if size_before == 2 and uno == 0 and hand_size(a, n, p) == 1:\n        a[S_UNO_EXPOSED] = p\n"
_FIRST_PLAYER = "a[S_CURRENT] = dealer if top == WILD_DRAW_FOUR and cfg[C_FIRST_WD4] != REDRAW else first"
_IMPORT_PLAY = ("kernel_apply.py", "from .kernel_base import (\n    CHALLENGE,\n",
                "from .kernel_base import (\n    PLAY,\n    CHALLENGE,\n")
_LATE_CALL = "    elif kind == K_CALL_UNO:  # UNO-4: a late call before anyone catches you makes you safe\n"
_TWO_PLAYER_REVERSE = "        if n == 2 and cfg[C_TWO_PLAYER_REVERSE] == REVERSE_AS_SKIP:\n"
_MAY_DECLINE = "if drawable and not (playable and cfg[C_DECLINE] == 0):  # HOUSE-5"

COMPILED_MUTANTS: Final[tuple[CompiledMutant, ...]] = (
    # --- SETUP, DECK --------------------------------------------------------------------------
    _m("dealt-in-blocks", (CLASSIC,),
       ("kernel_deal.py", "add_card(a, n, (dealer + 1 + i) % n, a[od + i])",
        "add_card(a, n, (dealer + 1 + i // cfg[C_HAND_SIZE]) % n, a[od + i])")),
    _m("dealer-draw-counts-card-points", (CLASSIC,),
       ("kernel_deal.py", "from .config import C_DECK, C_FIRST_WD4, C_HAND_SIZE, C_PLAY_DECK\n",
        "from .config import C_DECK, C_FIRST_WD4, C_HAND_SIZE, C_PLAY_DECK, C_POINTS\n"),
       ("kernel_deal.py", "values[i] = DEALER_VALUE_T[a[od + pos + i]]",
        "values[i] = cfg[C_POINTS + a[od + pos + i]]")),
    _m("dealer-tie-redraws-everyone", (SHORT_MATCHES,),
       ("kernel_deal.py", "        m = k\n        if m == 1:\n",
        "        if k == 1:\n            m = 1\n        else:\n            for i in range(n):\n"
        "                seats[i] = i\n        if m == 1:\n")),
    _m("first-card-from-the-bottom", (CLASSIC,),
       ("kernel_deal.py", "    a[S_DRAW_POS] = dealt\n",
        "    bottom = a[od + d - 1]\n    for i in range(d - 1, dealt, -1):\n        a[od + i] = a[od + i - 1]\n"
        "    a[od + dealt] = bottom\n    a[S_DRAW_POS] = dealt\n")),
    _m("dealer-plays-first", (SHORT_ROUNDS,),
       ("kernel_deal.py", "    else:\n        start_turn(a, first)\n", "    else:\n        start_turn(a, dealer)\n")),
    _m("first-skip-not-skipping", (SHORT_MATCHES,),
       ("kernel_deal.py", "    if symbol == SKIP:  # SETUP-5\n        start_turn(a, (first + 1) % n)\n",
        "    if symbol == SKIP:  # SETUP-5\n        start_turn(a, first)\n")),
    _m("first-reverse-right-of-dealer-plays",
       (Table("classic-108+forced-play", players=(3, 4, 5), changes=(("hand_size", 2), ("target_score", 1))),),
       ("kernel_deal.py", "        a[S_DIRECTION] = -1\n        start_turn(a, dealer)\n",
        "        a[S_DIRECTION] = -1\n        start_turn(a, (dealer - 1) % n)\n")),
    _m("first-draw-two-not-skipping", (SHORT_MATCHES,),
       ("kernel_deal.py", "        draw_cards(cfg, a, first, DRAW_TWO_COUNT)\n        start_turn(a, (first + 1) % n)\n",
        "        draw_cards(cfg, a, first, DRAW_TWO_COUNT)\n        start_turn(a, first)\n")),
    _m("first-wild-colour-named-by-dealer", (SHORT_MATCHES,),
       ("kernel_deal.py", _FIRST_PLAYER,
        "a[S_CURRENT] = (dealer if cfg[C_FIRST_WD4] != REDRAW else first) if top == WILD_DRAW_FOUR else dealer")),
    _m("first-wild-draw-four-applies", (SHORT_MATCHES,),
       ("kernel_deal.py", "if top == WILD_DRAW_FOUR and cfg[C_FIRST_WD4] == REDRAW:",
        "if top == WILD_DRAW_FOUR and cfg[C_FIRST_WD4] == -1:")),
    _m("first-shuffle-hands-shuffles", (Table("gdj85", deck="R1:2 Y2:2 G3:2 B4:2 R5:2 WSH:4",
                                                     changes=(("hand_size", 2), ("max_players", 6))),),
       ("kernel_deal.py", "        a[S_COLOR] = -1\n        a[S_PHASE] = CHOOSE_COLOR\n",
        "        if top == WILD_SHUFFLE_HANDS:\n"
        "            total = cfg[C_HAND_SIZE] * n\n"
        "            pool = np.empty(total, dtype=np.int64)\n"
        "            k = 0\n"
        "            for p in range(n):\n"
        "                for c in range(CODES):\n"
        "                    for _ in range(a[o_hands(n) + p * CODES + c]):\n"
        "                        pool[k] = c\n"
        "                        k += 1\n"
        "            a[S_RNG] = shuffle_block(pool, 0, total, a[S_RNG])\n"
        "            a[o_hands(n):o_hands(n) + n * CODES] = 0\n"
        "            a[o_hand_size(n):o_hand_size(n) + n] = 0\n"
        "            for i in range(total):\n"
        "                add_card(a, n, (dealer + 1 + i) % n, pool[i])\n"
        "        a[S_COLOR] = -1\n        a[S_PHASE] = CHOOSE_COLOR\n"),
       ("kernel_deal.py", "from ..engine.cards import DRAW_TWO, DRAW_TWO_COUNT, REVERSE, SKIP, WILD_DRAW_FOUR\n",
        "from ..engine.cards import DRAW_TWO, DRAW_TWO_COUNT, REVERSE, SKIP, WILD_DRAW_FOUR, WILD_SHUFFLE_HANDS\n")),
    _m("deal-passes-right", (Table("classic-108", players=(3, 4, 5), changes=(("hand_size", 2),)),),
       ("kernel_base.py", "return (a[S_DEALER] + 1) % a[S_N]", "return (a[S_DEALER] - 1) % a[S_N]")),
    _m("blanks-always-in-play", (Table("mattel-42003", changes=(("hand_size", 2),)),),
       ("config.py", "    deck = profile.play_deck\n", "    deck = profile.deck_counts\n"),
       ("config.py", "    cfg[C_DECK] = profile.deck_size\n", "    cfg[C_DECK] = sum(deck)\n")),
    # --- PLAY ---------------------------------------------------------------------------------
    _m("named-colour-ignored", (CLASSIC,),
       ("tables.py", "MATCHES_T: Final = np.array(MATCHES, dtype=np.bool_)",
        "MATCHES_T: Final = np.array(MATCHES, dtype=np.bool_) | IS_WILD_T[:, None, None]")),
    _m("action-symbol-does-not-match", (CLASSIC,),
       ("tables.py", "MATCHES_T: Final = np.array(MATCHES, dtype=np.bool_)",
        "MATCHES_T: Final = np.array(MATCHES, dtype=np.bool_) & ~((~IS_WILD_T & (SYMBOL_OF_T >= 10))[None, None, :]"
        " & (COLOR_OF_T[None, None, :] != np.arange(4)[None, :, None]))")),
    _m("wild-only-without-a-match", (CLASSIC,),
       ("kernel_legal.py", _WD4_CHECK,
        "    if k > 0 and not IS_WILD_T[out[0]]:\n        kept = 0\n        for i in range(k):\n"
        "            if not IS_WILD_T[out[i]] or out[i] == WILD_DRAW_FOUR:\n                out[kept] = out[i]\n"
        "                kept += 1\n        k = kept\n" + _WD4_CHECK)),
    _m("drawn-card-auto-played", (CLASSIC,),
       ("kernel_apply.py", "    a[S_PHASE] = DRAWN\n    a[S_DRAWN] = card\n",
        "    a[S_PHASE] = DRAWN\n    a[S_DRAWN] = card\n"
        "    if card >= 0 and _playable(cfg, a, n, p, top_card(cfg, a), a[S_COLOR], card)"
        " and not takes_target(cfg, card):\n"
        "        _play(cfg, a, p, card, 0 if IS_WILD_T[card] else -1, -1, 0)\n"),
       ("kernel_apply.py", "    top_card,\n    wild_draw_four_forbidden,\n)\n",
        "    takes_target,\n    top_card,\n    wild_draw_four_forbidden,\n)\n")),
    _m("pass-without-drawing", (CLASSIC,),
       ("kernel_legal.py", "if not playable and not drawable:  # PLAY-7", "if not playable:  # PLAY-7")),
    _m("no-decline-to-play", (CLASSIC,),
       ("kernel_legal.py", _MAY_DECLINE, "if drawable and not playable:  # HOUSE-5")),
    _m("any-card-after-drawing", (CLASSIC,),
       ("kernel_legal.py", "    if phase == DRAWN:\n        drawn = a[S_DRAWN]\n",
        "    if phase == -1:\n        drawn = a[S_DRAWN]\n"),
       ("kernel_legal.py", "    elif phase != PLAY:\n", "    elif phase != PLAY and phase != DRAWN:\n")),
    _m("draw-again-after-drawing", (CLASSIC,),
       ("kernel_legal.py",
        "        elif phase == DRAWN:\n            count = playable_cards(cfg, a, cards)\n"
        "            k = _append_plays(cfg, a, p, cards, count, out, k)\n",
        "        elif phase == DRAWN:\n            count = playable_cards(cfg, a, cards)\n"
        "            k = _append_plays(cfg, a, p, cards, count, out, k)\n"
        "            if can_draw(a):\n                out[k] = pack(K_DRAW, p, -1, -1, -1, 0)\n"
        "                k += 1\n")),
    _m("reshuffle-takes-the-top-card", (CLASSIC,),
       ("kernel_piles.py",
        "    for i in range(below):\n        a[od + rest + i] = a[oc + below - 1 - i]\n"
        "    a[S_RNG] = shuffle_block(a, od + rest, below, a[S_RNG])\n    a[S_DRAW_LEN] = rest + below\n",
        "    for i in range(below + 1):\n        a[od + rest + i] = a[oc + below - i]\n"
        "    a[S_RNG] = shuffle_block(a, od + rest, below + 1, a[S_RNG])\n    a[S_DRAW_LEN] = rest + below + 1\n")),
    _m("blocked-round-highest-hand-wins", (ENDGAME,),
       ("kernel_apply.py", "        if winner < 0 or points < least:\n", "        if winner < 0 or points > least:\n")),
    _m("pass-ignores-the-direction", (Table("classic-108", players=(3, 4, 5)),),
       ("kernel_apply.py", "    a[S_CH_ACTIVE] = 0\n    start_turn(a, seat_after(a, p, 1))\n",
        "    a[S_CH_ACTIVE] = 0\n    start_turn(a, (p + 1) % a[S_N])\n")),
    # --- ACT ----------------------------------------------------------------------------------
    _m("skip-skips-two", (Table("classic-108", players=(3, 4, 5)),),
       ("kernel_apply.py", "    if symbol == SKIP:\n        return seat_after(a, p, 2)\n",
        "    if symbol == SKIP:\n        return seat_after(a, p, 3)\n")),
    _m("reverse-does-not-reverse", (Table("classic-108", players=(3, 4, 5)),),
       ("kernel_apply.py", "    if symbol == REVERSE:\n        a[S_DIRECTION] = -a[S_DIRECTION]\n",
        "    if symbol == REVERSE:\n        if n == 2:\n            a[S_DIRECTION] = -a[S_DIRECTION]\n")),
    _m("draw-two-victim-keeps-turn", (CLASSIC,),
       ("kernel_apply.py",
        "            draw_cards(cfg, a, victim, DRAW_TWO_COUNT)\n            start_turn(a, seat_after(a, p, 2))\n",
        "            draw_cards(cfg, a, victim, DRAW_TWO_COUNT)\n            start_turn(a, victim)\n")),
    _m("wild-draw-four-victim-keeps-turn", (WD4_NO_CHALLENGE,),
       ("kernel_apply.py", "        draw_cards(cfg, a, victim, total)\n        start_turn(a, seat_after(a, p, 2))\n",
        "        draw_cards(cfg, a, victim, total)\n        start_turn(a, victim)\n")),
    _m("shuffle-hands-dealt-from-the-player", (Table("gdj85", players=(3, 4, 5)),),
       ("kernel_apply.py", "add_card(a, n, (player + 1 + i) % n, pool[i])",
        "add_card(a, n, (player + i) % n, pool[i])")),
    _m("swap-with-the-next-player",
       (Table("ffk04", players=(3, 4, 5)), Table("classic-108+seven-zero", players=(3, 4, 5))),
       ("kernel_apply.py", "    _swap_hands(a, n, p, target)\n    for v in range(n):\n",
        "    target = seat_after(a, p, 1)\n    _swap_hands(a, n, p, target)\n    for v in range(n):\n")),
    _m("custom-effect-ignored", (Table("ffk04", changes=(("custom_effect", "swap-hands"),)),
                                 Table("gdj85+stacking", changes=(("custom_effect", "others-draw-one"),))),
       ("kernel_apply.py", "    effect = cfg[C_CUSTOM]\n", "    effect = 0\n")),
    _m("last-draw-two-not-drawn", (SHORT_ROUNDS, ENDGAME),
       ("kernel_apply.py", "            draw_cards(cfg, a, seat_after(a, p, 1), a[S_PENDING_DRAW] + DRAW_TWO_COUNT)\n",
        "            pass\n")),
    # --- WD4 ----------------------------------------------------------------------------------
    _m("wd4-refused-when-any-card-playable", (CLASSIC,),
       ("kernel_legal.py", _WD4_CHECK,
        "    if k > 1 and out[k - 1] >= WILD_DRAW_FOUR:\n        for i in range(k):\n"
        "            if out[i] == WILD_DRAW_FOUR:\n                for j in range(i, k - 1):\n"
        "                    out[j] = out[j + 1]\n                k -= 1\n                break\n" + _WD4_CHECK)),
    _m("wd4-restriction-ignored", (WD4_ENFORCED,),
       ("kernel_base.py", "return cfg[C_WILD_DRAW_FOUR] == ENFORCED and holds_color(a, n, player, color)",
        "return cfg[C_WILD_DRAW_FOUR] == -1 and holds_color(a, n, player, color)")),
    _m("wild-in-hand-blocks-wild-draw-four", (CLASSIC, WD4_ENFORCED),
       ("kernel_base.py", "        if a[base + c] > 0 and COLOR_OF_T[c] == color:\n",
        "        if a[base + c] > 0 and (COLOR_OF_T[c] == color or (COLOR_OF_T[c] < 0 and c != WILD_DRAW_FOUR)):\n")),
    _m("anyone-may-challenge", (CLASSIC,),
       ("kernel_legal.py", "    if cfg[C_JUMP_IN] != 0:\n        twin",
        "    if phase == CHALLENGE:\n        for q in range(n):\n"
        "            if q != p and (player < 0 or player == q):\n"
        "                out[k] = pack(K_CHALLENGE, q, -1, -1, -1, 0)\n                k += 1\n"
        "    if cfg[C_JUMP_IN] != 0:\n        twin")),
    _m("guilty-attacker-draws-nothing", (CLASSIC,),
       ("kernel_apply.py", "        draw_cards(cfg, a, attacker, total)\n        start_turn(a, victim)\n",
        "        start_turn(a, victim)\n")),
    _m("guilty-verdict-skips-challenger", (CLASSIC,),
       ("kernel_apply.py", "        draw_cards(cfg, a, attacker, total)\n        start_turn(a, victim)\n",
        "        draw_cards(cfg, a, attacker, total)\n        start_turn(a, seat_after(a, victim, 1))\n")),
    _m("innocent-challenger-draws-four", (CLASSIC,),
       ("kernel_apply.py", "\nCHALLENGE_EXTRA = 2\n", "\nCHALLENGE_EXTRA = 0\n")),
    _m("innocent-challenger-keeps-turn", (CLASSIC,),
       ("kernel_apply.py", "    start_turn(a, seat_after(a, victim, 1))\n\n\n@lean\ndef _accept",
        "    start_turn(a, victim)\n\n\n@lean\ndef _accept")),
    # --- UNO ----------------------------------------------------------------------------------
    _m("called-uno-still-exposed", (CLASSIC,),
       ("kernel_apply.py", _UNO_WINDOW,
        "    if size_before == 2 and hand_size(a, n, p) == 1:\n        a[S_UNO_EXPOSED] = p\n")),
    _m("uno-penalty-always-two", (Table("classic-108+uno-penalty-4"),),
       ("kernel_apply.py", "draw_cards(cfg, a, (code >> TARGET_SHIFT & 31) - 1, cfg[C_UNO_PENALTY])",
        "draw_cards(cfg, a, (code >> TARGET_SHIFT & 31) - 1, 2)")),
    _m("catcher-draws-the-penalty", (CLASSIC,),
       ("kernel_apply.py", "draw_cards(cfg, a, (code >> TARGET_SHIFT & 31) - 1, cfg[C_UNO_PENALTY])",
        "draw_cards(cfg, a, player, cfg[C_UNO_PENALTY])")),
    _m("uno-window-opens-a-card-early", (CLASSIC,),
       ("kernel_apply.py", _UNO_WINDOW,
        _UNO_WINDOW + "    if hand_size(a, n, p) == 2 and a[S_UNO_EXPOSED] < 0 and a[S_PHASE] < ROUND_OVER:\n"
        "        a[S_UNO_EXPOSED] = p\n")),
    _m("late-call-not-safe", (CLASSIC,),
       ("kernel_apply.py", _LATE_CALL + "        a[S_UNO_EXPOSED] = -1\n", _LATE_CALL + "        pass\n")),
    _m("uno-window-survives-draw", (CLASSIC, ENDGAME),
       ("kernel_apply.py", "    a[S_UNO_EXPOSED] = -1  # UNO-5: drawing begins the turn\n", "")),
    _m("only-the-next-player-may-catch",
       (Table("classic-108", players=(3, 4, 5)), Table("classic-108", players=(3, 4, 5), positions=True)),
       ("kernel_legal.py", "            if q != exposed and (player < 0 or player == q):\n",
        "            if q != exposed and q == (exposed + a[S_DIRECTION]) % n and (player < 0 or player == q):\n"),
       ("kernel_legal.py", "from .layout import CODES, S_COLOR,", "from .layout import S_DIRECTION, CODES, S_COLOR,")),
    _m("uno-window-closes-on-penalty", (CLASSIC, ENDGAME),
       ("kernel_apply.py", _UNO_WINDOW,
        "    if size_before == 2 and uno == 0 and hand_size(a, n, p) == 1 and not (\n"
        "            not IS_WILD_T[card] and SYMBOL_OF_T[card] == DRAW_TWO and a[S_PHASE] == PLAY):\n"
        "        a[S_UNO_EXPOSED] = p\n"),
       _IMPORT_PLAY),
    _m("accepting-closes-the-uno-window", (ENDGAME, Table("classic-108+stacking", positions=True)),
       ("kernel_apply.py", "    attacker_out = a[S_CH_ACTIVE] != 0",
        "    a[S_UNO_EXPOSED] = -1\n    attacker_out = a[S_CH_ACTIVE] != 0")),
    # --- SCORE --------------------------------------------------------------------------------
    _m("action-cards-score-ten", (SHORT_ROUNDS,),
       ("kernel_apply.py", "        a[ol + p] = points\n",
        "        for c in range(CODES):\n            if not IS_WILD_T[c] and SYMBOL_OF_T[c] >= SKIP:\n"
        "                points -= a[oh + p * CODES + c] * (cfg[C_POINTS + c] - 10)\n        a[ol + p] = points\n")),
    _m("match-needs-more-than-the-target",
       (Table("classic-108+one-point-per-round", changes=(("hand_size", 2), ("target_score", 2))),),
       ("kernel_apply.py", "    if best >= cfg[C_TARGET]:\n", "    if best > cfg[C_TARGET]:\n")),
    _m("blocked-round-winner-scores-own-hand", (ENDGAME,),
       ("kernel_apply.py", "            won = total - a[ol + winner] if p == winner else 0\n",
        "            won = total if p == winner else 0\n")),
    _m("lowest-score-rule-picks-highest",
       (Table("classic-108+lowest-score", changes=(("hand_size", 3), ("target_score", 60))),),
       ("kernel_apply.py", "                if a[sc + p] == low:\n", "                if a[sc + p] == best:\n")),
    _m("one-point-rule-scores-card-points", (Table("classic-108+one-point-per-round", changes=(("hand_size", 3),)),),
       ("kernel_apply.py", "            won = 1 if p == winner else 0\n",
        "            won = total - a[ol + winner] if p == winner else 0\n")),
    # --- HOUSE --------------------------------------------------------------------------------
    _m("stack-total-off-by-one", (STACKING, Table("classic-108+stacking-cross")),
       ("kernel_apply.py", "    a[S_PHASE] = PENALTY\n    a[S_PENDING_DRAW] = total\n",
        "    a[S_PHASE] = PENALTY\n    a[S_PENDING_DRAW] = total - 1 if a[S_PENDING_DRAW] > 0 else total\n")),
    _m("same-kind-stacking-crosses", (STACKING,),
       ("tables.py", "np.array([STACKS_ON[mode] for mode in STACKING], dtype=np.bool_)",
        "np.array([STACKS_ON['cross' if mode == 'same-kind' else mode] for mode in STACKING], dtype=np.bool_)")),
    _m("equal-or-higher-lets-draw-two-answer-four", (Table("classic-108+stacking-no-mercy"),),
       ("tables.py", "np.array([STACKS_ON[mode] for mode in STACKING], dtype=np.bool_)",
        "np.array([STACKS_ON['cross' if mode == 'equal-or-higher' else mode] for mode in STACKING], dtype=np.bool_)")),
    _m("stack-victim-keeps-turn", (STACKING,),
       ("kernel_apply.py", "    start_turn(a, seat_after(a, victim, 1))\n\n\n@jit\ndef apply_move",
        "    start_turn(a, victim if a[S_PHASE] == PENALTY else seat_after(a, victim, 1))\n\n\n@jit\ndef apply_move")),
    _m("jump-in-on-same-number", (JUMP_IN,),
       ("kernel_legal.py",
        "            if (player < 0 or player == q) and may_jump_in(cfg, a, q):\n"
        "                k = _append_card(cfg, a, q, twin, hand_size(a, n, q) == 2, out, k)\n",
        "            if ((player < 0 or player == q) and q != p\n"
        "                    and (phase == PLAY or phase == DRAWN or phase == PENALTY)\n"
        "                    and not IS_WILD_T[twin]):\n"
        "                for c in range(CODES):\n"
        "                    if holds(a, n, q, c) and not IS_WILD_T[c] and SYMBOL_OF_T[c] == SYMBOL_OF_T[twin]:\n"
        "                        k = _append_card(cfg, a, q, c, hand_size(a, n, q) == 2, out, k)\n"),
       ("kernel_legal.py", _TABLES_LEGAL, "from .tables import IS_WILD_T, MATCHES_T, STACKS_ON_T, SYMBOL_OF_T\n")),
    _m("jump-in-turn-goes-on-from-the-skipped", (JUMP_IN,),
       ("kernel_apply.py", "    size_before = hand_size(a, n, p)\n",
        "    size_before = hand_size(a, n, p)\n    current_before = a[S_CURRENT]\n"),
       ("kernel_apply.py", _UNO_WINDOW,
        _UNO_WINDOW + "    if (p != current_before and a[S_PHASE] == PLAY and not IS_WILD_T[card]\n"
        "            and SYMBOL_OF_T[card] <= 9):\n        a[S_CURRENT] = (current_before + a[S_DIRECTION]) % n\n"),
       _IMPORT_PLAY),
    _m("seven-zero-passes-backwards", (Table("classic-108+seven-zero", players=(3, 4, 5)),),
       ("kernel_apply.py", "    step = a[S_DIRECTION]\n", "    step = -a[S_DIRECTION]\n")),
    _m("draw-until-playable-draws-one", (Table("classic-108+draw-to-match"),),
       ("kernel_apply.py", "    if cfg[C_DRAW_UNTIL] != 0:\n", "    if cfg[C_DRAW_UNTIL] == -1:\n")),
    _m("forced-play-allows-declining", (Table("classic-108+forced-play"),),
       ("kernel_legal.py", _MAY_DECLINE, "if drawable:  # HOUSE-5")),
    _m("two-player-reverse-not-skip", (Table("classic-108+two-player-reverse-skip", players=(2,)),),
       ("kernel_apply.py", _TWO_PLAYER_REVERSE + "            return p\n",
        _TWO_PLAYER_REVERSE + "            return seat_after(a, p, 1)\n")),
    _m("first-wild-draw-four-colour-named-by-first-player",
       (Table("classic-108+wd4-first-card-applies+forced-play", changes=(("hand_size", 2), ("target_score", 1))),),
       ("kernel_deal.py", _FIRST_PLAYER, "a[S_CURRENT] = first")),
)
"""Every compiled mutant, in the order of the reference mutants' table."""

NO_COUNTERPART: Final[dict[str, str]] = {
    "jump-in-while-a-challenge-is-pending":
        "HOUSE-2 allows a jump-in only with the top card's twin, and the top card is a wild in both phases this "
        "mutant opens (a Wild Draw Four awaiting its challenge, a first wild awaiting its colour), so no move becomes "
        "legal: the reference mutant changes only the words of the refusal (no-jump-in-now becomes not-identical), "
        "which the compiled engine takes from the reference engine",
}
"""The reference mutants that have no compiled counterpart, and why."""
