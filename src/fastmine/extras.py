"""How to install one of fastmine's extras, as this copy of fastmine was installed.

fastmine is installed from its checkout, not from a package index: a hint that says
``pip install 'fastmine[env]'`` sends a user to an index that does not have it.  pip
records where an installed distribution came from (``direct_url.json``, PEP 610); a
copy installed from a folder gets that folder in its hint.
"""

from __future__ import annotations

import json
from urllib.parse import unquote, urlparse

__all__ = ["install_hint"]


def _source_folder() -> str | None:
    """The folder this fastmine was installed from, or None (an index, a wheel file,
    a source tree run as it is)."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        text = distribution("fastmine").read_text("direct_url.json")
    except (PackageNotFoundError, OSError):
        return None
    try:
        info = json.loads(text or "")
    except ValueError:
        return None
    url = info.get("url", "") if isinstance(info, dict) else ""
    if "dir_info" not in info or not url.startswith("file://"):
        return None
    return unquote(urlparse(url).path) or None


def install_hint(extra: str) -> str:
    """The command that installs the ``extra`` of this copy of fastmine, quoted for
    any shell (zsh reads an unquoted ``[env]`` as a pattern).

    Parameters
    ----------
    extra : str
        The extra's name: ``"app"``, ``"env"``, ``"plot"``, ``"dist"``, ``"bench"``...

    Returns
    -------
    str
        ``pip install '/path/to/checkout[env]'`` for a copy installed from a
        checkout, else ``pip install '.[env]'`` to run in fastmine's checkout.

    Examples
    --------
    >>> install_hint("env").startswith("pip install '")
    True
    >>> install_hint("env").endswith("[env]'") or "[env]'" in install_hint("env")
    True
    """
    folder = _source_folder()
    if folder:
        return f"pip install '{folder}[{extra}]'"
    return f"pip install '.[{extra}]' (in fastmine's checkout)"
