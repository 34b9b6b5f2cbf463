"""The user documentation PDFs behind the user menu's Documentation entry (spec section 2)."""

import io
import logging
import re
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from portal.docs_pdf import (
    OUTPUT_FILE_NAMES,
    USER_DOCS_DIR,
    build_user_documentation,
    stored_user_documentation,
)
from portal.docs_pdf.__main__ import main

LANGUAGES = ("en", "fr")


def chapter_names(language: str) -> list[str]:
    return sorted(path.name for path in (USER_DOCS_DIR / language).glob("*.md"))


def chapter_titles(language: str) -> list[str]:
    return [
        (USER_DOCS_DIR / language / name).read_text(encoding="utf-8").splitlines()[0][2:]
        for name in chapter_names(language)
    ]


def outline_titles(pdf: bytes) -> list[str]:
    """The /Title strings of a PDF: its bookmarks and its document title."""
    titles = []
    pattern = rb"/Title (?:\(((?:[^()\\]|\\.)*)\)|<([0-9a-fA-F]+)>)"
    for literal, hexadecimal in re.findall(pattern, pdf):
        if hexadecimal:
            titles.append(bytes.fromhex(hexadecimal.decode()).decode("utf-16"))
        else:
            titles.append(re.sub(rb"\\(.)", rb"\1", literal).decode("latin-1"))
    return titles


def write_chapter(docs_dir: Path, text: str) -> None:
    chapter = docs_dir / "en" / "01-chapter.md"
    chapter.parent.mkdir(parents=True)
    chapter.write_text(text, encoding="utf-8")


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def built() -> tuple[dict[str, bytes], dict[str, list[str]]]:
    """Both guides, and what each build warned of (a part of a chapter it left out)."""
    guides, warnings = {}, {}
    logger = logging.getLogger("portal.docs_pdf")
    for language in LANGUAGES:
        handler = _Warnings()
        logger.addHandler(handler)
        try:
            guides[language] = build_user_documentation(language)
        finally:
            logger.removeHandler(handler)
        warnings[language] = handler.messages
    return guides, warnings


@pytest.fixture(scope="module")
def guides(built: tuple[dict[str, bytes], dict[str, list[str]]]) -> dict[str, bytes]:
    return built[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_of_the_chapters_is_left_out(
    built: tuple[dict[str, bytes], dict[str, list[str]]], language: str
) -> None:
    """The API chapter's curl example was missing from both PDFs: code blocks were left out."""
    assert built[1][language] == []


def test_a_code_block_is_drawn_as_written(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    docs_dir = tmp_path / "docs" / "user"
    command = 'curl -H "Authorization: Bearer $PATCHBAY_TOKEN" https://portal.example/provider/api'
    write_chapter(
        docs_dir, f"# Chapter\n\nRun:\n\n```\nexport PATCHBAY_TOKEN='pbt_x'\n{command}\n```\n"
    )

    with caplog.at_level(logging.WARNING):
        pdf = build_user_documentation("en", docs_dir)

    assert not caplog.records
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "export PATCHBAY_TOKEN='pbt_x'" in text
    assert "Authorization: Bearer $PATCHBAY_TOKEN" in text


def test_every_chapter_exists_in_both_languages() -> None:
    assert chapter_names("en"), "the guide has no chapter"
    assert chapter_names("en") == chapter_names("fr")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_chapter_opens_with_its_title(language: str) -> None:
    for name in chapter_names(language):
        first_line = (USER_DOCS_DIR / language / name).read_text(encoding="utf-8").splitlines()[0]
        assert first_line.startswith("# "), f"{language}/{name} does not open with a # title"


@pytest.mark.parametrize("language", LANGUAGES)
def test_guide_lists_the_chapters_of_its_language(guides: dict[str, bytes], language: str) -> None:
    other = "fr" if language == "en" else "en"
    pdf = guides[language]

    assert pdf.startswith(b"%PDF-")
    titles = outline_titles(pdf)
    for title in chapter_titles(language):
        assert title in titles
    for title in chapter_titles(other):
        assert title not in titles


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["Patchbay customer portal", "Contents", "Page 2 of", "Reference master"]),
        ("fr", ["Portail client Patchbay", "Sommaire", "Page 2 sur", "Mot de passe oublié"]),
    ],
)
def test_guide_text_is_in_its_language(
    guides: dict[str, bytes], language: str, expected: list[str]
) -> None:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(guides[language])).pages)

    for fragment in expected:
        assert fragment in text


def test_same_sources_give_the_same_bytes(guides: dict[str, bytes]) -> None:
    assert build_user_documentation("fr") == guides["fr"]


def test_other_languages_get_the_english_guide(guides: dict[str, bytes]) -> None:
    assert build_user_documentation("de-DE") == guides["en"]


def test_missing_image_is_left_out_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    docs_dir = tmp_path / "docs" / "user"
    write_chapter(docs_dir, "# Chapter\n\n![Login](../../screenshots/missing.png)\n\nText.\n")

    with caplog.at_level(logging.WARNING):
        pdf = build_user_documentation("en", docs_dir)

    assert b"/Subtype /Image" not in pdf
    assert "missing.png" in caplog.text


def test_screenshot_is_embedded(tmp_path: Path) -> None:
    docs_dir = tmp_path / "docs" / "user"
    (tmp_path / "docs" / "screenshots").mkdir(parents=True)
    Image.new("RGB", (640, 400), "white").save(tmp_path / "docs" / "screenshots" / "home.png")
    write_chapter(docs_dir, "# Chapter\n\n![Home](../../screenshots/home.png)\n")

    assert b"/Subtype /Image" in build_user_documentation("en", docs_dir)


def test_image_outside_the_documentation_is_refused(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    docs_dir = tmp_path / "docs" / "user"
    Image.new("RGB", (64, 64), "white").save(tmp_path / "elsewhere.png")
    write_chapter(docs_dir, "# Chapter\n\n![Elsewhere](../../../elsewhere.png)\n")

    with caplog.at_level(logging.WARNING):
        pdf = build_user_documentation("en", docs_dir)

    assert b"/Subtype /Image" not in pdf
    assert "elsewhere.png" in caplog.text


def test_tables_lists_and_inline_styles_render(tmp_path: Path) -> None:
    docs_dir = tmp_path / "docs" / "user"
    write_chapter(
        docs_dir,
        "# Chapter\n\n## Section\n\nSome **bold**, *italic* and `code` text.\n\n"
        "1. First\n   - nested\n2. Second\n\n| Role | Access |\n|---|---|\n| **A** | b |\n",
    )

    pdf = build_user_documentation("en", docs_dir)

    assert {"Chapter", "Section"} <= set(outline_titles(pdf))


def test_contents_longer_than_estimated_get_more_pages(tmp_path: Path) -> None:
    docs_dir = tmp_path / "docs" / "user"
    long_title = "with a title long enough to wrap onto a second line of the contents page"
    sections = "".join(f"## Section {number} {long_title}\n\nText.\n\n" for number in range(40))
    write_chapter(docs_dir, f"# Chapter\n\n{sections}")

    pdf = build_user_documentation("en", docs_dir)

    assert f"Section 39 {long_title}" in outline_titles(pdf)


def test_command_line_writes_both_guides(tmp_path: Path) -> None:
    assert main([str(tmp_path / "out")]) == 0

    for file_name in OUTPUT_FILE_NAMES.values():
        assert (tmp_path / "out" / file_name).read_bytes().startswith(b"%PDF-")
    assert sorted(OUTPUT_FILE_NAMES.values()) == [
        "user_documentation.pdf",
        "user_documentation_en.pdf",
    ]


def test_a_stored_guide_is_built_once_for_its_sources(tmp_path: Path) -> None:
    docs_dir, store = tmp_path / "docs" / "user", tmp_path / "store"
    write_chapter(docs_dir, "# Chapter\n\nThe first text.\n")

    first = stored_user_documentation("en", store, docs_dir)
    [kept] = store.glob("*.pdf")
    assert kept.read_bytes() == first
    kept.write_bytes(b"%PDF the kept copy")
    assert stored_user_documentation("en", store, docs_dir) == b"%PDF the kept copy"

    (docs_dir / "en" / "01-chapter.md").write_text("# Chapter\n\nA new text.\n", encoding="utf-8")
    rebuilt = stored_user_documentation("en", store, docs_dir)
    assert rebuilt.startswith(b"%PDF-")
    [kept_now] = store.glob("*.pdf")
    assert kept_now != kept
    assert kept_now.read_bytes() == rebuilt


def test_a_store_that_cannot_be_written_still_gives_the_guide(tmp_path: Path) -> None:
    docs_dir = tmp_path / "docs" / "user"
    write_chapter(docs_dir, "# Chapter\n\nText.\n")
    not_a_folder = tmp_path / "store"
    not_a_folder.write_text("a file where the folder should be")

    assert stored_user_documentation("en", not_a_folder, docs_dir).startswith(b"%PDF-")
