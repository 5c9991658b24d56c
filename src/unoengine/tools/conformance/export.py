"""``unoengine conformance --export DIR``: the corpus as a standalone, versioned bundle.

The bundle holds the scenario files as they ship (``scenarios/*.json``, byte for byte), the
JSON Schema of a scenario file (``scenario-file.schema.json``), what each scenario, step and
expectation key needs of an adapter (``needs.json``, for runners in other languages), a
manifest with the versions and the counts (``manifest.json``), and a README.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from ...engine.errors import UnoEngineError
from ...engine.limits import MAX_DOCUMENT_BYTES
from ...formats.files import read_bounded
from .adapter import PROTOCOL_VERSION
from .capabilities import CAPABILITIES, FEATURES
from .needs import scenario_needs
from .scenarios import CORPUS_VERSION, VERSION, load_scenarios
from .schema import SCENARIO_SCHEMA

BUNDLE_FORMAT: Final = "conformance-bundle"
BUNDLE_VERSION: Final = 1


class ExportError(UnoEngineError):
    """A bundle that cannot be written where it was asked (a folder that is not empty, ...)."""


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def export_bundle(files: Sequence[Path], folder: Path) -> dict[str, Any]:
    """Write the bundle of the scenario ``files`` into ``folder`` (new or empty); the manifest."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ExportError(f"--export {str(folder)[:200]!r}: must be a new or empty folder")
    scenarios = load_scenarios(files)  # the files are checked before anything is written
    names = [p.name for p in files]
    if len(set(names)) != len(names):
        raise ExportError("--export: two scenario files have the same name; export them in parts")
    try:
        (folder / "scenarios").mkdir(parents=True, exist_ok=True)
        entries = []
        for path in files:
            raw = read_bounded(path, MAX_DOCUMENT_BYTES)
            (folder / "scenarios" / path.name).write_bytes(raw)
            document = json.loads(raw)
            entries.append({"file": f"scenarios/{path.name}", "scenarios": len(document["scenarios"]),
                            "steps": sum(len(s["steps"]) for s in document["scenarios"]),
                            "sha256": hashlib.sha256(raw).hexdigest()})
        needs = {s["id"]: scenario_needs(s).to_json() for s in scenarios}
        manifest = {
            "unoengine": BUNDLE_FORMAT, "bundle_version": BUNDLE_VERSION,
            "corpus_version": CORPUS_VERSION, "scenario_format_version": VERSION, "protocol": PROTOCOL_VERSION,
            "scenarios": len(scenarios), "steps": sum(len(s["steps"]) for s in scenarios),
            "rules": sorted({r for s in scenarios for r in s["rules"]}),
            "files": entries, "schema": "scenario-file.schema.json", "needs": "needs.json",
            "capabilities": sorted(CAPABILITIES),
        }
        (folder / "scenario-file.schema.json").write_text(_json(SCENARIO_SCHEMA), encoding="utf-8")
        (folder / "needs.json").write_text(_json({"capabilities": FEATURES, "scenarios": needs}), encoding="utf-8")
        (folder / "manifest.json").write_text(_json(manifest), encoding="utf-8")
        (folder / "README.md").write_text(_readme(manifest), encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"--export {str(folder)[:200]!r}: cannot write: {exc.strerror or exc}") from None
    return manifest


def _readme(manifest: dict[str, Any]) -> str:
    return f"""# unoengine conformance corpus {manifest['corpus_version']}

{manifest['scenarios']} scenarios ({manifest['steps']} steps) of UNO rule conformance, each citing
the rule IDs it checks ({len(manifest['rules'])} IDs). Scenario file format version
{manifest['scenario_format_version']}, adapter protocol version {manifest['protocol']}.

- `scenarios/*.json`: the scenario files (their SHA-256 are in `manifest.json`).
- `scenario-file.schema.json`: the JSON Schema (draft 2020-12) of a scenario file.
- `needs.json`: what each scenario needs of an engine, by capability: for its set-up, for each
  step's move (`move`), for each expectation key (`keys`), and the decisions a step implies
  for an engine without a capability (`implies`, `implied`).
- `manifest.json`: the versions, the counts, the files.

The format, the capabilities, the comparison rules and the wire protocol are documented in
unoengine's `docs/conformance.md`. To run the corpus against an engine written in any
language: `unoengine conformance --engine-cmd "node my_adapter.mjs" scenarios/`.
"""
