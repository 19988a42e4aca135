"""Printing uses ReportLab's public API only, and changes nothing process-wide.

The source of every printing module is read with `ast`: no attribute, imported name or
attribute-by-name whose name starts with "_" may be reached on anything but our own
objects. A private of ReportLab's changes between its releases without a word; the
pinned range in pyproject.toml is only as safe as this test.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

PRINTING = Path(settings.BASE_DIR) / "printing"
OUR_PACKAGES = ("printing", "cms", "player")

# Names that start with "_" yet are another library's documented API.
DOCUMENTED = {
    "_meta": "Django's model Options API (docs: Model _meta API)",
}
# Python's own dunders (`object.__setattr__`, `super().__init__`): not a library's privates.
# `__dict__` is not among them: it reaches every private at once.
PYTHON_DUNDERS = frozenset(dir(object)) | {"__name__", "__qualname__", "__module__"}
# ReportLab's font-subset and document bookkeeping has names without "_": internals all
# the same (a font's per-document subset state, the document's font and object tables).
INTERNALS = frozenset({"assignments", "subsets", "nextCode", "fontMapping", "delayedFonts",
                       "idToObject"})
BY_NAME = {"getattr", "setattr", "delattr", "hasattr", "attrgetter", "__getattribute__",
           "__setattr__", "__delattr__"}


def is_private(name: str) -> bool:
    return name.startswith("_") and name not in PYTHON_DUNDERS and name not in DOCUMENTED


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    what: str

    def __str__(self):
        return f"{self.path}:{self.line}: {self.what}"


def modules() -> list[Path]:
    return sorted(p for p in PRINTING.rglob("*.py") if "__pycache__" not in p.parts)


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PRINTING.parent).with_suffix("").parts).removesuffix(
        ".__init__")


def reportlab_classes(name: str) -> set[str]:
    """Return the names of the module's classes that inherit from a ReportLab class.

    In those, `self._x` may be ReportLab's own private: it counts as one.
    """
    module = importlib.import_module(name)
    found = set()
    for attr, value in vars(module).items():
        if inspect.isclass(value) and value.__module__ == name and any(
                base.__module__.split(".")[0] == "reportlab" for base in value.__mro__):
            found.add(attr)
    return found


def is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a name inside a module, not a module of a package
        return False


def own_module_names(tree: ast.Module, package: str) -> set[str]:
    """Return the names the module binds to our own modules (`from . import text as typo`)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) \
                if node.level else (node.module or "")
            if base.split(".")[0] not in OUR_PACKAGES:
                continue
            for alias in node.names:
                if is_module(f"{base}.{alias.name}"):
                    names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OUR_PACKAGES and alias.asname:
                    names.add(alias.asname)
    return names


class PrivateAccess(ast.NodeVisitor):
    """Collect every reach for a name starting with "_" that is not our own."""

    def __init__(self, path: str, package: str, tree: ast.Module, subclasses: set[str]):
        self.path = path
        self.package = package
        self.own_modules = own_module_names(tree, package)
        self.subclasses = subclasses
        self.findings: list[Finding] = []
        self.classes: list[str] = []  # the class bodies we are in, innermost last
        self.owners: list[set[str]] = []  # per function: the names bound to our instance
        self.class_body: set[ast.AST] = set()  # what is defined right in a class body

    def flag(self, node, what: str) -> None:
        self.findings.append(Finding(self.path, node.lineno, what))

    def visit_ClassDef(self, node):
        self.classes.append(node.name)
        saved, self.owners = self.owners, []  # a class body does not see its method's self
        self.generic_visit(node)
        self.owners = saved
        self.classes.pop()

    def visit_FunctionDef(self, node):
        outer = self.owners[-1] if self.owners else set()
        positional = [*node.args.posonlyargs, *node.args.args]
        every = [*positional, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]
        # A parameter of the same name shadows the instance of an enclosing method.
        owners = outer - {arg.arg for arg in every if arg is not None}
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod"
                     for d in node.decorator_list)
        if (node in self.class_body and positional and not static
                and self.classes[-1] not in self.subclasses):
            owners.add(positional[0].arg)  # self, or cls in a class method
        # Rebound inside the function, the name is no longer our instance.
        owners -= {inner.id for inner in ast.walk(node)
                   if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store)}
        self.owners.append(owners)
        self.generic_visit(node)
        self.owners.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        owners = set(self.owners[-1]) if self.owners else set()
        owners -= {a.arg for a in node.args.args}
        self.owners.append(owners)
        self.generic_visit(node)
        self.owners.pop()

    def visit_Attribute(self, node):
        if is_private(node.attr):
            value = node.value
            ours = isinstance(value, ast.Name) and (
                (self.owners and value.id in self.owners[-1]) or value.id in self.own_modules)
            if not ours:
                self.flag(node, f"{ast.unparse(node)}")
        elif node.attr in INTERNALS:
            self.flag(node, f"{ast.unparse(node)}")
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else "")
        if name in BY_NAME:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                        and is_private(arg.value):
                    self.flag(node, f"{ast.unparse(node)}")
        if name == "vars" and node.args:
            self.flag(node, f"{ast.unparse(node)}")
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        module = node.module or ""
        if module.split(".")[0] == "reportlab":
            if any(part.startswith("_") for part in module.split(".")):
                self.flag(node, f"from {module} import …")
            for alias in node.names:
                if is_private(alias.name):
                    self.flag(node, f"from {module} import {alias.name}")
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            if alias.name.split(".")[0] == "reportlab" and any(
                    part.startswith("_") for part in alias.name.split(".")):
                self.flag(node, f"import {alias.name}")
        self.generic_visit(node)

    def scan(self, tree: ast.Module) -> list[Finding]:
        self.class_body = {child for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                           for child in node.body}
        self.visit(tree)
        return self.findings


def private_access(source: str, *, path: str = "<test>", package: str = "printing",
                   subclasses: frozenset[str] = frozenset()) -> list[Finding]:
    tree = ast.parse(source)
    return PrivateAccess(path, package, tree, set(subclasses)).scan(tree)


def test_printing_reaches_no_private_of_reportlab():
    findings = []
    for path in modules():
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        findings += private_access(path.read_text(), path=str(path.relative_to(PRINTING.parent)),
                                   package=package, subclasses=frozenset(reportlab_classes(name)))
    assert findings == [], "\n".join(map(str, findings))


def test_every_printing_module_is_scanned():
    names = {module_name(path) for path in modules()}
    assert {"printing.draw", "printing.text", "printing.render",
            "printing.products.millionnaire"} <= names


# The scanner itself: what it must catch, and what is ours.

CAUGHT = {
    "a private attribute": "def f(text):\n    text._code.append('Q')\n",
    "a private of a chain": "def f(pen):\n    pen.canvas._doc\n",
    "a private set": "def f(text):\n    text._fillColorObj = 1\n",
    "a private by name": "def f(text):\n    getattr(text, '_fontname')\n",
    "a private set by name": "def f(text):\n    setattr(text, '_curSubset', 0)\n",
    "an object's dictionary": "def f(text):\n    text.__dict__['_code']\n",
    "vars of an object": "def f(text):\n    vars(text)['_code']\n",
    "a private name imported": "from reportlab.pdfgen.canvas import _PDFColorSetter\n",
    "a private module imported": "from reportlab.pdfbase._fontdata import standardFonts\n",
    "self rebound": "class A:\n    def f(self, c):\n        self = c\n        self._code\n",
    "self outside a method": "def f(self):\n    self._code\n",
    "a parameter shadowing self": "class A:\n    def f(self):\n        def g(self):\n"
                                  "            self._code\n",
    "our own pen's private": "def f(pen):\n    pen._canvas\n",
    "a font's subset state": "def f(font, doc):\n    return font.state[doc].assignments\n",
}


@pytest.mark.parametrize("source", CAUGHT.values(), ids=CAUGHT.keys())
def test_the_scanner_catches(source):
    assert private_access(source)


def test_the_scanner_catches_self_in_a_subclass_of_a_reportlab_class():
    source = "class Font(TTFont):\n    def f(self):\n        return self._asciiReadable\n"
    assert private_access(source, subclasses=frozenset({"Font"}))
    assert private_access(source) == []


def test_the_scanner_finds_reportlab_subclasses():
    name = "printing._public_api_probe"
    module = type(sys)(name)
    exec("from reportlab.pdfbase.ttfonts import TTFont\nclass Font(TTFont):\n    pass\n"
         "class Mine:\n    pass\n", module.__dict__)
    sys.modules[name] = module
    try:
        assert reportlab_classes(name) == {"Font"}
    finally:
        del sys.modules[name]


OURS = {
    "our own state": "class A:\n    def f(self):\n        self._text = None\n"
                     "        return self._text\n",
    "a class method": "class A:\n    @classmethod\n    def f(cls):\n        return cls._reused\n",
    "a closure in a method": "class A:\n    def f(self):\n        return lambda: self._text\n",
    "our own module": "from . import text as typo\ndef f():\n    return typo._drawable\n",
    "Python's dunders": "def f(o):\n    object.__setattr__(o, 'a', 1)\n    return o.__class__\n",
    "Django's _meta": "def f(card):\n    return card._meta.model_name\n",
}


@pytest.mark.parametrize("source", OURS.values(), ids=OURS.keys())
def test_the_scanner_lets_our_own_be(source):
    assert private_access(source) == []


# Nothing process-wide.

PROBE = textwrap.dedent("""
    import gc, io, json
    from reportlab import rl_config
    def settings():
        return {name: repr(getattr(rl_config, name)) for name in rl_config.__all__}
    before = settings()
    import django
    django.setup()
    from printing.render import render
    imported = settings()
    frozen = []
    render("millionnaire", ("calibrage",), out=io.BytesIO(),
           progress=lambda done, total: frozen.append(gc.get_freeze_count()))
    print(json.dumps({"import": sorted(k for k in before if before[k] != imported[k]),
                      "render": sorted(k for k in before if before[k] != settings()[k]),
                      "frozen": frozen, "after": gc.get_freeze_count()}))
""")


def test_printing_changes_no_reportlab_setting_and_freezes_no_object():
    import json

    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                            check=True, cwd=settings.BASE_DIR,
                            env={**os.environ, "DJANGO_SETTINGS_MODULE": "cms.settings"})
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["import"] == [] and seen["render"] == []
    assert seen["frozen"] and set(seen["frozen"]) == {0}
    assert seen["after"] == 0
