"""A board (``comparator.games.board``) drawn as SVG: the defender's pieces above, the attacker's
below, each player's lines beside their row; arrows for attacks, dashed lines for blocks.
What left the battlefield is greyed, struck through and labelled; what changed has a thick
border and says how: colour is never the only sign. The same board gives the same bytes.
The picture carries its own text alternative (`<title>`, `<desc>`), the board in words."""

from __future__ import annotations

from html import escape

from comparator.games.board import Board, Link, Piece, Side

W, H, GAP, MARGIN = 150, 118, 22, 16
MIDDLE = 84  # the space between the rows, where the lines run
INK, PAPER, MUTED, ACCENT, ATTACK, BLOCK = ("#1b1b1b", "#ffffff", "#d9d9d9", "#8a1c1c",
                                            "#1d4e89", "#6b3a00")


def svg(board: Board, label: str, key: str) -> str:
    """The picture; `key` makes its element ids unique on a page that has several."""
    cols = max(len(board.top.pieces), len(board.bottom.pieces), 2) + 1  # + the player
    width = MARGIN * 2 + cols * W + (cols - 1) * GAP
    top_y = MARGIN
    bottom_y = top_y + H + MIDDLE
    height = bottom_y + H + MARGIN + 22
    where: dict[str, tuple[float, float, bool]] = {}  # id -> centre x, edge y, is top
    body: list[str] = []
    body += _side(board.top, top_y, cols, where, top=True)
    body += _side(board.bottom, bottom_y, cols, where, top=False)
    for link in board.links:
        body.append(_link(link, where, key))
    body.append(_text(MARGIN, height - MARGIN + 2,
                      "solid arrow: attacks · dashed: blocks · dotted: took the attack on "
                      "its way", size=12, fill=INK))
    title_id, desc_id = f"{key}-title", f"{key}-desc"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" class="board" '
            f'aria-labelledby="{title_id} {desc_id}">'
            f'<title id="{title_id}">{escape(label)}</title>'
            f'<desc id="{desc_id}">{escape(board.describe())}</desc>'
            f'<defs><marker id="{key}-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{ATTACK}"/></marker></defs>'
            f'<rect width="{width}" height="{height}" fill="#f7f5ef"/>'
            + "".join(body) + "</svg>")


def _side(side: Side, y: int, cols: int, where: dict[str, tuple[float, float, bool]],
          top: bool) -> list[str]:
    """A row: the player's pieces, then the player, in the last column."""
    out = []
    for i, piece in enumerate(side.pieces):
        x = MARGIN + i * (W + GAP)
        where[piece.id] = (x + W / 2, y + H if top else y, top)
        out.append(_card(piece, x, y))
    x = MARGIN + (cols - 1) * (W + GAP)
    where[side.player] = (x + W / 2, y + H if top else y, top)
    out.append(_player(side, x, y))
    return out


def _player(side: Side, x: int, y: int) -> str:
    parts = [f'<g class="player" data-player="{escape(side.player)}">',
             f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="22" fill="#e8eef6" '
             f'stroke="{ATTACK}" stroke-width="2"/>',
             _text(x + 12, y + 24, _cut(f"player {side.player}", 18), size=14,
                   weight="bold")]
    for i, line in enumerate(side.lines[:3]):
        parts.append(_text(x + 12, y + 46 + i * 17, _cut(line, 20), size=13))
    if side.lost:
        parts.append(_text(x + 12, y + H - 10, "lost the game", size=13, weight="bold",
                           fill=ACCENT))
    parts.append("</g>")
    return "".join(parts)


def _card(p: Piece, x: int, y: int) -> str:
    fill = MUTED if p.gone else PAPER
    border = 4 if p.changed else 1.5
    parts = [f'<g class="piece" data-id="{escape(p.id)}">',
             f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="8" fill="{fill}" '
             f'stroke="{INK}" stroke-width="{border}"/>',
             _text(x + 8, y + 20, _cut(p.name, 19), size=14, weight="bold")]
    dead = p.gone in ("graveyard", "gone")
    if dead:  # struck through, and said
        parts.append(f'<line x1="{x + 6}" y1="{y + 15}" x2="{x + 8 + 8.5 * min(len(p.name), 19)}" '
                     f'y2="{y + 15}" stroke="{ACCENT}" stroke-width="2.5"/>')
    parts.append(_text(x + 8, y + 39, _cut(p.stats, 19), size=14, weight="bold"))
    lines = _wrapped(p.notes, 21, 3)
    for i, line in enumerate(lines):
        parts.append(_text(x + 8, y + 57 + i * 15, line, size=12))
    if p.gone:
        said = {"graveyard": "✝ died: graveyard", "gone": "✝ died (a token)",
                "hand": "↩ returned to hand", "exile": "⊘ exiled"}.get(p.gone,
                                                                   f"→ to the {p.gone}")
        parts.append(_text(x + 8, y + H - 8, said, size=12, weight="bold",
                           fill=ACCENT if dead else INK))
    parts.append("</g>")
    return "".join(parts)


def _link(link: Link, where: dict[str, tuple[float, float, bool]], key: str) -> str:
    if link.source not in where or link.target not in where:
        return ""
    x1, y1, _ = where[link.source]
    x2, y2, _ = where[link.target]
    if link.kind == "attacks":
        return (f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
                f'stroke="{ATTACK}" stroke-width="2.5" marker-end="url(#{key}-arrow)">'
                f'<title>{escape(link.source)} attacks {escape(link.target)}</title></line>')
    # A block is dashed; a creature that chose to take the attack but does not block it
    # (a blocker or guardman whose redirection another followed) is dotted.
    dashes = "7 5" if link.kind == "blocks" else "2 4"
    return (f'<line x1="{x1 + 10:.0f}" y1="{y1:.0f}" x2="{x2 + 10:.0f}" y2="{y2:.0f}" '
            f'stroke="{BLOCK}" stroke-width="3" stroke-dasharray="{dashes}">'
            f'<title>{escape(link.source)} {escape(link.kind)} {escape(link.target)}</title>'
            f'</line>')


def _text(x: float, y: float, words: str, size: int = 12, weight: str = "normal",
          fill: str = INK, anchor: str = "start") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-weight="{weight}" '
            f'fill="{fill}" text-anchor="{anchor}" font-family="system-ui, sans-serif">'
            f'{escape(words)}</text>')


def _wrapped(notes: list[str], width: int, most: int) -> list[str]:
    """The notes as lines of at most `width` characters, words whole where they fit;
    at most `most` lines, the last saying how many notes it could not show."""
    lines: list[str] = []
    for note in notes:
        line = ""
        for word in note.replace("-", " ").split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(_cut(line, width))
    if len(lines) > most:
        return lines[:most - 1] + ["(and more: see below)"]
    return lines


def _cut(words: str, most: int) -> str:
    return words if len(words) <= most else words[:most - 1] + "…"
