"""Build the Cython kernels.

All metadata lives in pyproject.toml; this file only cythonizes. Set
``FASTMINE_DEBUG=1`` to build with bounds, wraparound and initialization checks
on, so an out-of-range index raises ``IndexError`` instead of corrupting memory.
"""

import os
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("FASTMINE_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
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
        define_macros=[
            ("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"),
            ("FASTMINE_DEBUG_BUILD", "1" if DEBUG else "0"),
        ],
        extra_compile_args=["-O0", "-g"] if DEBUG and os.name != "nt" else [],
    )
    for path in sorted(Path("src/fastmine").rglob("_*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        # A debug build must never reuse C files generated without checks.
        force=DEBUG,
        build_dir="build/cython-debug" if DEBUG else None,
    ),
)
