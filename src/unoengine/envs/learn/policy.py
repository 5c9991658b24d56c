"""A policy that learns corrections to the heuristic bot, and its weights file (docs/learning.md).

The policy scores every action ``a`` of the actor as::

    logit[a] = prior * (a == heuristic's action) + features(observation) @ W[:, g(a)] + b[g(a)]

and plays the legal action with the highest score (the lowest index on a tie). ``g(a)`` is the
action's *group* (:func:`action_groups`): its kind, and for a play the card's symbol and whether it
calls UNO, so a correction learned for one Draw Two holds for every Draw Two, and the trainer
searches 39 groups instead of 132 actions (classic-108, two players). ``features`` is the
observation (:mod:`..observations`) with each entry clipped to ``min(high, CAP)`` and divided by
it, so every feature is in [0, 1] and a count of 16 or more cards reads as 1. With ``W`` and ``b``
zero the policy *is* the heuristic bot; training moves it away where that wins more. Why a
correction and not a policy from nothing: the heuristic is a strong prior that costs nothing to
evaluate, and the edge to find over it is a few per cent (docs/learning.md says what was tried).

The weights file is an ``.npz`` of plain arrays, written with ``allow_pickle=False``:
``format`` (the string ``"unoengine-residual-policy/1"``), ``profile`` (a shipped profile, or
shipped names joined by ``+``), ``players``, ``prior``, ``W`` (features x groups, float32) and
``b`` (groups, float32). A weights file may come from anyone, so :func:`load_policy` reads only a
regular file of at most :data:`MAX_FILE_BYTES`, each array's header before its data and no more
data than the policy's shapes take (:mod:`.npz`), takes the profile from the shipped names alone
(it never opens a path a file names), and raises :class:`PolicyFileError` naming the file and the
field of anything else, without quoting what the file holds.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ...engine.cards import DRAW_TWO, IS_WILD, REVERSE, SKIP, SYMBOL_OF, WILD_DRAW_FOUR
from ...engine.errors import UnoEngineError, quoted, shown
from ...engine.limits import MAX_COMPOSITION_PARTS, MAX_PLAYERS
from ...formats.composition import load_profile
from ...formats.files import UnreadableFileError, read_bounded
from ...formats.profile_file import shipped_overlays, shipped_profiles
from ..actions import ActionEncoding, ActionError
from ..observations import ObservationEncoding
from .npz import ArrayFileError, Arrays, Check

if TYPE_CHECKING:
    import numpy.typing as npt

FORMAT: Final = "unoengine-residual-policy/1"
CAP: Final = 16.0
"""Counts at or above this read as 1 in the features."""
MAX_FILE_BYTES: Final = 16 << 20
"""The largest weights file :func:`load_policy` reads (a 10-player policy is about 2 MiB)."""
FIELDS: Final = ("format", "profile", "players", "prior", "W", "b")
MAX_PRIOR: Final = 1e6
MAX_PROFILE_CHARS: Final = 200
"""The longest ``profile`` a weights file may name (shipped names joined by '+')."""
MAX_QUOTED_PATH: Final = 300
_SYMBOL_NAMES: Final = {SKIP: "skip", REVERSE: "reverse", DRAW_TWO: "draw-two"}


def action_groups(actions: ActionEncoding) -> tuple[npt.NDArray[np.int64], list[str]]:
    """Each action's group index, and the groups' names: ``kind`` for every action but a play,
    ``play <symbol>`` (``wild`` for any wild) with ``!`` for the UNO call for a play. The colour a
    wild names and the seat a card targets are left to the heuristic's choice within a group."""
    names: dict[str, int] = {}
    out = np.empty(actions.size, dtype=np.int64)
    for i, action in enumerate(actions.actions):
        if action.kind == "play" and action.card is not None:
            symbol = _SYMBOL_NAMES.get(SYMBOL_OF[action.card], str(SYMBOL_OF[action.card]))
            if IS_WILD[action.card]:
                symbol = "wild-draw-four" if action.card == WILD_DRAW_FOUR else "wild"
            name = f"play {symbol}{'!' if action.uno else ''}"
        else:
            name = action.kind
        out[i] = names.setdefault(name, len(names))
    return out, list(names)


class PolicyFileError(UnoEngineError):
    """A weights file that cannot be a policy: ``path`` (quoted and escaped), ``field`` (an array
    of the file, or ``"file"``) and ``problem``; the message quotes nothing the file holds."""

    def __init__(self, path: str, field: str, problem: str) -> None:
        self.path = path
        self.field = field
        self.problem = problem
        super().__init__(f"weights file {path}: {field}: {problem}")


class ResidualPolicy:
    """The heuristic's choice plus a learned linear correction (see the module doc)."""

    def __init__(self, profile: str, players: int, prior: float = 1.0,
                 weights: npt.NDArray[np.float32] | None = None, bias: npt.NDArray[np.float32] | None = None) -> None:
        self.profile = profile
        self.players = players
        resolved = load_profile(profile)
        self.observations = ObservationEncoding(resolved, players)
        self.actions = ActionEncoding(resolved, players)
        self.prior = float(prior)
        caps = np.minimum(self.observations.high(), CAP).astype(np.float32)
        self.scale = (1.0 / np.maximum(caps, 1.0)).astype(np.float32)
        self.caps = caps
        self.groups, self.group_names = action_groups(self.actions)
        d, g = self.observations.size, len(self.group_names)
        self.W = np.zeros((d, g), np.float32) if weights is None else weights
        self.b = np.zeros(g, np.float32) if bias is None else bias

    @property
    def size(self) -> int:
        """The number of learned parameters (``W`` and ``b``)."""
        return int(self.W.size + self.b.size)

    def flat(self) -> npt.NDArray[np.float32]:
        """``W`` and ``b`` as one vector (what the trainer perturbs)."""
        return np.concatenate([self.W.ravel(), self.b])

    def with_flat(self, theta: npt.NDArray[np.floating]) -> ResidualPolicy:
        """The same policy with ``W`` and ``b`` from ``theta`` (a vector of :attr:`size`)."""
        d, a = self.W.shape
        if np.shape(theta) != (self.size,):
            raise ActionError(f"theta: expected a vector of {self.size} numbers, got shape {np.shape(theta)}")
        w = np.asarray(theta[: d * a], np.float32).reshape(d, a)
        b = np.asarray(theta[d * a:], np.float32)
        return ResidualPolicy(self.profile, self.players, self.prior, w, b)

    def features(self, observations: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Each row's observation clipped and scaled into [0, 1]."""
        return np.minimum(observations, self.caps) * self.scale

    def act(self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.uint8],
            prior_actions: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The chosen action of each row: observations (N x size), legal masks (N x A) and the
        heuristic's actions (N,)."""
        n = len(prior_actions)
        if observations.shape != (n, self.W.shape[0]) or masks.shape != (n, self.actions.size):
            raise ActionError(f"observations, masks: expected ({n}, {self.W.shape[0]}) and ({n}, "
                                  f"{self.actions.size}), got {observations.shape} and {masks.shape}")
        logits = (self.features(observations) @ self.W + self.b)[:, self.groups]
        logits[np.arange(len(logits)), prior_actions] += self.prior
        logits[masks == 0] = -np.inf
        return logits.argmax(axis=1)  # type: ignore[no-any-return]

    def act_one(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.uint8], prior_action: int) -> int:
        """:meth:`act` for one decision."""
        return int(self.act(observation[None, :], mask[None, :], np.array([prior_action]))[0])

    def save(self, path: str | Path) -> None:
        """Write the weights file (see the module doc)."""
        with open(path, "wb") as f:
            np.savez_compressed(f, format=np.array(FORMAT), profile=np.array(self.profile),
                                players=np.array(self.players), prior=np.array(self.prior), W=self.W, b=self.b)


def load_policy(path: str | Path) -> ResidualPolicy:
    """Read a weights file written by :meth:`ResidualPolicy.save`; PolicyFileError naming the file
    and the field of anything else (see the module doc), in bounded time and memory."""
    where = quoted(str(path), MAX_QUOTED_PATH)
    try:
        return _load(path)
    except UnreadableFileError as exc:
        raise PolicyFileError(where, "file", exc.problem) from None
    except ArrayFileError as exc:
        raise PolicyFileError(where, exc.field, exc.problem) from None
    except MemoryError:
        raise PolicyFileError(where, "file", "not enough memory to read it") from None


def _load(path: str | Path) -> ResidualPolicy:
    arrays = Arrays(read_bounded(path, MAX_FILE_BYTES), FIELDS)
    fmt = arrays.read("format", _text(len(FORMAT)))
    if str(fmt[()]) != FORMAT:
        raise ArrayFileError("format", f"expected the text {FORMAT!r}")
    name = str(arrays.read("profile", _text(MAX_PROFILE_CHARS))[()])
    if not is_shipped_composition(name):
        raise ArrayFileError("profile", "expected a shipped profile, or shipped names joined by '+' "
                                        "(classic-108+stacking); 'unoengine profiles' lists them")
    players = int(arrays.read("players", _scalar("iu", "an integer"))[()])
    if not 2 <= players <= MAX_PLAYERS:
        raise ArrayFileError("players", f"expected an integer 2..{MAX_PLAYERS}")
    prior = float(arrays.read("prior", _scalar("f", "a number"))[()])
    if not (math.isfinite(prior) and 0 <= prior <= MAX_PRIOR):
        raise ArrayFileError("prior", f"expected a finite number 0..{MAX_PRIOR:g}")
    try:
        policy = ResidualPolicy(name, players, prior)
    except UnoEngineError as exc:  # shipped names only: the message quotes nothing of the file
        raise ArrayFileError("profile", str(exc)) from None
    values = []
    for key, like in (("W", policy.W), ("b", policy.b)):
        value = arrays.read(key, _float32(like.shape))
        if not np.isfinite(value).all():
            raise ArrayFileError(key, "holds a value that is not finite")
        values.append(value)
    return ResidualPolicy(name, players, prior, values[0], values[1])


def is_shipped_composition(name: str) -> bool:
    """Is ``name`` a shipped profile, or one with shipped overlays joined by ``+``
    (``classic-108+stacking``)? Decided from the shipped names alone: nothing is opened."""
    parts = name.split("+")
    return (len(parts) <= MAX_COMPOSITION_PARTS and parts[0] in shipped_profiles()
            and all(part in shipped_overlays() for part in parts[1:]))


def _text(chars: int) -> Check:
    def check(dtype: np.dtype[Any], shape: tuple[int, ...]) -> str | None:
        if shape != () or dtype.kind != "U" or dtype.itemsize > 4 * chars:
            return f"expected one text of at most {chars} characters"
        return None
    return check


def _scalar(kinds: str, what: str) -> Check:
    def check(dtype: np.dtype[Any], shape: tuple[int, ...]) -> str | None:
        if shape != () or dtype.kind not in kinds or dtype.itemsize > 8:
            return f"expected {what}, got {dtype.str} of shape {shown(shape)}"
        return None
    return check


def _float32(expected: tuple[int, ...]) -> Check:
    def check(dtype: np.dtype[Any], shape: tuple[int, ...]) -> str | None:
        if shape != expected or dtype != np.float32:
            return f"expected float32 of shape {expected}, got {dtype.str} of shape {shown(shape)}"
        return None
    return check
