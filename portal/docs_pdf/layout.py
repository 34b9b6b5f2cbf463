"""The guide's page: fonts, colours, footer, cover and table of contents."""

from datetime import datetime
from pathlib import Path

from babel.dates import format_date
from fpdf import FPDF, TextStyle
from fpdf.enums import PageMode, XPos, YPos
from fpdf.outline import OutlineSection, TableOfContents

from portal.i18n import format_locale, gettext

# The bundled copies come first so that every machine renders the same bytes; Debian's
# fonts-dejavu-core package is the fallback for a checkout without them.
FONT_DIRS = (
    Path(__file__).resolve().parents[2] / "docs" / "user" / "fonts",
    Path("/usr/share/fonts/truetype/dejavu"),
)
SANS, MONO = "DejaVu", "DejaVuMono"
FONT_FILES = {
    (SANS, ""): "DejaVuSans.ttf",
    (SANS, "B"): "DejaVuSans-Bold.ttf",
    (SANS, "I"): "DejaVuSans-Oblique.ttf",
    (SANS, "BI"): "DejaVuSans-BoldOblique.ttf",
    (MONO, ""): "DejaVuSansMono.ttf",
}

# The portal's purple, darkened a little for print.
PRIMARY = (106, 58, 156)
PRIMARY_TINT = (240, 233, 248)
TEXT = (33, 33, 38)
MUTED = (110, 110, 120)
RULE = (205, 205, 212)
CODE_FILL = (243, 243, 246)
BODY_SIZE = 10.5
HEADING_SIZES = {1: 21.0, 2: 14.0, 3: 11.5}


class GuidePdf(FPDF):
    """A4 pages with the guide's fonts and metadata, and a footer on every page but the cover."""

    def __init__(self, language: str, updated: datetime) -> None:
        super().__init__(format="A4", unit="mm")
        self.guide_language = language
        self.guide_title = gettext(language, "Patchbay customer portal — user guide")
        for (family, style), file_name in FONT_FILES.items():
            self.add_font(family, style, font_path(file_name))
        self.set_margins(left=20, top=20, right=20)
        self.set_auto_page_break(auto=True, margin=22)
        self.set_title(self.guide_title)
        self.set_lang(language)
        self.set_creator("Patchbay")
        self.set_creation_date(updated)
        self.page_mode = PageMode.USE_OUTLINES

    def footer(self) -> None:
        if self.page_no() == 1:
            return
        self.set_y(-14)
        self.set_font(SANS, size=8)
        self.set_text_color(*MUTED)
        self.cell(0, 5, self.guide_title, align="L")
        self.set_x(self.l_margin)
        number = gettext(
            self.guide_language, "Page {page} of {total}", page=self.page_no(), total="{nb}"
        )
        self.cell(0, 5, number, align="R")


def font_path(file_name: str) -> Path:
    for directory in FONT_DIRS:
        if (directory / file_name).is_file():
            return directory / file_name
    raise FileNotFoundError(f"Font {file_name} is in none of {', '.join(map(str, FONT_DIRS))}")


def draw_cover(pdf: GuidePdf, updated: datetime) -> None:
    language = pdf.guide_language
    pdf.add_page()
    # Scoped so that the band's fill colour does not leak into the tables' cells.
    with pdf.local_context(fill_color=PRIMARY):
        pdf.rect(0, 0, pdf.w, 110, style="F")
    pdf.set_text_color(255, 255, 255)
    pdf.set_xy(pdf.l_margin, 55)
    pdf.set_font(SANS, "B", 28)
    pdf.multi_cell(0, 13, gettext(language, "Patchbay customer portal"))
    pdf.set_x(pdf.l_margin)
    pdf.set_font(SANS, "", 18)
    pdf.multi_cell(0, 10, gettext(language, "User guide"))
    pdf.set_xy(pdf.l_margin, 124)
    pdf.set_text_color(*MUTED)
    pdf.set_font(SANS, "", 11)
    day = format_date(updated.date(), format="long", locale=format_locale(language))
    pdf.cell(0, 6, gettext(language, "Updated {date}", date=day))


class ContentsPage:
    """Chapters and their sections, with dotted leaders and page numbers that link."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.styles = {
            0: TableOfContents(
                TextStyle(font_family=SANS, font_style="B", font_size_pt=11, color=TEXT),
                line_spacing=1.7,
            ),
            1: TableOfContents(
                TextStyle(font_family=SANS, font_size_pt=10, color=TEXT),
                level_indent=7,
                line_spacing=1.5,
            ),
        }

    def render(self, pdf: FPDF, outline: list[OutlineSection]) -> None:
        pdf.set_font(SANS, "", HEADING_SIZES[1])
        pdf.set_text_color(*PRIMARY)
        pdf.set_x(pdf.l_margin)
        pdf.cell(0, 12, self.title, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.ln(4)
        for section in outline:
            if section.level in self.styles:
                if section.level == 0:
                    pdf.ln(2)
                self.styles[section.level].render_toc_item(pdf, section)
