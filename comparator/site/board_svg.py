"""A board (``comparator.games.board``) drawn as SVG: the defender's pieces above, the attacker's
below, each player after their pieces; arrows for attacks, dashed lines for blocks. What
left the battlefield is greyed, struck through and labelled; what changed has a thick
border and says how: colour is never the only sign. The same board gives the same bytes.
The picture carries its own text alternative (`<title>`, `<desc>`), the board in words.

A side's pieces wrap into rows of at most `Layout.per_row`, so that a picture is never
wider than its screen: ``WIDE`` (four to a row, 698 px at most) for a desktop, ``NARROW``
(two to a row, 354 px) for a phone, each drawn at its own size, its words at the size
they were written. The page shows the one that fits (``pictures``)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from comparator.games.board import LINKS, Board, Link, Piece, Side
from comparator.site.words import GONE
from comparator.text.language import N_, _
from comparator.text.terminal import cut, wrapped

INK, PAPER, MUTED, ACCENT, ATTACK, BLOCK = ("#1b1b1b", "#ffffff", "#d9d9d9", "#8a1c1c",
                                            "#1d4e89", "#6b3a00")
EDGE = "#f7f5ef"  # the background's colour, edging a line where it crosses a card
LINE = 15  # between two lines of 12 px words
SMALL_LINES = 5  # a card's lines under its name and stats: notes, then where it went


@dataclass(frozen=True)
class Layout:
    per_row: int  # pieces (the player counted) in a row at most
    w: int  # a card's width
    gap: int  # between two cards of a row
    margin: int
    name_chars: int  # characters of a name (14 px, bold) a card's width holds
    chars: int  # characters of a line of 12 px words
    h: int = 124
    row_gap: int = 18  # between two rows of a side
    middle: int = 84  # between the sides, where the lines run

    def width(self, cols: int) -> int:
        return self.margin * 2 + cols * self.w + (cols - 1) * self.gap


WIDE = Layout(per_row=4, w=150, gap=22, margin=16, name_chars=15, chars=20)
NARROW = Layout(per_row=2, w=164, gap=10, margin=8, name_chars=16, chars=22)


def pictures(board: Board, label: str, key: str) -> list[dict[str, str]]:
    """The board drawn for a wide screen and, where that differs, for a narrow one: each
    {"svg", "fits"} ("any", "wide" or "narrow", which the page's CSS shows)."""
    if max(_count(side) for side in board.sides()) <= NARROW.per_row:  # one row a side
        return [{"svg": svg(board, label, key, NARROW), "fits": "any"}]
    return [{"svg": svg(board, label, key, WIDE), "fits": "wide"},
            {"svg": svg(board, label, f"{key}-narrow", NARROW), "fits": "narrow"}]


def _count(side: Side) -> int:
    return len(side.pieces) + 1  # the player too


def _columns(board: Board, layout: Layout) -> int:
    return min(layout.per_row, max(_count(side) for side in board.sides()))


def _rows(side: Side, layout: Layout) -> int:
    return -(-_count(side) // layout.per_row)


def svg(board: Board, label: str, key: str, layout: Layout = WIDE) -> str:
    """The picture; `key` makes its element ids unique on a page that has several."""
    cols = _columns(board, layout)
    width = layout.width(cols)
    legend = _wrapped([_("solid arrow: attacks · dashed: blocks · dotted: took the attack "
                         "on its way")], (width - 2 * layout.margin) * 10 // 66, 3)
    top_rows, bottom_rows = _rows(board.top, layout), _rows(board.bottom, layout)
    # A multiplayer game's other sides first, each above the next, the lines running
    # between them as between the two sides of a duel.
    extra_y, y = [], layout.margin
    for side in board.extra:
        extra_y.append(y)
        y += _side_height(_rows(side, layout), layout) + layout.middle
    top_y = y
    bottom_y = top_y + _side_height(top_rows, layout) + layout.middle
    legend_y = bottom_y + _side_height(bottom_rows, layout) + layout.margin + 10
    height = legend_y + (len(legend) - 1) * LINE + layout.margin
    where: dict[str, tuple[float, float]] = {}  # id -> centre x, the edge facing the other side
    linked = {i for link in board.links for i in (link.source, link.target)}
    cards: list[str] = []
    for side, side_y in zip(board.extra, extra_y, strict=True):
        cards += _side(side, side_y, _rows(side, layout), layout, where, linked, top=True)
    cards += _side(board.top, top_y, top_rows, layout, where, linked, top=True)
    cards += _side(board.bottom, bottom_y, bottom_rows, layout, where, linked, top=False)
    # The lines over the cards: where a side has rows, a line to a far row crosses the
    # near one, edged in the background's colour so that both stay legible.
    lines = [_link(link, where, key) for link in board.links]
    said = [_text(layout.margin, legend_y + i * LINE, line, size=12, fill=INK)
            for i, line in enumerate(legend)]
    title_id, desc_id = f"{key}-title", f"{key}-desc"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" class="board" '
            f'aria-labelledby="{title_id} {desc_id}">'
            f'<title id="{title_id}">{escape(label)}</title>'
            f'<desc id="{desc_id}">{escape(board.describe())}</desc>'
            f'<defs><marker id="{key}-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{ATTACK}"/></marker></defs>'
            f'<rect width="{width}" height="{height}" fill="{EDGE}"/>'
            + "".join(cards) + "".join(lines) + "".join(said) + "</svg>")


def _side_height(rows: int, layout: Layout) -> int:
    return rows * layout.h + (rows - 1) * layout.row_gap


def _side(side: Side, y: int, rows: int, layout: Layout,
          where: dict[str, tuple[float, float]], linked: set[str], top: bool) -> list[str]:
    """A side: the player's pieces, then the player, in rows of `layout.per_row`. Where
    it takes more than one row, the rows run from the middle outwards and what attacks,
    blocks or is attacked comes first, so that most lines stay short."""
    out = []
    items: list[Piece | None] = [*side.pieces, None]  # None: the player
    if rows > 1:
        items.sort(key=lambda it: (side.player if it is None else it.id) not in linked)
    for i, item in enumerate(items):
        row, col = divmod(i, layout.per_row)
        x = layout.margin + col * (layout.w + layout.gap)
        cy = y + (rows - 1 - row if top else row) * (layout.h + layout.row_gap)
        edge = (x + layout.w / 2, cy + layout.h if top else cy)
        if item is None:
            where[side.player] = edge
            out.append(_player(side, x, cy, layout))
        else:
            where[item.id] = edge
            out.append(_card(item, x, cy, layout))
    return out


def _player(side: Side, x: int, y: int, layout: Layout) -> str:
    w, h = layout.w, layout.h
    parts = [f'<g class="player" data-player="{escape(side.player)}">',
             f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="22" fill="#e8eef6" '
             f'stroke="{ATTACK}" stroke-width="2"/>',
             _text(x + 12, y + 24, _cut(_("player {name}").format(name=side.player),
                                          layout.name_chars),
                   size=14, weight="bold")]
    for i, line in enumerate(side.lines[:4]):
        parts.append(_text(x + 12, y + 46 + i * 17, _cut(line, layout.chars - 1), size=13))
    if side.lost:
        parts.append(_text(x + 12, y + h - 10, _("lost the game"), size=13, weight="bold",
                           fill=ACCENT))
    parts.append("</g>")
    return "".join(parts)


def _card(p: Piece, x: int, y: int, layout: Layout) -> str:
    w, h = layout.w, layout.h
    fill = MUTED if p.gone else PAPER
    border = 4 if p.changed else 1.5
    name = _cut(p.name, layout.name_chars)
    parts = [f'<g class="piece" data-id="{escape(p.id)}">',
             f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="{fill}" '
             f'stroke="{INK}" stroke-width="{border}"/>',
             _text(x + 8, y + 20, name, size=14, weight="bold")]
    dead = p.gone in ("graveyard", "gone", "left-game")
    if dead:  # struck through, and said
        parts.append(f'<line x1="{x + 6}" y1="{y + 15}" x2="{x + 10 + 8.6 * len(name):.0f}" '
                     f'y2="{y + 15}" stroke="{ACCENT}" stroke-width="2.5"/>')
    parts.append(_text(x + 8, y + 39, _cut(p.stats, layout.name_chars), size=14,
                       weight="bold"))
    went: list[str] = []
    if p.gone:  # bold 12 px words are wider than plain ones: a few characters fewer
        went = _wrapped([("✝ " if dead else "") + _(GONE.get(p.gone, N_("to the {zone}"))).format(
            zone=_(p.gone))],
                        layout.chars - 2, 2)
    notes = _wrapped(p.notes, layout.chars, SMALL_LINES - len(went))
    for i, line in enumerate(notes):
        parts.append(_text(x + 8, y + 57 + i * LINE, line, size=12))
    for i, line in enumerate(went):
        parts.append(_text(x + 8, y + 57 + (len(notes) + i) * LINE, line, size=12,
                           weight="bold", fill=ACCENT if dead else INK))
    parts.append("</g>")
    return "".join(parts)


def _link(link: Link, where: dict[str, tuple[float, float]], key: str) -> str:
    if link.source not in where or link.target not in where:
        return ""
    x1, y1 = where[link.source]
    x2, y2 = where[link.target]
    if link.kind == "attacks":
        at = f'x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}"'
        return (f'<line {at} stroke="{EDGE}" stroke-width="6"/>'
                f'<line {at} stroke="{ATTACK}" stroke-width="2.5" '
                f'marker-end="url(#{key}-arrow)">'
                f'<title>{escape(_arrow(link))}</title></line>')
    # A block is dashed; a creature that chose to take the attack but does not block it
    # (a blocker or guardman whose redirection another followed) is dotted.
    dashes = "7 5" if link.kind == "blocks" else "2 4"
    at = f'x1="{x1 + 10:.0f}" y1="{y1:.0f}" x2="{x2 + 10:.0f}" y2="{y2:.0f}"'
    return (f'<line {at} stroke="{EDGE}" stroke-width="6"/>'
            f'<line {at} stroke="{BLOCK}" stroke-width="3" stroke-dasharray="{dashes}">'
            f'<title>{escape(_arrow(link))}</title>'
            f'</line>')


def _arrow(link: Link) -> str:
    """What an arrow says on hover, in the language spoken: "left attacks B"."""
    said = _(LINKS.get(link.kind, "{source} " + link.kind + " {target}."))
    return said.format(source=link.source, target=link.target).rstrip(".。")


def _text(x: float, y: float, words: str, size: int = 12, weight: str = "normal",
          fill: str = INK, anchor: str = "start") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}" font-family="system-ui, sans-serif">'
            f'{escape(words)}</text>')


def _wrapped(notes: list[str], width: int, most: int) -> list[str]:
    """The notes as lines of at most `width` characters, words whole where they fit;
    at most `most` lines, the last saying how many notes it could not show."""
    lines: list[str] = []
    for note in notes:  # columns counted as a terminal counts them: a kana takes two
        lines += [_cut(line, width) for line in
                  wrapped(note.replace("-", " "), width, "", "", least=1)]
    if len(lines) > most:
        return lines[:most - 1] + [_("(and more: see below)")]
    return lines


def _cut(words: str, most: int) -> str:
    return cut(words, most)
