"""Pictures of a position for notebooks: `State._repr_svg_` and `_repr_html_`.

Drawn from `State.view()` alone, the data every face draws (the browser page
too): the cells with their shapes, colours and marks, the lines between them,
the pieces in their seats' colours, the labels where the view puts them and
the last move outlined. Nothing here knows a game.
"""

from __future__ import annotations

import html as _html
from typing import Any, Dict, List, Mapping, Optional, Tuple

# Coloured cells (SameGame's blocks, Poggle's buttons): the browser page's
# palette, chosen to stay apart for colour-blind eyes.
PALETTE = [
    "#d55e00", "#0072b2", "#009e73", "#e69f00", "#cc79a7",
    "#56b4e9", "#f0e442", "#6b4c9a", "#8c8c8c", "#a6761d",
]
# The fill of each special cell (`ViewCell.mark`); other cells are plain.
MARK_FILLS = {
    "dark": "#b7a58a",
    "start": "#dbe7f3",
    "home": "#e3f1dc",
    "near": "#eef6e6",
    "on_path": "#f6f1de",
    "centre": "#ece6d6",
    "win": "#fde68a",
    "button": "#e5e7eb",
}
PLAIN = "#f7f4ec"
LINE = "#6b6455"
LAST_MOVE = "#f59e0b"
# The longer side of the picture, in pixels, and the most a unit cell gets.
SIDE = 420.0
MOST_PER_UNIT = 48.0


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _text_colour(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (`#rrggbb`)."""
    try:
        r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#000"
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _centre(cell: Mapping[str, Any]) -> Tuple[float, float]:
    return cell["x"] + cell["w"] / 2, cell["y"] + cell["h"] / 2


def _label(cell: Mapping[str, Any], place: str, view: Mapping[str, Any]) -> str:
    text = cell.get("label")
    if not text:
        return ""
    x, y = _centre(cell)
    size = min(cell["w"], cell["h"])
    esc = _html.escape(str(text))
    if place == "centre":
        return (f'<text x="{_fmt(x)}" y="{_fmt(y)}" font-size="{_fmt(size * 0.45)}" '
                f'text-anchor="middle" dominant-baseline="central">{esc}</text>')
    if place == "row_start":
        return (f'<text x="{_fmt(cell["x"] - size * 0.15)}" y="{_fmt(y)}" font-size="{_fmt(size * 0.4)}" '
                f'text-anchor="end" dominant-baseline="central">{esc}</text>')
    if place == "outside":
        cx, cy = view["width"] / 2, view["height"] / 2
        dx, dy = x - cx, y - cy
        norm = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        away = size * 0.85
        return (f'<text x="{_fmt(x + dx / norm * away)}" y="{_fmt(y + dy / norm * away)}" '
                f'font-size="{_fmt(size * 0.5)}" text-anchor="middle" dominant-baseline="central">{esc}</text>')
    # In the corner, small.
    return (f'<text x="{_fmt(cell["x"] + size * 0.06)}" y="{_fmt(cell["y"] + size * 0.06)}" '
            f'font-size="{_fmt(size * 0.22)}" fill="{LINE}" dominant-baseline="hanging">{esc}</text>')


def _shape(cell: Mapping[str, Any], fill: str, stroke: str, width: float) -> str:
    if cell.get("shape") == "circle":
        x, y = _centre(cell)
        return (f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(cell["w"] / 2)}" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="{_fmt(width)}"/>')
    return (f'<rect x="{_fmt(cell["x"])}" y="{_fmt(cell["y"])}" width="{_fmt(cell["w"])}" '
            f'height="{_fmt(cell["h"])}" fill="{fill}" stroke="{stroke}" stroke-width="{_fmt(width)}"/>')


def svg(view: Mapping[str, Any]) -> str:
    """The board of `view` (a `State.view()`) as a standalone SVG picture."""
    width, height = float(view["width"]), float(view["height"])
    if width <= 0 or height <= 0:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>'
    per_unit = min(SIDE / max(width, height), MOST_PER_UNIT)
    cells: Dict[int, Mapping[str, Any]] = {c["id"]: c for c in view["cells"]}
    thin = min((min(c["w"], c["h"]) for c in view["cells"]), default=1.0) * 0.04
    margin = max(width, height) * 0.08 if view.get("labels") in ("outside", "row_start") else thin * 2
    left = margin * (3 if view.get("labels") == "row_start" else 1)
    box = (-left, -margin, width + left + margin, height + 2 * margin)
    seats = view.get("seats") or []
    last = set((view.get("last_move") or {}).get("cells") or [])
    title = "; ".join(view.get("status") or [])
    out: List[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{" ".join(_fmt(v) for v in box)}" '
        f'width="{_fmt(box[2] * per_unit)}" height="{_fmt(box[3] * per_unit)}" '
        f'font-family="sans-serif" role="img">',
        f"<title>{_html.escape(title)}</title>",
    ]
    for edge in view.get("edges") or []:
        a, b = cells.get(edge["from"]), cells.get(edge["to"])
        if a and b:
            (x1, y1), (x2, y2) = _centre(a), _centre(b)
            out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                       f'stroke="{LINE}" stroke-width="{_fmt(thin * 1.5)}"/>')
    for cell in view["cells"]:
        colour: Optional[int] = cell.get("colour")
        if colour is not None:
            fill = PALETTE[colour % len(PALETTE)]
        else:
            fill = MARK_FILLS.get(cell.get("mark") or "", PLAIN)
        out.append(_shape(cell, fill, LINE, thin))
    # The pieces on each cell, side by side when a cell holds several.
    on_cell: Dict[int, List[Mapping[str, Any]]] = {}
    for piece in view.get("pieces") or []:
        if piece["cell"] in cells:
            on_cell.setdefault(piece["cell"], []).append(piece)
    for cell_id, pieces in on_cell.items():
        cell = cells[cell_id]
        x, y = _centre(cell)
        count = len(pieces)
        r = min(cell["w"], cell["h"]) * (0.38 if count == 1 else 0.38 / count ** 0.5)
        for i, piece in enumerate(pieces):
            px = x + (i - (count - 1) / 2) * r * 1.6 if count > 1 else x
            owner = piece.get("owner")
            fill = seats[owner]["colour"]["css"] if owner is not None and owner < len(seats) else "#9ca3af"
            out.append(f'<circle cx="{_fmt(px)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="{fill}" '
                       f'stroke="{LINE}" stroke-width="{_fmt(thin)}"/>')
            if piece.get("label"):
                out.append(f'<text x="{_fmt(px)}" y="{_fmt(y)}" font-size="{_fmt(r * 1.1)}" '
                           f'fill="{_text_colour(fill)}" text-anchor="middle" dominant-baseline="central">'
                           f'{_html.escape(str(piece["label"]))}</text>')
    place = view.get("labels") or "corner"
    for cell in view["cells"]:
        text = _label(cell, place, view)
        if text:
            out.append(text)
    for cell_id in sorted(last):
        if cell_id in cells:
            out.append(_shape(cells[cell_id], "none", LAST_MOVE, thin * 3))
    out.append("</svg>")
    return "".join(out)


def html(view: Mapping[str, Any], title: str) -> str:
    """The game's title, the board of `view` and the position in words (the
    view's status lines, which the terminal shows too), for a notebook."""
    words = "<br>".join(_html.escape(line) for line in view.get("status") or [])
    return (f'<figure style="margin:0"><figcaption><b>{_html.escape(title)}</b></figcaption>'
            f"{svg(view)}<p>{words}</p></figure>")
