"""How the code says « translate this »: one meaning of `_` per kind of module, and no text
translated once at import (it would stay in the language of whoever imported it first).

- Declarations evaluated at import (models, apps, forms, settings, the game registry
  `cms/games/`) bind `_` to `gettext_lazy`: their labels are translated when shown.
- Every other module binds `_` to `gettext`, called when a page, a file or a message is
  made; a label it declares at module level uses `gettext_lazy` by that name.
- Nothing at module or class level calls `gettext` (or `ngettext`, `pgettext`…), or applies
  `%` to a lazy text, which would translate it there and then.
"""

import ast
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
EAGER = {"gettext", "ngettext", "pgettext", "npgettext"}
LAZY = {"gettext_lazy", "ngettext_lazy", "pgettext_lazy", "npgettext_lazy"}
DECLARATIVE_NAMES = {"models.py", "apps.py", "forms.py", "settings.py"}


def modules():
    for package in ("cms", "printing", "player"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def declarative(path: Path) -> bool:
    return path.name in DECLARATIVE_NAMES or path.parent == ROOT / "cms" / "games"


def translation_names(tree) -> dict[str, str]:
    """Local name -> django.utils.translation function it is bound to."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            for alias in node.names:
                names[alias.asname or alias.name] = alias.name
    return names


def import_time_nodes(body):
    """Every node evaluated when the module is imported: not inside a function's body."""
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for default in statement.args.defaults + statement.args.kw_defaults:
                if default is not None:
                    yield from ast.walk(default)
            for decorator in statement.decorator_list:
                yield from ast.walk(decorator)
            continue
        if isinstance(statement, ast.ClassDef):
            for part in statement.bases + statement.decorator_list:
                yield from ast.walk(part)
            yield from import_time_nodes(statement.body)
            continue
        yield from _outside_functions(statement)


def _outside_functions(node):
    yield node
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Lambda):
            continue
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from import_time_nodes([child])
            continue
        yield from _outside_functions(child)


def called(node, names: dict[str, str], kinds: set[str]) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and names.get(node.func.id) in kinds)


@pytest.mark.parametrize("path", list(modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_underscore_means_what_the_kind_of_module_says(path):
    names = translation_names(ast.parse(path.read_text(encoding="utf-8")))
    if "_" not in names:
        return
    expected = "gettext_lazy" if declarative(path) else "gettext"
    assert names["_"] == expected, f"{path.name}: _ is {names['_']}, should be {expected}"


@pytest.mark.parametrize("path", list(modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_is_translated_at_import(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = translation_names(tree)
    frozen = []
    for node in import_time_nodes(tree.body):
        if called(node, names, EAGER):
            frozen.append(f"line {node.lineno}: {ast.unparse(node)[:60]}")
        if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
                and called(node.left, names, LAZY)):
            frozen.append(f"line {node.lineno}: % on a lazy text, {ast.unparse(node)[:60]}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "str" and node.args
                and called(node.args[0], names, LAZY)):
            frozen.append(f"line {node.lineno}: str() of a lazy text")
    assert frozen == []


def test_the_scan_sees_a_label_frozen_at_import(tmp_path):
    # The scanner itself: it must catch the mistakes it is there for.
    source = ("from django.utils.translation import gettext as _, gettext_lazy\n"
              "A = _('a')\n"
              "B = gettext_lazy('b %(x)s') % {'x': 1}\n"
              "class C:\n    label = _('c')\n"
              "def fine():\n    return _('d')\n"
              "LAZY = gettext_lazy('e')\n")
    tree = ast.parse(source)
    names = translation_names(tree)
    lines = sorted({node.lineno for node in import_time_nodes(tree.body)
                    if called(node, names, EAGER)
                    or (isinstance(node, ast.BinOp) and called(node.left, names, LAZY))})
    assert lines == [2, 3, 5]
