"""The session's summary plot: success rate by difficulty and by app, one PNG.

Drawn by the controller at the end of the session from every worker's episode records.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from pytest_mobile_agent.extras import available, require
from pytest_mobile_agent.metrics import summarize

PLOT_NAME = "summary.png"


def drawable() -> bool:
    """The plot needs matplotlib ([reports]); without it the results and reports carry none."""
    return available("matplotlib")


def success_plot(records: list[dict[str, Any]], path: Path | None = None, *, title: str = "") -> bytes:
    """Bars of SR (with the episode count on each) by difficulty and by app, as PNG bytes (also
    written to `path` when given)."""
    matplotlib = require("matplotlib", "the success-rate plot (summary.png)")
    matplotlib.use("Agg")  # no display; must precede pyplot
    import matplotlib.pyplot as plt

    summary = summarize(records)
    groups = [("by difficulty", summary["by_difficulty"]), ("by app", summary["by_app"])]
    heights = [max(1, len(g)) for _, g in groups]
    fig, axes = plt.subplots(
        2, 1, figsize=(7, 1.6 + 0.45 * sum(heights)), gridspec_kw={"height_ratios": heights}, squeeze=False
    )
    for ax, (label, by) in zip(axes[:, 0], groups):
        names = list(by)[::-1]  # top to bottom in the table's order
        rates = [by[n]["SR"] or 0.0 for n in names]
        bars = ax.barh(names, rates, color="#2979ff", height=0.6)
        for bar, name in zip(bars, names):
            agg = by[name]
            ax.text(
                min(bar.get_width(), 1.0) + 0.01,
                bar.get_y() + bar.get_height() / 2,
                f"{(agg['SR'] or 0):.0%}  ({agg['successes']}/{agg['episodes']})",
                va="center",
                fontsize=9,
            )
        ax.set_xlim(0, 1.25)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0", "25%", "50%", "75%", "100%"])
        ax.set_title(f"success rate {label}", fontsize=10, loc="left")
        ax.spines[["top", "right"]].set_visible(False)
    overall = summary["overall"]
    fig.suptitle(
        title or f"{overall['successes']}/{overall['episodes']} tasks succeeded (SR {(overall['SR'] or 0):.0%})",
        fontsize=11,
    )
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=110)
    plt.close(fig)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(out.getvalue())
    return out.getvalue()
