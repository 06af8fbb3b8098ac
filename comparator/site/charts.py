"""The site's charts, drawn by Vega-Altair and turned into static SVG by vl-convert: no
script, no request, the same bytes for the same figures. Each chart's figures are also
given as text or a table beside it on its page."""

from __future__ import annotations

import functools
import json
from datetime import date, timedelta
from typing import Any

BAR = "#1a4d8f"  # 8.6:1 on white: the bars are not told apart by colour alone


def _svg(chart: Any, label: str) -> str:
    """The chart as SVG, named for a screen reader by `label` (its figures are in words or
    a table beside it); its own size kept as its viewBox, so a phone scales it."""
    from xml.sax.saxutils import quoteattr

    svg = _drawn(json.dumps(chart.to_dict(), sort_keys=True))
    return svg.replace('class="marks"', f'class="marks" role="img" aria-label={quoteattr(label)}',
                       1)


def _chart(rows: list[dict[str, Any]], title: str) -> Any:
    import altair as alt

    return alt.Chart(alt.Data(values=rows), title=title).properties(
        width=420).configure_axis(labelFontSize=12, titleFontSize=12, labelLimit=260
                                  ).configure_view(stroke=None)


@functools.lru_cache(maxsize=4096)
def _drawn(spec: str) -> str:
    """A spec drawn once a build: many scenarios have the same figures, so the same chart."""
    import vl_convert

    svg: str = vl_convert.vegalite_to_svg(json.loads(spec))
    return svg


def timeline(eras: list[Any], game: str) -> str:
    """The eras of a game on a line of years. The last era has no end: it is drawn to a
    year after the newest date any era gives, so that the picture never depends on the
    day it was drawn."""
    import altair as alt

    newest = max(max(e.began, e.cr_date or e.began) for e in eras)
    open_end = (date.fromisoformat(newest) + timedelta(days=365)).isoformat()
    rows = [{"era": f"{e.id}", "began": e.began, "ended": e.ended or open_end,
             "name": e.name} for e in eras]
    span = int(open_end[:4]) - int(min(e.began for e in eras)[:4])
    chart = _chart(rows, f"The eras of {game}").mark_bar(color=BAR, height=16).encode(
        x=alt.X("began:T", title="in force from", axis=alt.Axis(
            format="%Y", tickCount={"interval": "year", "step": 2 if span > 12 else 1})),
        x2="ended:T",
        y=alt.Y("era:N", sort=None, title=None),
        tooltip=["name:N", "began:T", "ended:T"]).properties(height=32 * len(rows))
    return _svg(chart, f"A timeline of the eras of {game}: " + "; ".join(
        f"{r['era']} from {r['began']}" for r in rows))


def explored(rows: list[dict[str, Any]]) -> str:
    """Distinct outcomes each era's players can reach."""
    import altair as alt

    chart = _chart(rows, "Outcomes the players can reach").mark_bar(color=BAR).encode(
        x=alt.X("outcomes:Q", title="distinct outcomes", axis=alt.Axis(tickMinStep=1)),
        y=alt.Y("era:N", sort=None, title=None)).properties(height=26 * len(rows))
    return _svg(chart, "Distinct outcomes the players can reach: " + "; ".join(
        f"{r['era']} {r['outcomes']}" for r in rows))


def rates(rows: list[dict[str, Any]], field: str, title: str) -> str:
    """Divergence rates (0 to 1) by `field`."""
    import altair as alt

    chart = _chart(rows, title).mark_bar(color=BAR).encode(
        x=alt.X("rate:Q", title="share that diverges", axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=[0, 1])),
        y=alt.Y(f"{field}:N", sort=None, title=None)).properties(
        height=max(60, 20 * len(rows)))
    return _svg(chart, f"{title}: " + "; ".join(f"{r[field]} {r['rate']:.0%}" for r in rows))
