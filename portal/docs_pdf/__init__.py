"""The user documentation PDFs, built from the Markdown chapters of ``docs/user/<language>/``.

Chapters are rendered in file-name order behind a cover page and a table of contents. The package
never imports Reflex and reads no setting: the portal asks ``stored_user_documentation`` once per
language and keeps the bytes; ``python -m portal.docs_pdf OUTPUT_DIR`` writes both files.
"""

import hashlib
import logging
import math
import os
from datetime import UTC, datetime
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from portal.docs_pdf.chapter import ChapterRenderer
from portal.docs_pdf.layout import ContentsPage, GuidePdf, draw_cover
from portal.i18n import gettext, match_language

USER_DOCS_DIR = Path(__file__).resolve().parents[2] / "docs" / "user"
OUTPUT_FILE_NAMES = {"fr": "user_documentation.pdf", "en": "user_documentation_en.pdf"}
# Contents lines that fit on one A4 page, with room for titles that wrap.
CONTENTS_LINES_PER_PAGE = 30

_MARKDOWN = MarkdownIt("commonmark").enable("table")
logger = logging.getLogger(__name__)


def build_user_documentation(language: str, docs_dir: Path = USER_DOCS_DIR) -> bytes:
    """The user guide in ``language`` (``en`` or ``fr``; other tags fall back as in i18n).

    Images are read relative to each chapter, from ``docs_dir`` or the ``screenshots`` folder
    beside it; a missing one is left out with a warning.
    """
    language = match_language(language)
    chapters = sorted((docs_dir / language).glob("*.md"))
    if not chapters:
        raise FileNotFoundError(f"No chapter in {docs_dir / language}")
    trees = [SyntaxTreeNode(_MARKDOWN.parse(path.read_text(encoding="utf-8"))) for path in chapters]
    # The newest chapter dates the guide, so the same sources always give the same bytes.
    updated = datetime.fromtimestamp(max(path.stat().st_mtime for path in chapters), tz=UTC)

    pdf = GuidePdf(language, updated)
    draw_cover(pdf, updated)
    pdf.add_page()
    contents_lines = sum(
        1
        for tree in trees
        for node in tree.walk(include_self=False)
        if node.type == "heading" and node.tag in ("h1", "h2")
    )
    pdf.insert_toc_placeholder(
        ContentsPage(gettext(language, "Contents")).render,
        pages=max(1, math.ceil(contents_lines / CONTENTS_LINES_PER_PAGE)),
        # The estimate cannot foresee every wrapped title; fpdf2 adds the pages it lacks.
        allow_extra_pages=True,
    )
    image_roots = (docs_dir.resolve(), (docs_dir.parent / "screenshots").resolve())
    for index, (path, tree) in enumerate(zip(chapters, trees, strict=True)):
        if index:
            pdf.add_page()
        ChapterRenderer(pdf, path.parent, image_roots).render(tree)
    return bytes(pdf.output())


def sources_digest(docs_dir: Path = USER_DOCS_DIR) -> str:
    """What the guides are made of: the chapters, their fonts and images, and the code that
    draws them. The same digest means the same bytes."""
    digest = hashlib.blake2b(digest_size=12)
    files = [
        *(path for path in docs_dir.rglob("*") if path.is_file()),
        *(path for path in (docs_dir.parent / "screenshots").rglob("*") if path.is_file()),
        *Path(__file__).parent.glob("*.py"),
    ]
    for path in sorted(files):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def stored_user_documentation(language: str, store: Path, docs_dir: Path = USER_DOCS_DIR) -> bytes:
    """The guide in ``language``, built once for its sources and kept in ``store``: the first
    reader after a deployment builds it (about six seconds of CPU), every other worker,
    restart and instance sharing the folder reads it. Another version of the guide in the
    folder is removed; a folder that cannot be written only costs the next reader a build."""
    language = match_language(language)
    prefix = f"user_documentation_{language}-"
    path = store / f"{prefix}{sources_digest(docs_dir)}.pdf"
    try:
        return path.read_bytes()
    except OSError:  # not built yet, or no folder to keep it in
        pass
    pdf = build_user_documentation(language, docs_dir)
    try:
        store.mkdir(parents=True, exist_ok=True)
        # Written whole under another name first: a worker reading meanwhile never gets half.
        partial = path.with_name(f"{path.name}.{os.getpid()}.part")
        partial.write_bytes(pdf)
        partial.replace(path)
        for older in store.glob(f"{prefix}*.pdf"):
            if older != path:
                older.unlink(missing_ok=True)
    except OSError as error:
        logger.warning("User guide: not kept in %s (%s)", store, error)
    return pdf


def build_all(output_dir: Path) -> list[Path]:
    """Write the French and the English guides into ``output_dir``; return their paths."""
    output_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for language, file_name in OUTPUT_FILE_NAMES.items():
        path = output_dir / file_name
        path.write_bytes(build_user_documentation(language))
        written.append(path)
    return written
