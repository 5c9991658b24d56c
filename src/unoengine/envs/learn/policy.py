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

The weights file is an ``.npz`` of plain arrays, written and read with ``allow_pickle=False``:
``format`` (the string ``"unoengine-residual-policy/1"``), ``profile`` (the profile's name),
``players``, ``prior``, ``W`` (features x groups, float32) and ``b`` (groups, float32).
:func:`load_policy` reads at most :data:`MAX_FILE_BYTES`, checks every field's type, shape and
finiteness, and raises :class:`PolicyFileError` naming the field of anything else.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np

from ...engine.cards import DRAW_TWO, IS_WILD, REVERSE, SKIP, SYMBOL_OF, WILD_DRAW_FOUR
from ...engine.errors import UnoEngineError, shown
from ...formats.composition import load_profile
from ..actions import ActionEncoding, ActionError
from ..observations import ObservationEncoding

if TYPE_CHECKING:
    import numpy.typing as npt

FORMAT: Final = "unoengine-residual-policy/1"
CAP: Final = 16.0
"""Counts at or above this read as 1 in the features."""
MAX_FILE_BYTES: Final = 16 << 20
"""The largest weights file :func:`load_policy` reads (a 10-player policy is about 2 MiB)."""
FIELDS: Final = ("format", "profile", "players", "prior", "W", "b")
MAX_PRIOR: Final = 1e6
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
    """A weights file that cannot be a policy: names the field and the problem."""


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
    """Read a weights file written by :meth:`ResidualPolicy.save`; PolicyFileError naming the field
    of anything else (see the module doc)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PolicyFileError(f"path: cannot read {shown(str(path))}: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise PolicyFileError(f"file: larger than {MAX_FILE_BYTES:,} bytes")
    try:
        archive = np.load(io.BytesIO(data), allow_pickle=False)
        names = set(archive.files)
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
        raise PolicyFileError(f"file: not an .npz archive ({type(exc).__name__})") from None
    missing = [f for f in FIELDS if f not in names]
    if missing:
        raise PolicyFileError(f"{missing[0]}: missing from the weights file")
    extra = sorted(names - set(FIELDS))
    if extra:
        raise PolicyFileError(f"{extra[0]}: not a field of a weights file (expected {', '.join(FIELDS)})")

    def field(name: str) -> npt.NDArray[np.generic]:
        try:
            return archive[name]  # type: ignore[no-any-return]
        except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
            raise PolicyFileError(f"{name}: cannot be read ({type(exc).__name__}: pickled or damaged)") from None

    fmt = field("format")
    if fmt.shape != () or fmt.dtype.kind != "U" or str(fmt) != FORMAT:
        raise PolicyFileError(f"format: expected {FORMAT!r}, got {shown(fmt.tolist())}")
    name = field("profile")
    if name.shape != () or name.dtype.kind != "U" or len(str(name)) > 200:
        raise PolicyFileError("profile: expected a profile name")
    players = field("players")
    if players.shape != () or players.dtype.kind not in "iu" or not 2 <= int(players) <= 10:
        raise PolicyFileError(f"players: expected an integer 2..10, got {shown(players.tolist())}")
    prior = field("prior")
    if prior.shape != () or prior.dtype.kind != "f" or not np.isfinite(prior) or not 0 <= float(prior) <= MAX_PRIOR:
        raise PolicyFileError(f"prior: expected a finite number 0..{MAX_PRIOR:g}, got {shown(prior.tolist())}")
    try:
        policy = ResidualPolicy(str(name), int(players), float(prior))
    except UnoEngineError as exc:
        raise PolicyFileError(f"profile: {exc}") from None
    for key, like in (("W", policy.W), ("b", policy.b)):
        value = field(key)
        if value.shape != like.shape or value.dtype != np.float32:
            raise PolicyFileError(f"{key}: expected float32 of shape {like.shape}, got {value.dtype} {value.shape}")
        if not np.isfinite(value).all():
            raise PolicyFileError(f"{key}: holds a value that is not finite")
    return ResidualPolicy(str(name), int(players), float(prior), field("W").astype(np.float32),
                          field("b").astype(np.float32))


