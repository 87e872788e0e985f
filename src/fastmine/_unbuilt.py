"""The error an unbuilt source tree gives on ``import fastmine``.

The engine's kernels are Cython modules compiled by the install; a checkout run as
it is (``PYTHONPATH=src``, ``python app/main.py`` without an install) has only their
sources, and Python's own words for that ("cannot import name '_kernels' from
partially initialized module 'fastmine' (most likely due to a circular import)")
send a newcomer looking for a circular import.
"""

from __future__ import annotations

from pathlib import Path

HOW_TO_BUILD = (
    "from the checkout's folder, either\n"
    "    bash scripts/bootstrap.sh         # a .venv with fastmine built and installed; then use .venv/bin/python\n"
    "    pip install .                     # into the environment in use (builds the kernels)\n"
    "or, to run the source tree itself (PYTHONPATH=src), build the kernels in place:\n"
    "    python setup.py build_ext --inplace"
)


def unbuilt_error(cause: ImportError) -> ImportError:
    """An ``ImportError`` that says the kernels are not built and what to run.

    Parameters
    ----------
    cause : ImportError
        The error importing ``fastmine._kernels`` gave.

    Returns
    -------
    ImportError
        The error to raise instead (chained to ``cause`` by the caller).
    """
    here = Path(__file__).resolve().parent
    sources = (here / "_kernels.pyx").is_file()
    if sources:
        what = (f"fastmine is being imported from its source tree ({here}), whose compiled "
                "kernels (fastmine._kernels and the other Cython modules) are not built.")
    else:
        what = (f"fastmine's compiled kernels could not be loaded from {here} ({cause}): "
                "the installation is incomplete or was built for another Python.")
    return ImportError(f"{what}\nTo build them, {HOW_TO_BUILD}", name="fastmine._kernels",
                       path=str(here))
