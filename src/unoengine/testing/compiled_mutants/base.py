"""What a compiled mutant is made of: the tables it is played on, the text patches of the kernel
sources, and the patched copy of the compiled package that a run loads.

A reference mutant (:mod:`unoengine.testing.mutants`) patches a Python seam of the reference
engine; its compiled counterpart patches the *source* of the kernels (``unoengine/compiled/*.py``),
so the wrong rule is compiled (or, with ``NUMBA_DISABLE_JIT=1``, run as Python) like the right one.
Each patch is an exact text replacement that must match exactly once: when the kernels move, the
mutant raises :class:`~unoengine.testing.mutants.MutantSeamError` instead of testing nothing.
The installed package is never touched: :func:`write_patched_package` writes a patched copy of
the compiled package into a directory of the caller's, which a child process loads in its place.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import attrs

import unoengine as u

from ...engine.shuffling import SPLITMIX64_V1
from ..mutants import Mutant, MutantError, MutantSeamError, by_name

COMPILED_SOURCES = Path(__file__).resolve().parents[2] / "compiled"
"""The compiled package's sources: what every mutant patches a copy of."""


@attrs.frozen
class Table:
    """A profile to play a mutant on: a shipped profile or composition (``spec``), with the
    portable shuffle the kernels run, optionally other cards (``deck``: ``"R1:2 W+4:1"``) and other
    options (``changes``), the player counts to deal (every count of the profile when empty), and
    whether games start from random end-of-round positions rather than a deal (``positions``)."""

    spec: str
    players: tuple[int, ...] = ()
    deck: str = ""
    changes: tuple[tuple[str, object], ...] = ()
    positions: bool = False

    def profile(self) -> u.Profile:
        changes: dict[str, Any] = dict(self.changes)
        if self.deck:
            counts = [0] * len(u.load_profile(self.spec).deck_counts)
            for item in self.deck.split():
                name, copies = item.split(":")
                counts[u.parse_card(name)] = int(copies)
            changes["deck_counts"] = tuple(counts)
        return attrs.evolve(u.load_profile(self.spec), shuffle=SPLITMIX64_V1, **changes)

    def label(self) -> str:
        extra = [f"{k}={v}" for k, v in self.changes] + ([f"deck {self.deck}"] if self.deck else [])
        players = f", {'/'.join(map(str, self.players))} players" if self.players else ""
        start = ", from end-of-round positions" if self.positions else ""
        return self.spec + (f" [{'; '.join(extra)}]" if extra else "") + players + start


@attrs.frozen
class Patch:
    """Replace ``old`` by ``new`` in ``compiled/<file>``; ``old`` must occur exactly once."""

    file: str
    old: str
    new: str


@attrs.frozen
class CompiledMutant:
    """The compiled counterpart of the reference mutant ``name``: the same wrong rule, written into
    the kernel sources by ``patches`` and played on ``tables`` (chosen so that the rule is reached:
    its overlay, enough players, a deck that makes it frequent)."""

    name: str
    patches: tuple[Patch, ...]
    tables: tuple[Table, ...]

    @property
    def reference(self) -> Mutant:
        """The reference mutant it mirrors (its rules and description)."""
        return by_name(self.name)

    @property
    def rules(self) -> tuple[str, ...]:
        return self.reference.rules

    @property
    def seam(self) -> str:
        return ", ".join(dict.fromkeys(f"compiled/{p.file}" for p in self.patches))

    def patched_sources(self, sources: Path = COMPILED_SOURCES) -> dict[str, str]:
        """The text of every file the patches change, patched (MutantSeamError when a patch does
        not match exactly once)."""
        texts: dict[str, str] = {}
        for patch in self.patches:
            path = sources / patch.file
            if patch.file not in texts:
                if not path.is_file():
                    raise MutantSeamError(f"{self.name}: compiled/{patch.file} is gone: the kernels moved; re-point it")
                texts[patch.file] = path.read_text(encoding="utf-8")
            count = texts[patch.file].count(patch.old)
            if count != 1:
                raise MutantSeamError(
                    f"{self.name}: its seam in compiled/{patch.file} occurs {count} times, not once: the kernels "
                    f"moved; re-point it (looking for {patch.old.strip().splitlines()[0]!r})")
            texts[patch.file] = texts[patch.file].replace(patch.old, patch.new)
        return texts


def write_patched_package(mutant: CompiledMutant | None, into: Path, sources: Path = COMPILED_SOURCES) -> Path:
    """A copy of the compiled package's sources in ``into`` (a fresh directory), with ``mutant``'s
    patches applied (none for the baseline); the copy's path."""
    if into.exists() and any(into.iterdir()):
        raise MutantError(f"into: {into} is not empty; give a fresh directory")
    into.mkdir(parents=True, exist_ok=True)
    for source in sorted(sources.glob("*.py")):
        shutil.copyfile(source, into / source.name)
    for name, text in ({} if mutant is None else mutant.patched_sources(sources)).items():
        (into / name).write_text(text, encoding="utf-8")
    return into
