"""Every example in a public docstring sits in its Examples section.

numpydoc reads a docstring by its sections: a ``>>>`` example left at the end of
Raises (Game.reveal_cells's was) is rendered as three broken blocks of the Raises
list in the API reference, though its doctest still runs."""

from __future__ import annotations

import importlib
import inspect

import pytest

numpydoc = pytest.importorskip("numpydoc.docscrape", reason="the docs extra (numpydoc) reads the sections")

MODULES = ["fastmine", "fastmine.solver", "fastmine.coach", "fastmine.replay", "fastmine.records",
           "fastmine.gamecode", "fastmine.files.storage", "fastmine.files.savedgame",
           "fastmine.files.outputs", "fastmine.files.figures", "fastmine.videos", "fastmine.metrics"]


def public_docstrings():
    seen: set[int] = set()
    for modname in MODULES:
        module = importlib.import_module(modname)
        for name in getattr(module, "__all__", []):
            value = getattr(module, name, None)
            targets = [(f"{modname}.{name}", value)]
            if inspect.isclass(value):
                # inherited members too (Game's moves are GamePlay's), fastmine's own only
                targets += [(f"{modname}.{name}.{m}", v) for klass in value.__mro__
                            if klass.__module__.startswith("fastmine")
                            for m, v in vars(klass).items()
                            if not m.startswith("_") and (inspect.isfunction(v) or isinstance(v, property))]
            for qual, obj in targets:
                if id(obj) in seen or not (inspect.isclass(obj) or inspect.isroutine(obj)
                                           or isinstance(obj, property)):
                    continue
                seen.add(id(obj))
                doc = inspect.getdoc(obj)
                if doc and ">>>" in doc:
                    yield qual, doc


def test_every_example_is_in_an_examples_section():
    found = list(public_docstrings())
    assert len(found) > 20                      # the public API has many examples
    outside = []
    for qual, doc in found:
        parsed = numpydoc.NumpyDocString(doc)
        examples = "\n".join(parsed["Examples"])
        summary = "\n".join(parsed["Summary"] + parsed["Extended Summary"])
        lines = [line.strip() for line in doc.splitlines() if line.strip().startswith(">>>")]
        # an example in the summary (a module-style docstring) or in Examples is fine
        if any(line not in examples and line not in summary for line in lines):
            outside.append(qual)
    assert outside == []
