"""The layers depend one way: printing and the player read cms; cms reads neither.

One exception, spelt out: cms.rules composes every content rule in one list, printing's
fit rule included, and imports it when the rule runs (ReportLab loads only then).
Imports are read with `ast`, those inside functions too: a lazy import is a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ALLOWED = {("cms/rules.py", "printing.render")}


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
