"""Tables and images of the guide, measured before they are drawn so that none is split."""

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from fpdf import FPDF, FontFace
from fpdf.enums import MethodReturnValue
from markdown_it.tree import SyntaxTreeNode
from PIL import Image

from portal.docs_pdf.layout import BODY_SIZE, MUTED, PRIMARY, PRIMARY_TINT, RULE, SANS, TEXT

logger = logging.getLogger(__name__)

TABLE_SIZE = BODY_SIZE - 1
TABLE_LINE = 4.8
TABLE_PADDING = (1.6, 2.0)  # vertical, horizontal
IMAGE_MAX_HEIGHT = 110.0
CAPTION_LINE = 4.5
FIGURE_GAP = 3.6


def table_rows(node: SyntaxTreeNode) -> list[list[str]]:
    """The cells of a Markdown table, heading row first, in fpdf2's table Markdown."""
    return [
        [_markup(cell.children[0]) if cell.children else "" for cell in row.children]
        for section in node.children
        for row in section.children
    ]


def _markup(inline: SyntaxTreeNode) -> str:
    """A cell's inline Markdown in the dialect of fpdf2's tables: **bold**, __italics__."""
    parts = []
    for child in inline.children:
        if child.type == "strong":
            parts.append(f"**{_markup(child)}**")
        elif child.type == "em":
            parts.append(f"__{_markup(child)}__")
        elif child.children:
            parts.append(_markup(child))
        else:
            parts.append(" " if child.type == "softbreak" else child.content)
    return "".join(parts)


def _column_widths(rows: list[list[str]]) -> list[int]:
    """Columns share the width in proportion to their longest text, within bounds."""
    return [min(60, max(12, *map(len, column))) for column in zip(*rows, strict=True)]


def table_height(pdf: FPDF, rows: list[list[str]]) -> float:
    widths = _column_widths(rows)
    vertical, horizontal = TABLE_PADDING
    pdf.set_font(SANS, "", TABLE_SIZE)
    height = 0.0
    for cells in rows:
        lines = max(
            line_count(pdf, text, pdf.epw * width / sum(widths) - 2 * horizontal, TABLE_LINE)
            for text, width in zip(cells, widths, strict=True)
        )
        height += lines * TABLE_LINE + 2 * vertical
    return height + FIGURE_GAP


def line_count(pdf: FPDF, text: str, width: float, line_height: float) -> int:
    """How many lines ``text`` takes in ``width`` with the current font."""
    lines = pdf.multi_cell(
        width, line_height, text, markdown=True, dry_run=True, output=MethodReturnValue.LINES
    )
    # multi_cell's return type depends on ``output``: LINES gives the list of lines.
    return len(cast(list[str], lines))


def draw_table(pdf: FPDF, rows: list[list[str]]) -> None:
    pdf.set_font(SANS, "", TABLE_SIZE)
    pdf.set_text_color(*TEXT)
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.2)
    with pdf.table(
        col_widths=_column_widths(rows),
        width=pdf.epw,
        text_align="LEFT",
        v_align="TOP",
        line_height=TABLE_LINE,
        padding=TABLE_PADDING,
        borders_layout="HORIZONTAL_LINES",
        headings_style=FontFace(emphasis="BOLD", color=PRIMARY, fill_color=PRIMARY_TINT),
        markdown=True,
    ) as table:
        for cells in rows:
            row = table.row()
            for text in cells:
                row.cell(text)
    pdf.ln(FIGURE_GAP)


@dataclass(frozen=True)
class Figure:
    """An image scaled to the text width, at most IMAGE_MAX_HEIGHT high, with its caption."""

    path: Path
    width: float
    height: float
    caption: str

    @property
    def total_height(self) -> float:
        return self.height + 1.5 + (CAPTION_LINE if self.caption else 0) + FIGURE_GAP


def find_figure(
    node: SyntaxTreeNode, chapter_dir: Path, image_roots: tuple[Path, ...], text_width: float
) -> Figure | None:
    """The figure of an image node, or None (with a warning) when the file cannot be used."""
    source = str(node.attrs.get("src", ""))
    path = (chapter_dir / source).resolve()
    if not path.is_file() or not any(path.is_relative_to(root) for root in image_roots):
        logger.warning("User guide: image %s (from %s) not found, left out", source, chapter_dir)
        return None
    try:
        with Image.open(path) as image:
            width_px, height_px = image.size
    except OSError as error:
        logger.warning("User guide: image %s cannot be read (%s), left out", source, error)
        return None
    width, height = text_width, text_width * height_px / width_px
    if height > IMAGE_MAX_HEIGHT:
        width, height = width * IMAGE_MAX_HEIGHT / height, IMAGE_MAX_HEIGHT
    return Figure(path, width, height, node.content)


def draw_figure(pdf: FPDF, figure: Figure) -> None:
    x, y = pdf.l_margin + (pdf.epw - figure.width) / 2, pdf.y
    pdf.image(figure.path, x=x, y=y, w=figure.width, h=figure.height)
    pdf.set_draw_color(*RULE)
    pdf.set_line_width(0.2)
    pdf.rect(x, y, figure.width, figure.height)
    pdf.set_y(y + figure.height + 1.5)
    if figure.caption:
        pdf.set_font(SANS, "I", BODY_SIZE - 2)
        pdf.set_text_color(*MUTED)
        pdf.multi_cell(0, CAPTION_LINE, figure.caption, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(FIGURE_GAP)
