"""PNG plots of one run (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

from . import analysis as an

COLOURS = {"fastmine": "#d62728", "pure_python": "#7f7f7f", "numpy": "#1f77b4",
           "ms_toollib": "#2ca02c"}
MARKERS = {"fastmine": "o", "pure_python": "s", "numpy": "^", "ms_toollib": "D"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _series(rows: list[dict], kernel: str, peer: str) -> tuple[list[int], list[float]]:
    pts = sorted((r["cells"], r["us_per_call"]) for r in rows
                 if r["kernel"] == kernel and r["peer"] == peer and r["status"] == "ok")
    return [p[0] for p in pts], [p[1] for p in pts]


def scaling(doc: dict, path: Path, dpi: int = 110, width: float = 16.0,
            small: bool = False) -> Path:
    """Log-log time per call against cells, one panel per kernel, fitted slopes in the legend."""
    plt = _plt()
    rows = doc["rows"]
    kernels = list(doc["kernels"])
    sl = an.slopes(rows)
    ncol = min(4, len(kernels))
    nrow = -(-len(kernels) // ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(width, width / ncol * 0.95 * nrow + 0.6),
                             squeeze=False, sharex=True)
    for ax, k in zip(axes.flat, kernels, strict=False):
        for p, meta in doc["peers"].items():
            x, y = _series(rows, k, p)
            if not x:
                continue
            label = meta["label"]
            f = sl.get(k, {}).get(p)
            if f is not None:
                label += f" (slope {f['slope']:.2f})"
            failed = [f"{r['status']} at {r['size']}" for r in rows
                      if r["kernel"] == k and r["peer"] == p
                      and r["status"] in ("crash", "timeout", "error")]
            if failed:
                label += "; " + ", ".join(failed)
            ax.loglog(x, y, marker=MARKERS.get(p, "o"), color=COLOURS.get(p), label=label,
                      markersize=4, linewidth=1.4)
        ax.set_title(doc["kernels"][k]["title"], fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left")
    for ax in axes[-1]:
        ax.set_xlabel("cells (rows x cols)")
    for ax in axes[:, 0]:
        ax.set_ylabel("µs per call")
    for ax in list(axes.flat)[len(kernels):]:
        ax.set_visible(False)
    fig.suptitle(f"fastmine and its peers: time per call against board size ({doc['name']})",
                 fontsize=11)
    fig.tight_layout()
    _save(fig, path, dpi, shrink=small)
    plt.close(fig)
    return path


def _save(fig, path: Path, dpi: int, shrink: bool) -> None:
    """Draw ``fig`` as PNG and write it through fastmine's output guard (atomically,
    never over one of fastmine's files, whatever link leads there)."""
    import io

    from fastmine.files.outputs import write_output

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    data = _shrunk(buf.getvalue()) if shrink else buf.getvalue()
    write_output(path, data, "--out/--name")


def _shrunk(png: bytes) -> bytes:
    """The PNG with a 64-colour palette (a third of the bytes, same look)."""
    try:
        from PIL import Image
    except ImportError:
        return png
    import io

    with Image.open(io.BytesIO(png)) as im:
        small = im.convert("RGB").quantize(colors=64)
    out = io.BytesIO()
    small.save(out, format="png", optimize=True)
    return out.getvalue()


def speedup(doc: dict, path: Path, dpi: int = 110) -> Path | None:
    """fastmine's speed-up (peer time / fastmine time) against cells, one panel per peer."""
    plt = _plt()
    rat = an.ratios(doc["rows"])
    peers = [p for p in doc["peers"] if p != "fastmine" and any(r["peer"] == p for r in rat)]
    if not peers:
        return None
    fig, axes = plt.subplots(1, len(peers), figsize=(4.4 * len(peers), 3.6), squeeze=False)
    for ax, p in zip(axes[0], peers, strict=False):
        for k in doc["kernels"]:
            pts = sorted((r["cells"], r["ratio"]) for r in rat if r["peer"] == p and r["kernel"] == k)
            if pts:
                ax.loglog([a for a, _ in pts], [b for _, b in pts], marker="o", markersize=3,
                          label=doc["kernels"][k]["title"], linewidth=1.2)
        ax.axhline(1, color="black", linewidth=0.8)
        if p == "pure_python":
            ax.axhline(an.PURE_TARGET, color="black", linewidth=0.8, linestyle="--")
        ax.set_title(f"vs {doc['peers'][p]['label']}", fontsize=10)
        ax.set_xlabel("cells")
        ax.grid(True, alpha=0.3)
    axes[0][0].set_ylabel("times faster (peer / fastmine)")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    _save(fig, path, dpi, shrink=True)
    plt.close(fig)
    return path


def write_all(doc: dict, out: Path, name: str) -> dict[str, str]:
    """Write every plot next to the report; returns plot name -> file name."""
    made = {}
    p = scaling(doc, out / f"{name}-scaling.png", small=True)
    made["scaling"] = p.name
    p = speedup(doc, out / f"{name}-speedup.png")
    if p is not None:
        made["speedup"] = p.name
    return made
