"""Sphinx configuration of fastmine's documentation: the docs/*.md pages and the
API reference (docs/api/), built from the installed package's docstrings.

Build (warnings are errors; the output is not committed)::

    python -m sphinx -W --keep-going -b html docs build/docs

numpydoc reads the numpy-style docstrings and validates them: a public function
without its Parameters or Returns section fails the build, and so does a public
name of a documented module that no page documents (see ``check_coverage``).
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path
from typing import Any

project = "fastmine"
author = "fastmine developers"
copyright = "fastmine developers, MIT licence"

try:
    from importlib.metadata import version as _version

    release = _version("fastmine")
except Exception:  # noqa: BLE001 - a source tree that was never installed
    release = "0+unknown"
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "numpydoc",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints", "solver-results", "screenshots"]

# The Markdown pages: GitHub-style anchors for their headings (the links between
# pages use them), and ```mermaid blocks shown as code (GitHub draws them).
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
# Blocks without a language (terminal sessions, file listings) are shown as they are.
highlight_language = "none"

# autodoc: members in source order, no private names.
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # numpydoc's Parameters and Returns say the types, once
autodoc_typehints_format = "short"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_mock_imports: list[str] = []
autodoc_inherit_docstrings = False

# numpydoc: the sections as numpy and scikit-image write them, validated.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = False
numpydoc_xref_param_type = False
numpydoc_validate = True
numpydoc_validation_checks = {
    "GL08",  # no docstring at all
    "GL06",  # a section numpydoc does not know (a typo: "Return", "Raise")
    "GL07",  # sections out of the standard order
    "PR01",  # a parameter of the signature is not documented
    "PR02",  # a documented parameter is not in the signature
    "PR03",  # parameters documented in another order than the signature's
    "PR10",  # "name:type" without the space before the colon
    "RT01",  # no Returns (or Yields) section where the function returns something
    "YD01",  # a generator without a Yields section
}
# Not validated: dunder methods, and (see ``_not_validated``) enumerations and
# constants.
numpydoc_validation_exclude = {r"\.__\w+__$"}

nitpicky = False
html_theme = "alabaster"
html_title = f"fastmine {release}"
html_static_path = ["_static"]
html_css_files = ["fastmine.css"]
html_theme_options = {"page_width": "1100px", "sidebar_width": "230px"}
suppress_warnings = ["myst.header"]   # a page may start below heading level 1

# ---------------------------------------------------------------- coverage

# The public modules whose __all__ the API pages must cover in full.
PUBLIC_MODULES = [
    "fastmine",
    "fastmine.solver",
    "fastmine.coach",
    "fastmine.replay",
    "fastmine.records",
    "fastmine.gamecode",
    # (fastmine.files.storage gathers these four modules' names, the same objects)
    "fastmine.files.folders",
    "fastmine.files.owned",
    "fastmine.files.writing",
    "fastmine.files.reading",
    "fastmine.files.savedgame",
    "fastmine.files.outputs",
    "fastmine.files.figures",
    "fastmine.env",
    "fastmine.videos",
]


def _public_names(modname: str) -> list[str]:
    module = importlib.import_module(modname)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items()
                 if not n.startswith("_") and (inspect.isfunction(v) or inspect.isclass(v))
                 and getattr(v, "__module__", None) == modname]
    return [n for n in names if n != "__version__"]


def check_coverage(app: Any, env: Any) -> None:
    """Warn (an error under -W) for each public name no API page documents."""
    from sphinx.util import logging

    logger = logging.getLogger("fastmine.coverage")
    documented = set(env.get_domain("py").objects)
    # A class or function exported by two public modules (fastmine.VideoFormatError
    # is also fastmine.videos.VideoFormatError) is documented once.
    documented_objects = set()
    for full in documented:
        modname, _, name = full.rpartition(".")
        value = getattr(sys.modules.get(modname), name, None)
        if inspect.isclass(value) or inspect.isroutine(value):
            documented_objects.add(id(value))
    for modname in PUBLIC_MODULES:
        try:
            names = _public_names(modname)
        except ImportError as exc:   # an optional module whose extra is missing
            logger.warning("cannot import %s to document it: %s", modname, exc)
            continue
        module = sys.modules[modname]
        for name in names:
            value = getattr(module, name, None)
            if (inspect.isclass(value) or inspect.isroutine(value)) and id(value) in documented_objects:
                continue
            if f"{modname}.{name}" not in documented:
                logger.warning("%s.%s is public (in __all__) but no API page documents it",
                               modname, name)


def _not_validated() -> set[str]:
    """The enumerations and the constants of the public modules, as patterns.

    numpydoc reads an Enum's constructor, ``(value, names, *, module, ...)``, as
    its own; a constant's docstring is its attribute docstring, which numpydoc
    does not see (``fill_data_docstring`` checks those instead).
    """
    import enum

    found = set()
    for modname in PUBLIC_MODULES:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        for name in _public_names(modname):
            value = getattr(module, name, None)
            routine_or_class = inspect.isclass(value) or inspect.isroutine(value)
            if (not routine_or_class or (inspect.isclass(value) and issubclass(value, enum.Enum))
                    or _fields_documented(value)):
                found.add(rf"^{re.escape(modname)}\.{name}$")
    return found


def _fields_documented(cls: object) -> bool:
    """True for a dataclass or named tuple whose every field is documented as an
    attribute: in its Attributes section or by a docstring of its own.

    Such a class (a result, such as :class:`fastmine.solver.Analysis`) documents
    its fields as attributes instead of in a Parameters section; a field left
    out leaves the class to numpydoc's PR01.
    """
    import dataclasses

    from sphinx.pycode import ModuleAnalyzer

    if not inspect.isclass(cls):
        return False
    if dataclasses.is_dataclass(cls):
        fields = [f.name for f in dataclasses.fields(cls)]
    elif issubclass(cls, tuple) and hasattr(cls, "_fields"):
        fields = list(cls._fields)
    else:
        return False
    from numpydoc.docscrape import NumpyDocString

    listed = set()
    for item in NumpyDocString(inspect.getdoc(cls) or "")["Attributes"]:
        listed.update(name.strip() for name in item.name.split(","))
    try:
        docs = ModuleAnalyzer.for_module(cls.__module__).find_attr_docs()
    except Exception:  # noqa: BLE001 - no source to read
        docs = {}
    return all(f in listed or (cls.__qualname__, f) in docs for f in fields)


numpydoc_validation_exclude |= _not_validated()


def _defining_module_doc(name: str, value: object) -> list[str] | None:
    """The attribute docstring of a constant re-exported by a package.

    autodoc finds a module attribute's docstring (the string after it, or a
    ``#:`` comment) only in the module documented, but ``fastmine.HIDDEN`` is
    written in ``fastmine.viewcodes``: look for it in the modules of the
    package that hold the same object under the same name.
    """
    from sphinx.pycode import ModuleAnalyzer

    short = name.rpartition(".")[2]
    top = name.partition(".")[0]
    for modname, module in sorted(sys.modules.items()):
        if not (modname == top or modname.startswith(top + ".")) or module is None:
            continue
        if getattr(module, short, _MISSING) is not value:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except Exception:  # noqa: BLE001 - a compiled module has no source to read
            continue
        if ("", short) in docs:
            return [line for line in docs[("", short)] if line is not None]
    return None


_MISSING = object()


def fill_data_docstring(app: Any, what: str, name: str, obj: object, options: Any,
                        lines: list[str]) -> None:
    """Give a re-exported constant its docstring (see ``_defining_module_doc``)."""
    if what != "data":
        return
    if not lines or lines == (type(obj).__doc__ or "").splitlines():
        found = _defining_module_doc(name, obj)
        if found:
            lines[:] = found
        else:
            from sphinx.util import logging

            logging.getLogger("fastmine.coverage").warning(
                "%s has no docstring (write one after its assignment)", name)


def _index_of_pages_here(app: Any, docname: str, source: list[str]) -> None:
    """The index without the pages this checkout does not have yet.

    The pages of features that land one by one (the environments' page comes
    with them) are listed in the index ahead of time; a listed page that is
    not there is left out instead of failing the build.
    """
    if docname != "index":
        return
    srcdir = Path(app.srcdir)
    kept = []
    for line in source[0].splitlines(keepends=True):
        name = line.strip()
        if (re.fullmatch(r"[a-z0-9\-]+", name) and not (srcdir / f"{name}.md").is_file()
                and not (srcdir / f"{name}.rst").is_file()):
            continue
        kept.append(line)
    source[0] = "".join(kept)


SUMMARY = re.compile(r"^\.\. summary-of:: (\S+)[ \t]*$", re.MULTILINE)


def _summaries(app: Any, docname: str, source: list[str]) -> None:
    """A table of a module's public names, one line each, where an API page says
    ``.. summary-of:: MODULE`` (as numpy's and scikit-learn's reference pages open):
    written from the module's ``__all__``, so a new name joins the table by itself.
    A constant's line is its attribute docstring (not its type's: an int's would
    say "int([x]) -> integer")."""
    if not docname.startswith("api/"):
        return

    def first_line(modname: str, name: str) -> str:
        value = getattr(importlib.import_module(modname), name)
        if inspect.isclass(value) or inspect.isroutine(value):
            doc = inspect.getdoc(value) or ""
        else:
            doc = "\n".join(_defining_module_doc(f"{modname}.{name}", value) or [])
        paragraph = doc.strip().split("\n\n")[0]
        return " ".join(paragraph.split()) or "\\"

    def table(match: re.Match[str]) -> str:
        modname = match.group(1)
        rows = "".join(f"   * - :py:obj:`~{modname}.{name}`\n     - {first_line(modname, name)}\n"
                       for name in _public_names(modname))
        return (".. list-table::\n   :class: autosummary\n   :widths: 30 70\n\n" + rows)

    source[0] = SUMMARY.sub(table, source[0])


def setup(app: Any) -> None:
    app.connect("source-read", _index_of_pages_here)
    app.connect("source-read", _summaries)
    from pygments.lexers.special import TextLexer

    # ```mermaid diagrams (GitHub draws them) are shown as text here.
    app.add_lexer("mermaid", TextLexer)
    # Before numpydoc reads (and validates) the docstring.
    app.connect("autodoc-process-docstring", fill_data_docstring, priority=100)
    app.connect("env-check-consistency", check_coverage)
