"""The rule-conformance corpus: scenario files, the runner, and the adapter any engine can implement.

A scenario sets up an exact situation under a profile, applies moves written in the move
notation, and states what must follow each one: accepted or rejected (with the rule ID), and
any of the observable facts (hands, turn, colour, direction, pending draw, events, scores,
legal moves). The format is plain JSON, documented in docs/conformance.md, so another engine
can run the same corpus through a small adapter (:class:`Adapter`, in Python, or a program in
any language speaking the wire protocol, :class:`WireAdapter`). An adapter declares its
capabilities, and the runner checks only what it claims (protocol v2).

The parts: ``scenarios`` (reading and checking files), ``capabilities`` (the names),
``adapter`` (the protocol and this engine's adapter), ``needs`` (what each step needs),
``compare`` (expectations against reports), ``runner`` (isolated runs, the report),
``untested`` (what a run left untested, per rule ID of the claimed profiles), ``wire`` (the
JSON-lines protocol and its client), ``schema`` and ``export`` (the standalone bundle).
"""

from .adapter import (
    PROTOCOL_VERSION,
    Adapter,
    AdapterFailure,
    AdapterLoadError,
    EngineAdapter,
    Rejected,
    Unsupported,
    event_to_dict,
    load_adapter,
)
from .capabilities import ALL, CAPABILITIES, EVENT_TYPES, FEATURES, CapabilityError, parse_capabilities, parse_profiles
from .compare import normal_move
from .export import ExportError, export_bundle
from .needs import ScenarioNeeds, StepNeeds, scenario_needs
from .runner import STATUSES, Outcome, Report, run, run_scenario
from .scenarios import CORPUS_VERSION, FORMAT, OBSERVED, VERSION, ScenarioFileError, load_scenarios, shipped_corpus
from .schema import SCENARIO_SCHEMA, SchemaError, validate
from .untested import RuleRun
from .wire import RemoteError, WireAdapter, WireError

__all__ = [
    "ALL",
    "CAPABILITIES",
    "CORPUS_VERSION",
    "EVENT_TYPES",
    "FEATURES",
    "FORMAT",
    "OBSERVED",
    "PROTOCOL_VERSION",
    "SCENARIO_SCHEMA",
    "STATUSES",
    "VERSION",
    "Adapter",
    "AdapterFailure",
    "AdapterLoadError",
    "CapabilityError",
    "EngineAdapter",
    "ExportError",
    "Outcome",
    "Rejected",
    "RemoteError",
    "Report",
    "RuleRun",
    "ScenarioFileError",
    "ScenarioNeeds",
    "SchemaError",
    "StepNeeds",
    "Unsupported",
    "WireAdapter",
    "WireError",
    "event_to_dict",
    "export_bundle",
    "load_adapter",
    "load_scenarios",
    "normal_move",
    "parse_capabilities",
    "parse_profiles",
    "run",
    "run_scenario",
    "scenario_needs",
    "shipped_corpus",
    "validate",
]
