"""fastmine's build for python-for-android, in steps that need nothing from p4a.

The recipe (``__init__.py`` next to this file) runs these steps with the
cross-compiling environment python-for-android gives it (the NDK's clang,
the target Python's headers and library, the target NumPy's headers); the
tests run exactly the same steps with the host's compiler, then import the
result and play a game with it.  The build itself is the project's own
``setup.py build_ext``, so the device gets the kernels built with the same
Cython directives and flags as every other build.

Steps:

1. :func:`copy_sources` copies what a build reads (``setup.py``,
   ``pyproject.toml``, the licence and readme it names, ``src/``) into a
   clean folder, leaving generated C and compiled modules behind;
2. :func:`build` runs :func:`build_command` there and gathers the package
   (pure-Python modules, the app's data files and the compiled kernels) plus a ``.dist-info`` folder
   (so ``fastmine.__version__`` is right on the device) into a staging
   folder, ready to copy into the target's site-packages.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

PACKAGE = "fastmine"
PROJECT_FILES = ("setup.py", "pyproject.toml", "README.md", "LICENSE")
"""Files at the project root that ``setup.py build_ext`` reads."""

SKIP_SUFFIXES = (".c", ".so", ".pyd", ".o", ".pyc", ".pyo")
"""Generated files never copied: a build makes its own."""

PACKAGE_SUFFIXES = (".py", ".typed", ".kv", ".ttf", ".otf", ".wav", ".ogg", ".png", ".mo")
"""Files of the package shipped besides the compiled kernels (no sources, no stubs):
the modules, and the app's kv rules, fonts, sounds, images and translations."""


def project_root() -> Path:
    """The fastmine checkout this recipe lives in (``recipes/fastmine/`` -> root)."""
    return Path(__file__).resolve().parents[2]


def project_version(root: Path) -> str:
    """The ``[project] version`` of ``root/pyproject.toml``."""
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    project = text.split("[project]", 1)[1].split("\n[", 1)[0]
    m = re.search(r'^version\s*=\s*"([^"]+)"', project, re.MULTILINE)
    if m is None:
        raise ValueError(f"no [project] version in {root / 'pyproject.toml'}")
    return m.group(1)


def extension_modules(root: Path) -> list[str]:
    """Dotted names of the Cython kernels, found by the rule ``setup.py`` uses."""
    src = root / "src"
    return [".".join(p.relative_to(src).with_suffix("").parts)
            for p in sorted((src / PACKAGE).rglob("_*.pyx"))]


def _skipped(path: Path, skip_pyx: set[Path]) -> bool:
    return (path.suffix in SKIP_SUFFIXES or path in skip_pyx
            or any(part == "__pycache__" or part.endswith(".egg-info") for part in path.parts))


def copy_sources(root: Path, dest: Path, modules: Iterable[str] | None = None) -> Path:
    """Copy the build's inputs from ``root`` into ``dest`` (made empty first).

    ``modules`` (dotted names) keeps only those kernels' ``.pyx`` files, so
    the build compiles just them (the tests build one; the device build
    takes all).  Returns ``dest``.
    """
    root, dest = Path(root), Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in PROJECT_FILES:
        shutil.copy2(root / name, dest / name)
    skip_pyx: set[Path] = set()
    if modules is not None:
        wanted = set(modules)
        unknown = wanted - set(extension_modules(root))
        if unknown:
            raise ValueError(f"no such kernel: {', '.join(sorted(unknown))}")
        skip_pyx = {Path("src", *m.split(".")).with_suffix(".pyx")
                    for m in extension_modules(root) if m not in wanted}
    for path in sorted((root / "src").rglob("*")):
        rel = path.relative_to(root)
        if path.is_dir() or _skipped(rel, skip_pyx):
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, dest / rel)
    return dest


DEVICE_CFLAGS = "-O3 -DNDEBUG -fwrapv"
"""What a host build gets from Python's own CFLAGS; a cross build's CFLAGS replace those."""


def cross_env(env: Mapping[str, str], numpy_include: str) -> dict[str, str]:
    """python-for-android's compiler environment, made right for the kernels.

    setuptools takes ``CFLAGS`` from the environment *instead of* the build
    Python's own (``-O3 ...``), and p4a's carry no optimisation level, so
    the kernels would be built at ``-O0``: :data:`DEVICE_CFLAGS` puts it
    back.  The target NumPy's include folder comes first on the command
    line, so its headers (generated for the phone's word size) win over
    the build machine's.  ``LDSHARED`` links with the cross compiler.
    """
    out = dict(env)
    out["CFLAGS"] = f"-I{numpy_include} {out.get('CFLAGS', '')} {DEVICE_CFLAGS}".strip()
    out["LDSHARED"] = out["CC"] + " -shared"
    return out


def build_command(python: str, build_lib: Path, build_temp: Path, jobs: int) -> list[str]:
    """The one build command, run in the copied sources: ``setup.py build_ext``."""
    return [python, "setup.py", "build_ext", "--build-lib", str(build_lib),
            "--build-temp", str(build_temp), "--parallel", str(max(1, jobs))]


def build(source: Path, stage: Path, *, python: str = sys.executable,
          env: Mapping[str, str] | None = None, jobs: int | None = None) -> Path:
    """Build the kernels in ``source`` (from :func:`copy_sources`) and stage the package.

    ``env`` is the compiler's environment (``CC``, ``CFLAGS``, ``LDSHARED``,
    ``LDFLAGS``...; the current one when None).  The release build is
    forced (``FASTMINE_DEBUG=0``) whatever the caller's shell says.
    Returns ``stage/fastmine``; ``stage`` also gets the ``.dist-info``.
    """
    source, stage = Path(source).resolve(), Path(stage).resolve()
    run_env = dict(os.environ if env is None else env)
    run_env["FASTMINE_DEBUG"] = "0"
    jobs = jobs or os.cpu_count() or 1
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    cmd = build_command(python, stage, source / "build" / "temp", jobs)
    subprocess.run(cmd, cwd=source, env=run_env, check=True)
    pkg_src = source / "src" / PACKAGE
    for path in sorted(pkg_src.rglob("*")):
        if path.is_file() and path.suffix in PACKAGE_SUFFIXES and "__pycache__" not in path.parts:
            target = stage / PACKAGE / path.relative_to(pkg_src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    write_dist_info(stage, project_version(source))
    return stage / PACKAGE


def write_dist_info(stage: Path, version: str) -> Path:
    """A minimal ``fastmine-<version>.dist-info`` so importlib.metadata finds the version."""
    info = Path(stage) / f"{PACKAGE}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: {version}\n", encoding="utf-8")
    (info / "INSTALLER").write_text("python-for-android\n", encoding="utf-8")
    return info


def built_kernels(package: Path) -> list[str]:
    """Dotted names of the compiled modules found under a staged ``package`` folder."""
    package = Path(package)
    names = []
    for path in sorted(package.rglob("*")):
        if path.suffix in (".so", ".pyd"):
            rel = path.relative_to(package.parent)
            names.append(".".join((*rel.parts[:-1], path.name.split(".")[0])))
    return names


def source_digest(root: Path) -> str:
    """A hash of every build input (the recipe rebuilds only when it changes)."""
    root = Path(root)
    h = hashlib.sha256()
    files = [root / n for n in PROJECT_FILES]
    files += [p for p in sorted((root / "src").rglob("*"))
              if p.is_file() and not _skipped(p.relative_to(root), set())]
    for path in files:
        h.update(str(path.relative_to(root)).encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


if __name__ == "__main__":  # pragma: no cover - a manual run: python steps.py OUT [MODULE...]
    out = Path(sys.argv[1])
    src = copy_sources(project_root(), out / "src", sys.argv[2:] or None)
    print(build(src, out / "stage"))
