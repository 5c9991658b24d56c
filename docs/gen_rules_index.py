"""Write docs/rules.md: for each rule ID of the rule catalogue, where it lives in the code, its
profile options and the tests that cite it.

    python docs/gen_rules_index.py [--rules docs/rules-catalogue.md] [--check]

The index is generated from the sources so it cannot drift: the code column lists the
functions whose body cites the ID, the tests column the test functions that cite it, and the
mutants line the mutants of src/unoengine/testing/mutants/ that break it (by their names).
``--check`` exits 1 when docs/rules.md is out of date (run by the test suite), and also when
the catalogue is no longer the team's ``../shared/RULES.md`` (``--team-rules``), where that
file is beside the checkout: the project keeps a copy so that a clone runs every test.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "docs" / "rules-catalogue.md"
"""The rule catalogue the project checks against: a copy of the team's RULES.md."""
TEAM_CATALOGUE = ROOT.parent / "shared" / "RULES.md"
"""The team's catalogue, beside a team checkout (absent in a clone)."""
RULE_LINE = re.compile(r"^\s*- ([A-Z0-9]+-\d+) (.*)$", re.M)

# Profile keys (section.key in the TOML) that decide how a rule plays out.
OPTIONS: dict[str, str] = {
    "DECK-1": "`[deck.per_color]`, `[deck.wild]`",
    "DECK-2": "`[deck.wild] wild_shuffle_hands`, `wild_customizable`",
    "DECK-3": "`[deck.wild] wild_swap_hands`, `wild_customizable`",
    "DECK-4": "`[deck.wild] blank`, `play.blank_cards`",
    "DECK-5": "`[deck.per_color]`, `[deck.wild]`, `[deck.cards]`",
    "SETUP-1": "`setup.hand_size`, `setup.min_players`, `setup.max_players`",
    "SETUP-9": "`setup.first_card_wild_draw_four`",
    "SETUP-11": "`setup.next_dealer`",
    "PLAY-5": "`play.decline_to_play`",
    "ACT-2": "`play.two_player_reverse`",
    "ACT-8": "`play.custom_effect`",
    "WD4-1": "`wild_draw_four.mode`",
    "WD4-2": "`wild_draw_four.mode`",
    "WD4-3": "`wild_draw_four.mode`",
    "WD4-6": "`wild_draw_four.mode`",
    "UNO-2": "`uno.penalty`",
    "SCORE-1": "`[scoring.points]`",
    "SCORE-2": "`scoring.mode`, `scoring.target`",
    "SCORE-3": "`scoring.mode`, `scoring.target`",
    "SCORE-4": "`scoring.mode`, `scoring.target`",
    "HOUSE-1": "`play.stacking` (overlays `stacking`, `stacking-cross`, `stacking-no-mercy`)",
    "HOUSE-2": "`play.jump_in` (overlay `jump-in`)",
    "HOUSE-3": "`play.seven_zero` (overlay `seven-zero`)",
    "HOUSE-4": "`play.draw_until_playable` (overlay `draw-to-match`)",
    "HOUSE-5": "`play.decline_to_play` (overlay `forced-play`)",
    "HOUSE-6": "`play.two_player_reverse`",
    "HOUSE-7": "`setup.first_card_wild_draw_four`",
    "HOUSE-8": "`uno.penalty`, `wild_draw_four.mode`, `scoring.mode`",
}


def _segment(lines: list[bytes], node: ast.AST) -> str:
    """``ast.get_source_segment`` from the file's lines split once (it splits the whole file
    again for every node, which made this script take 13 s)."""
    first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1  # type: ignore[attr-defined]
    start, end = node.col_offset, node.end_col_offset  # type: ignore[attr-defined]
    if first == last:
        return lines[first][start:end].decode("utf-8")
    return b"".join([lines[first][start:], *lines[first + 1:last], lines[last][:end]]).decode("utf-8")


def _functions_citing(folder: Path, rule_ids: list[str], tests: bool) -> dict[str, list[str]]:
    """rule ID -> ["file.py:function", ...] for functions whose source cites it."""
    found: dict[str, list[str]] = {r: [] for r in rule_ids}
    longest_first = sorted(rule_ids, key=len, reverse=True)
    cited = re.compile(r"\b(" + "|".join(re.escape(r) for r in longest_first) + r")\b")
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = [line.encode("utf-8") for line in text.splitlines(keepends=True)]
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            if tests and not (node.name.startswith("test") or node.name.startswith("Test")):
                continue
            if not tests and isinstance(node, ast.ClassDef):
                continue
            segment = _segment(lines, node)
            name = node.name
            hits = {*cited.findall(segment), *cited.findall(name.replace("_", "-").upper())}
            for r in hits:
                entry = f"{rel}:{name}"
                if entry not in found[r]:
                    found[r].append(entry)
    return found


MUTANTS_DIR = ROOT / "src" / "unoengine" / "testing" / "mutants"


def _mutants_breaking(rule_ids: list[str]) -> dict[str, list[str]]:
    """rule ID -> the names of the mutants that break it (the ``@mutant(name, *rules)`` decorators)."""
    found: dict[str, list[str]] = {r: [] for r in rule_ids}
    for path in sorted(MUTANTS_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and isinstance(deco.func, ast.Name) and deco.func.id == "mutant":
                    name, *rules = [a.value for a in deco.args if isinstance(a, ast.Constant)]
                    for r in rules:
                        if r in found:
                            found[r].append(name)
    return found


def render(rules_text: str) -> str:
    rules = RULE_LINE.findall(rules_text)
    ids = [r for r, _ in rules]
    code = _functions_citing(ROOT / "src" / "unoengine", ids, tests=False)
    mutants_dir = MUTANTS_DIR.relative_to(ROOT).as_posix() + "/"
    code = {r: [c for c in where if not c.startswith(mutants_dir)] for r, where in code.items()}
    mutants = _mutants_breaking(ids)
    tests = _functions_citing(ROOT / "tests", ids, tests=True)
    out = [
        "# Rule index",
        "",
        "Every rule of the catalogue ([rules-catalogue.md](rules-catalogue.md)), where it lives in the",
        "code, the profile options that change it, the tests that cite it, and the mutants that break it",
        "(conformance.md, [Mutation score](conformance.md#mutation-score)). Generated by",
        "`python docs/gen_rules_index.py`; `tests/test_docs.py` fails when this file is out of date.",
        "Rulings: [rulings.md](rulings.md).",
        "",
    ]
    section = ""
    for rule_id, summary in rules:
        prefix = rule_id.split("-")[0]
        if prefix != section:
            section = prefix
            out += [f"## {section}", ""]
        short = summary if len(summary) <= 160 else summary[:157].rstrip() + "..."
        out.append(f"### {rule_id}")
        out.append("")
        out.append(short)
        out.append("")
        where = ", ".join(f"`{c}`" for c in code[rule_id]) or "(no function cites it: see the profile data)"
        out.append(f"- Code: {where}")
        if rule_id in OPTIONS:
            out.append(f"- Profile: {OPTIONS[rule_id]}")
        if mutants[rule_id]:
            out.append(f"- Mutants that break it: {', '.join(f'`{m}`' for m in mutants[rule_id])}")
        test_list = tests[rule_id]
        if test_list:
            shown = ", ".join(f"`{t}`" for t in test_list[:8])
            more = f" and {len(test_list) - 8} more" if len(test_list) > 8 else ""
            out.append(f"- Tests ({len(test_list)}): {shown}{more}")
        else:
            out.append("- Tests: none yet")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def catalogue_drift(rules: Path, team: Path) -> str | None:
    """Why ``rules`` is not the team's catalogue ``team`` (their first differing line), or None
    when they are the same or ``team`` is not there (a clone)."""
    if not team.is_file():
        return None
    ours, theirs = rules.read_text(encoding="utf-8"), team.read_text(encoding="utf-8")
    if ours == theirs:
        return None
    mine, other = ours.splitlines(), theirs.splitlines()
    line = next((i for i, (a, b) in enumerate(zip(mine, other, strict=False)) if a != b), min(len(mine), len(other)))
    return (f"{rules} differs from the team's catalogue {team} from line {line + 1}: copy it "
            f"(cp {team} {rules}), then run python docs/gen_rules_index.py")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=str(CATALOGUE), help="the rule catalogue (default: %(default)s)")
    parser.add_argument("--team-rules", default=str(TEAM_CATALOGUE),
                        help="with --check, the team's catalogue that --rules must equal when it exists")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    drift = catalogue_drift(Path(args.rules), Path(args.team_rules)) if args.check else None
    if drift:
        print(drift, file=sys.stderr)
        return 1
    text = render(Path(args.rules).read_text(encoding="utf-8"))
    target = ROOT / "docs" / "rules.md"
    if args.check:
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            print("docs/rules.md is out of date: run python docs/gen_rules_index.py", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
