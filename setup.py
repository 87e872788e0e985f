"""Build the Cython kernels.

All metadata lives in pyproject.toml; this file only cythonizes. Set
``FASTMINE_DEBUG=1`` to build with bounds and initialization checks on, so an
out-of-range index (a negative one included: neither build wraps them) raises
``IndexError`` instead of corrupting memory.
"""

import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("FASTMINE_DEBUG", "") not in ("", "0")
# Release: no debug symbols (Python's own CFLAGS often carry -g), which keeps each
# module several times smaller in the wheel.
CFLAGS = [] if os.name == "nt" else ["-O0", "-g"] if DEBUG else ["-g0"]
# Any change of mode or flags forces a full rebuild (see BuildExt).
MODE = ("debug " if DEBUG else "release ") + " ".join(CFLAGS)
MODE_FILE = Path(__file__).resolve().parent / "build" / "fastmine-build-mode"
# Cythonize and compile on every core; Windows keeps one (multiprocessing there
# would re-run this script in each worker).
JOBS = 1 if os.name == "nt" else os.cpu_count() or 1


class BuildExt(build_ext):
    """build_ext that rebuilds everything when the build mode or flags change.

    ``build_ext --inplace`` only compares timestamps, so without this a release
    build right after a debug build would keep the slow bounds-checked binary.
    """

    def finalize_options(self):
        super().finalize_options()
        if not MODE_FILE.exists() or MODE_FILE.read_text() != MODE:
            self.force = True
        # Compile the modules side by side (``build_ext -j``) unless told otherwise.
        if self.parallel is None:
            self.parallel = JOBS

    def run(self):
        # Cythonized here, when the extensions are built, not when setup.py is read
        # (nor in finalize_options, which an sdist calls too): a packager's sdist
        # generates no C. The C goes to build/, never beside the sources.
        generated = cythonize(
            self.extensions,
            compiler_directives=directives,
            # A debug build must never reuse C files generated without checks.
            force=DEBUG,
            nthreads=JOBS if JOBS > 1 else 0,
            build_dir="build/cython-debug" if DEBUG else "build/cython",
        )
        # Keep the Extension objects setuptools finalized (they carry its own
        # attributes); only their sources change, from .pyx to the generated .c.
        c_sources = {ext.name: ext.sources for ext in generated}
        for ext in self.extensions:
            ext.sources = c_sources[ext.name]
        super().run()
        MODE_FILE.parent.mkdir(exist_ok=True)
        MODE_FILE.write_text(MODE)


directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    # Off in both builds: a negative index is never wrapped, so the debug build
    # reports one as out of range (IndexError) where the release build would
    # read before the array; wrapping it there would hide that bug.
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}

extensions = [
    Extension(
        # src/fastmine/solver/_prob.pyx -> fastmine.solver._prob
        ".".join(path.relative_to("src").with_suffix("").parts),
        [str(path)],
        include_dirs=[numpy.get_include()],
        # Both spellings are defined (0 or 1) so every kernel can report its build mode.
        define_macros=[
            ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
            ("FASTMINE_DEBUG", "1" if DEBUG else "0"),
            ("FASTMINE_DEBUG_BUILD", "1" if DEBUG else "0"),
        ],
        extra_compile_args=CFLAGS,
    )
    for path in sorted(Path("src/fastmine").rglob("_*.pyx"))
]

setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=extensions,   # cythonized by BuildExt
)
