"""Draws one chapter's Markdown tree onto the guide's pages.

The chapters use a small part of Markdown: headings, paragraphs with bold, italic, links and
inline code, bullet and numbered lists, simple tables, code blocks and images. Anything else is
left out with a warning rather than drawn badly. A heading never ends a page, and neither does
the sentence that introduces a table: each moves to the next page with what follows it.
"""

import logging
from pathlib import Path
from typing import cast

from fpdf import FPDF
from fpdf.enums import MethodReturnValue
from markdown_it.tree import SyntaxTreeNode

from portal.docs_pdf.figures import (
    Figure,
    draw_figure,
    draw_table,
    find_figure,
    line_count,
    table_height,
    table_rows,
)
from portal.docs_pdf.layout import (
    BODY_SIZE,
    CODE_FILL,
    HEADING_SIZES,
    MONO,
    PRIMARY,
    SANS,
    TEXT,
)

logger = logging.getLogger(__name__)

LINE = 5.4  # mm, the line height of body text
PARAGRAPH_GAP = 2.6
TIGHT_GAP = 1.0  # between the items of a list
INDENT_STEP = 7.0
BULLET_WIDTH = 5.5
SPACE_ABOVE_HEADING = {1: 0.0, 2: 3.5, 3: 1.5}
SPACE_BELOW_HEADING = 2.0
CHAPTER_RULE_SPACE = 6.0
# Lines of a paragraph or a list that must share the page of the heading above them.
OPENING_LINES = 2
CODE_SIZE = BODY_SIZE - 1.5
CODE_LINE = 4.4
CODE_PADDING = 2.2


class ChapterRenderer:
    def __init__(self, pdf: FPDF, chapter_dir: Path, image_roots: tuple[Path, ...]) -> None:
        self.pdf = pdf
        self.chapter_dir = chapter_dir
        self.image_roots = image_roots
        self.left_margin = pdf.l_margin
        self.indent = 0.0
        self.bold = self.italic = False
        self.link = ""
        self.figures: dict[str, Figure | None] = {}

    def render(self, tree: SyntaxTreeNode) -> None:
        blocks = tree.children
        for index, node in enumerate(blocks):
            if index == 0 or not _glued(blocks[index - 1], node):
                self._keep_room_for(blocks[index:])
            self._block(node)

    def _keep_room_for(self, blocks: list[SyntaxTreeNode]) -> None:
        """Start a new page unless the glued blocks opening ``blocks`` fit on this one."""
        height = 0.0
        for node, following in zip(blocks, [*blocks[1:], None], strict=True):
            if following is not None and _glued(node, following):
                height += self._height(node)
            else:
                height += self._opening_height(node)
                break
        if height < self.pdf.eph and self.pdf.will_page_break(height):
            self.pdf.add_page()

    def _height(self, node: SyntaxTreeNode) -> float:
        if node.type == "heading":
            level = int(node.tag[1])
            rule = CHAPTER_RULE_SPACE if level == 1 else 0.0
            size = HEADING_SIZES.get(level, BODY_SIZE) * 0.5
            return SPACE_ABOVE_HEADING.get(level, 0.0) + size + rule + SPACE_BELOW_HEADING
        if node.type == "paragraph" and not self._figure_nodes(node):
            self.pdf.set_font(SANS, "", BODY_SIZE)
            return line_count(self.pdf, plain_text(node), self.pdf.epw, LINE) * LINE + PARAGRAPH_GAP
        return self._opening_height(node)

    def _opening_height(self, node: SyntaxTreeNode) -> float:
        """The part of a block that must sit on one page: tables and images are never split."""
        if node.type == "table":
            return table_height(self.pdf, table_rows(node))
        if node.type == "paragraph" and (images := self._figure_nodes(node)):
            figures = [self._figure(image) for image in images]
            return sum(figure.total_height for figure in figures if figure)
        if node.type == "heading":
            return self._height(node)
        if node.type in ("fence", "code_block"):
            return self._code_height(node)
        return OPENING_LINES * LINE

    def _block(self, node: SyntaxTreeNode) -> None:
        match node.type:
            case "heading":
                self._heading(node)
            case "paragraph":
                self._paragraph(node)
            case "bullet_list" | "ordered_list":
                self._list(node)
            case "table":
                draw_table(self.pdf, table_rows(node))
            case "fence" | "code_block":
                self._code(node)
            case _:
                logger.warning("User guide: Markdown %s left out", node.type)

    def _heading(self, node: SyntaxTreeNode) -> None:
        level = int(node.tag[1])
        size = HEADING_SIZES.get(level, BODY_SIZE)
        self.pdf.ln(SPACE_ABOVE_HEADING.get(level, 0.0))
        title = plain_text(node)
        self.pdf.start_section(title, level - 1, strict=False)
        self.pdf.set_font(SANS, "" if level == 1 else "B", size)
        self.pdf.set_text_color(*(TEXT if level > 2 else PRIMARY))
        self.pdf.multi_cell(0, size * 0.5, title, new_x="LMARGIN", new_y="NEXT")
        if level == 1:
            self.pdf.set_draw_color(*PRIMARY)
            self.pdf.set_line_width(0.6)
            y = self.pdf.y + 2
            self.pdf.line(self.pdf.l_margin, y, self.pdf.w - self.pdf.r_margin, y)
            self.pdf.ln(CHAPTER_RULE_SPACE)
        self.pdf.ln(SPACE_BELOW_HEADING)

    def _code_lines(self, node: SyntaxTreeNode) -> list[str]:
        self.pdf.set_font(MONO, "", CODE_SIZE)
        lines = self.pdf.multi_cell(
            self.pdf.epw - 2 * CODE_PADDING,
            CODE_LINE,
            node.content.rstrip("\n"),
            dry_run=True,
            output=MethodReturnValue.LINES,
        )
        return cast(list[str], lines)

    def _code_height(self, node: SyntaxTreeNode) -> float:
        """A code block on its shaded ground; like a table, it is never split."""
        return len(self._code_lines(node)) * CODE_LINE + 2 * CODE_PADDING

    def _code(self, node: SyntaxTreeNode) -> None:
        # The API chapter's commands are meant to be copied: kept as written, in the
        # monospaced font, long ones wrapped inside the block.
        height = self._code_height(node)
        if self.pdf.will_page_break(height):
            self.pdf.add_page()
        lines = self._code_lines(node)
        if len(lines) > node.content.rstrip("\n").count("\n") + 1:
            # A wrapped command no longer runs once pasted.
            logger.warning("User guide: a code line wider than the page, wrapped")
        top = self.pdf.y
        self.pdf.set_fill_color(*CODE_FILL)
        self.pdf.rect(self.pdf.l_margin, top, self.pdf.epw, height, style="F")
        self.pdf.set_text_color(*TEXT)
        self.pdf.set_xy(self.pdf.l_margin + CODE_PADDING, top + CODE_PADDING)
        for line in lines:
            self.pdf.set_x(self.pdf.l_margin + CODE_PADDING)
            self.pdf.cell(0, CODE_LINE, line, new_x="LMARGIN", new_y="NEXT")
        self.pdf.set_y(top + height)
        self.pdf.ln(PARAGRAPH_GAP)

    def _paragraph(self, node: SyntaxTreeNode) -> None:
        if images := self._figure_nodes(node):
            for image in images:
                self._image(image)
            return
        self._inline(node.children[0])
        self.pdf.ln(LINE)
        self.pdf.ln(TIGHT_GAP if node.hidden else PARAGRAPH_GAP)

    def _figure_nodes(self, paragraph: SyntaxTreeNode) -> list[SyntaxTreeNode]:
        """The images of a paragraph made of images only; empty for any other paragraph."""
        children = paragraph.children[0].children
        images = [child for child in children if child.type == "image"]
        others = [child for child in children if child.type != "image" and child.content.strip()]
        return [] if others else images

    def _figure(self, image: SyntaxTreeNode) -> Figure | None:
        # Measured and then drawn: looked up once, so a missing file is reported once.
        source = str(image.attrs.get("src", ""))
        if source not in self.figures:
            self.figures[source] = find_figure(
                image, self.chapter_dir, self.image_roots, self.pdf.epw
            )
        return self.figures[source]

    def _image(self, image: SyntaxTreeNode) -> None:
        figure = self._figure(image)
        if figure is None:
            return
        if self.pdf.will_page_break(figure.total_height):
            self.pdf.add_page()
        draw_figure(self.pdf, figure)

    def _inline(self, node: SyntaxTreeNode) -> None:
        for child in node.children:
            match child.type:
                case "text":
                    self._write(child.content)
                case "code_inline":
                    self._write(child.content, code=True)
                case "softbreak":
                    self._write(" ")
                case "hardbreak":
                    self.pdf.ln(LINE)
                case "strong" | "em" | "link":
                    self._styled(child)
                case "image":
                    self.pdf.ln(LINE)
                    self._image(child)
                case _:
                    logger.warning("User guide: inline Markdown %s left out", child.type)

    def _styled(self, node: SyntaxTreeNode) -> None:
        outer = (self.bold, self.italic, self.link)
        if node.type == "strong":
            self.bold = True
        elif node.type == "em":
            self.italic = True
        else:
            self.link = str(node.attrs.get("href", ""))
        self._inline(node)
        self.bold, self.italic, self.link = outer

    def _write(self, text: str, code: bool = False) -> None:
        if code:
            self.pdf.set_font(MONO, "", BODY_SIZE - 1)
        else:
            style = ("B" if self.bold else "") + ("I" if self.italic else "")
            self.pdf.set_font(SANS, style, BODY_SIZE)
        self.pdf.set_text_color(*(PRIMARY if self.link else TEXT))
        # fpdf2's write() cuts a word that does not fit at the end of the current line; a run
        # that starts mid-line (after bold text, say) must start on the next line instead.
        first_word = text.split(" ", 1)[0]
        room = self.pdf.w - self.pdf.r_margin - self.pdf.x - 2 * self.pdf.c_margin
        if self.pdf.x > self.pdf.l_margin and self.pdf.get_string_width(first_word) > room:
            self.pdf.ln(LINE)
        self.pdf.write(LINE, text, link=self.link)

    def _list(self, node: SyntaxTreeNode) -> None:
        ordered = node.type == "ordered_list"
        number = int(node.attrs.get("start", 1))
        self._set_indent(self.indent + INDENT_STEP)
        for item in node.children:
            # An item's opening paragraph is never split: a lone line atop a page reads badly.
            if self.pdf.will_page_break(self._opening_paragraph_height(item)):
                self.pdf.add_page()
            self.pdf.set_x(self.pdf.l_margin - BULLET_WIDTH)
            self.pdf.set_font(SANS, "B" if ordered else "", BODY_SIZE)
            self.pdf.set_text_color(*PRIMARY)
            self.pdf.cell(BULLET_WIDTH, LINE, f"{number}." if ordered else "•")
            number += 1
            for child in item.children:
                self._block(child)
        self._set_indent(self.indent - INDENT_STEP)
        if self.indent == 0:
            self.pdf.ln(PARAGRAPH_GAP - TIGHT_GAP)

    def _opening_paragraph_height(self, item: SyntaxTreeNode) -> float:
        first = item.children[0] if item.children else None
        if first is None or first.type != "paragraph" or self._figure_nodes(first):
            return LINE
        self.pdf.set_font(SANS, "", BODY_SIZE)
        return line_count(self.pdf, plain_text(first), self.pdf.epw, LINE) * LINE

    def _set_indent(self, indent: float) -> None:
        self.indent = indent
        self.pdf.set_left_margin(self.left_margin + indent)


def _glued(node: SyntaxTreeNode, following: SyntaxTreeNode) -> bool:
    """Whether ``node`` must share a page with the block that follows it."""
    return node.type == "heading" or (node.type == "paragraph" and following.type == "table")


def plain_text(node: SyntaxTreeNode) -> str:
    """The text of a heading or a paragraph without its Markdown."""
    return "".join(
        " " if child.type == "softbreak" else child.content
        for child in node.walk()
        if child.type in ("text", "code_inline", "softbreak")
    )
