"""The layers depend one way (printing and the player read cms; cms reads neither), and
generic code reads the registry instead of naming a game.

Two exceptions, spelt out: cms.rules composes every content rule in one list, printing's
fit rule included, and imports it when the rule runs (ReportLab loads only then); its
coverage rule reads what a full game needs from the player's simulation the same way.
Imports are read with `ast`, those inside functions too: a lazy import is a dependency.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from django.conf import settings

from cms.games import modules_in

ALLOWED = {("cms/rules.py", "printing.render"), ("cms/rules.py", "player.coverage")}


def imports_of(layer: str) -> list[tuple[str, str]]:
    found = []
    for source in sorted((Path(settings.BASE_DIR) / layer).rglob("*.py")):
        relative = source.relative_to(settings.BASE_DIR).as_posix()
        if "/migrations/" in relative:
            continue
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.append((relative, node.module))
            elif isinstance(node, ast.Import):
                found.extend((relative, alias.name) for alias in node.names)
    return found


def reaching(layer: str, others: tuple[str, ...]) -> list[tuple[str, str]]:
    return [(path, module) for path, module in imports_of(layer)
            if module.split(".")[0] in others and (path, module) not in ALLOWED]


def test_cms_reads_neither_printing_nor_the_player():
    assert reaching("cms", ("printing", "player")) == []


def test_printing_and_the_player_do_not_read_each_other():
    assert reaching("printing", ("player",)) == []
    assert reaching("player", ("printing",)) == []


def test_the_one_exception_is_still_there_and_still_needed():
    # If cms.rules stops composing printing's rule this way, the exception goes too.
    assert set(ALLOWED) <= set(imports_of("cms"))


# --- generic code names no game ------------------------------------------------------------

GENERIC = ("cms/*.py", "cms/management/commands/*.py", "printing/*.py", "printing/layout/*.py",
           "printing/management/commands/*.py", "printing/products/__init__.py",
           "printing/products/base.py", "printing/products/style.py",
           "printing/products/calibration.py", "player/*.py", "player/engines/__init__.py",
           "player/engines/base.py")


def game_words() -> set[str]:
    """What names one game: its slug and module, its kinds' slugs, its answer formats."""
    words = set()
    for slug, module in modules_in("cms.games").items():
        spec = module.SPEC
        words |= {slug, module.__name__.rpartition(".")[2], *(k.slug for k in spec.kinds)}
        words |= {*spec.answer_formats, *(str(f.label) for f in spec.answer_formats.values())}
    return words


def strings_in(source: Path) -> list[ast.Constant]:
    """The string constants of a module, docstrings left out (they may give examples)."""
    tree = ast.parse(source.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [node for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docstrings]


def test_generic_modules_name_no_game():
    # Bounds, labels, colours and messages come from the registry: a game's slug, kind or
    # answer format written in a generic module is a sixth game's bug waiting.
    words = game_words()
    assert {"millionnaire", "coup-de-maitre", "DUO"} <= words  # the scan knows what to seek
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(words))) + r")(?![\w-])")
    found = []
    for glob in GENERIC:
        for source in sorted(Path(settings.BASE_DIR).glob(glob)):
            for node in strings_in(source):
                if match := pattern.search(node.value):
                    found.append(f"{source.name}:{node.lineno}: {match.group(0)}")
    assert found == []
