"""The site's charts, drawn by Vega-Altair and turned into static SVG by vl-convert: no
script, no request, the same bytes for the same figures. Each chart's figures are also
given as text or a table beside it on its page.

Each chart is drawn twice, for a wide screen and for a phone (``SIZES``), each at its own
size with its words at 13 px: a picture scaled down to a phone's width would shrink its
labels to nothing. The page shows the one that fits. A timeline labels as many years as
its width holds without two labels touching."""

from __future__ import annotations

import functools
import json
from datetime import date, timedelta
from typing import Any

from comparator.text import language
from comparator.text.language import _

BAR = "#1a4d8f"  # 8.6:1 on white: the bars are not told apart by colour alone
FONT = 13  # every label's size, in the picture's own pixels
# The width of a chart's plot, by the screen it is drawn for; a phone's leaves room for
# the labels beside it in a 358 px column (390 px less the page's margins).
SIZES = {"wide": {"plot": 440, "label_limit": 260},
         "narrow": {"plot": 190, "label_limit": 130}}
TIMELINE_PLOT = {"wide": 620, "narrow": 220}


def _svg(chart: Any, label: str) -> str:
    """The chart as SVG, named for a screen reader by `label` (its figures are in words or
    a table beside it); its own size kept as its viewBox, so a phone scales it."""
    from xml.sax.saxutils import quoteattr

    # Not validated against Vega-Lite's schema on every chart: a second a build, and the
    # charts are the same few shapes, which the tests draw.
    svg = _drawn(json.dumps(chart.to_dict(validate=False), sort_keys=True))
    return svg.replace('class="marks"', f'class="marks" role="img" aria-label={quoteattr(label)}',
                       1)


def _chart(rows: list[dict[str, Any]], title: str, width: int, label_limit: int) -> Any:
    import altair as alt

    return alt.Chart(alt.Data(values=rows), title=title).properties(
        width=width).configure_axis(labelFontSize=FONT, titleFontSize=FONT,
                                    labelLimit=label_limit
                                    ).configure_title(fontSize=FONT + 1
                                                      ).configure_view(stroke=None)


@functools.lru_cache(maxsize=4096)
def _drawn(spec: str) -> str:
    """A spec drawn once a build: many scenarios have the same figures, so the same chart."""
    import vl_convert

    svg: str = vl_convert.vegalite_to_svg(json.loads(spec))
    return svg


def _both(draw: Any) -> list[dict[str, str]]:
    """The chart `draw(fits)` makes, for each screen: [{"svg", "fits"}]."""
    return [{"svg": draw(fits), "fits": fits} for fits in ("wide", "narrow")]


def year_step(first: int, last: int, plot: int, font: int = FONT) -> int:
    """Every how many years a label fits: four digits and a space between two labels."""
    label = 4 * font * 0.62 + font
    for step in (1, 2, 5, 10, 20, 50):
        if (last - first) / step * label <= plot:
            return step
    return 100


def timeline(eras: list[Any], game: str) -> list[dict[str, str]]:
    """The eras of a game on a line of years. The last era has no end: it is drawn to a
    year after the newest date any era gives, so that the picture never depends on the
    day it was drawn."""
    import altair as alt

    newest = max(max(e.began, e.cr_date or e.began) for e in eras)
    open_end = (date.fromisoformat(newest) + timedelta(days=365)).isoformat()
    rows = [{"era": f"{e.id}", "began": e.began, "ended": e.ended or open_end,
             "name": _(e.name)} for e in eras]
    first, last = int(min(e.began for e in eras)[:4]), int(open_end[:4])

    def draw(fits: str) -> str:
        plot = TIMELINE_PLOT[fits]
        step = year_step(first, last, plot)
        years = [y for y in range(first, last + 1) if y % step == 0] or [first]
        chart = _chart(rows, _("The eras of {game}").format(game=game), plot,
                       SIZES[fits]["label_limit"]).mark_bar(color=BAR, height=16).encode(
            x=alt.X("began:T", title=_("in force from"), axis=alt.Axis(
                format="%Y", values=[alt.DateTime(year=y) for y in years],
                labelOverlap=False, grid=True)),
            x2="ended:T",
            y=alt.Y("era:N", sort=None, title=None),
            tooltip=["name:N", "began:T", "ended:T"]).properties(height=32 * len(rows))
        return _svg(chart, _("A timeline of the eras of {game}: {eras}").format(
            game=game, eras=_("; ").join(_("{era} from {date}").format(
                era=r["era"], date=r["began"]) for r in rows)))

    return _both(draw)


def explored(rows: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Distinct outcomes each era's players can reach."""
    return [dict(p) for p in _explored(tuple((r["era"], r["outcomes"]) for r in rows),
                                       language.current())]


@functools.lru_cache(maxsize=1024)
def _explored(figures: tuple[tuple[str, int], ...], lang: str
              ) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Many scenarios have the same figures: each set drawn once a build (and language:
    `lang` is the cache's, the words are the language spoken)."""
    import altair as alt

    rows = [{"era": era, "outcomes": n} for era, n in figures]

    def draw(fits: str) -> str:
        chart = _chart(rows, _("Outcomes the players can reach"), SIZES[fits]["plot"],
                       SIZES[fits]["label_limit"]).mark_bar(color=BAR).encode(
            x=alt.X("outcomes:Q", title=_("distinct outcomes"),
                    axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("era:N", sort=None, title=None)).properties(height=26 * len(rows))
        return _svg(chart, _("Distinct outcomes the players can reach: {figures}").format(
            figures=_("; ").join(f"{r['era']} {r['outcomes']}" for r in rows)))

    return tuple(tuple(sorted(p.items())) for p in _both(draw))


def rates(rows: list[dict[str, Any]], field: str, title: str) -> list[dict[str, str]]:
    """Divergence rates (0 to 1) by `field`."""
    import altair as alt

    def draw(fits: str) -> str:
        chart = _chart(rows, title, SIZES[fits]["plot"], SIZES[fits]["label_limit"]
                       ).mark_bar(color=BAR).encode(
            x=alt.X("rate:Q", title=_("share that diverges"), axis=alt.Axis(format="%"),
                    scale=alt.Scale(domain=[0, 1])),
            y=alt.Y(f"{field}:N", sort=None, title=None)).properties(
            height=max(60, 22 * len(rows)))
        return _svg(chart, _("{title}: {figures}").format(title=title, figures=_("; ").join(
            f"{r[field]} {r['rate']:.0%}" for r in rows)))

    return _both(draw)
