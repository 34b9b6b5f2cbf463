"""Languages, formats and the completeness of both catalogs (spec 9)."""

import shutil
import subprocess
import sys
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import BinaryIO

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo as babel_write_mo
from babel.messages.pofile import read_po

from portal import i18n
from portal.components.i18n import _ as translated
from portal.components.maintenances import calendar
from portal.i18n import (
    format_amount,
    format_day,
    format_moment,
    format_number,
    format_time,
    gettext,
    match_language,
    negotiate_language,
)
from portal.state.preferences import LanguageState

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "N_": None, "gettext": (2,), "ngettext": (2, 3)}


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("en-GB", "en"),
        ("en-US", "en"),
        ("fr-FR", "fr"),
        ("fr", "fr"),
        ("FR-ca", "fr"),
        ("de-DE", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_languages_match_on_the_first_two_letters(tag: str | None, language: str) -> None:
    assert match_language(tag) == language


def test_accept_language_is_negotiated_by_quality() -> None:
    assert negotiate_language("de-DE,fr;q=0.9,en;q=0.8") == "fr"
    assert negotiate_language("en-US,en;q=0.9,fr;q=0.8") == "en"
    assert negotiate_language("es") == "en"
    assert negotiate_language(None) == "en"


def test_numbers_and_currencies_follow_the_language() -> None:
    assert format_number(Decimal("1234.5"), "en") == "1,234.5"
    assert format_number(Decimal("1234.5"), "fr") == "1\u202f234,5"
    assert format_amount(Decimal("1234.50"), "fr") == "1\u202f234,50\xa0€"
    assert format_amount(Decimal("1234.50"), "en") == "€1,234.50"


def test_french_uses_a_24_hour_clock_and_english_a_12_hour_one() -> None:
    moment = datetime(2026, 11, 23, 15, 5)
    assert format_time(moment, "fr") == "15:05"
    assert format_time(moment, "en") == "3:05 pm"
    assert "15:05" in format_moment(moment, "fr")
    assert "3:05" in format_moment(moment, "en")


def test_moments_show_on_the_wall_clock_of_the_browsers_time_zone() -> None:
    moment = datetime(2026, 11, 23, 23, 30, tzinfo=UTC)
    assert format_time(moment, "fr", "Europe/Paris") == "00:30"
    assert format_day(moment, "en", "Europe/Paris") == "24 Nov 2026"
    assert format_moment(moment, "en", "America/New_York") == "23 Nov 2026, 6:30 pm"
    # The provider's moments without an offset are UTC; an unknown zone falls back to UTC.
    assert format_time(moment.replace(tzinfo=None), "fr", "Europe/Paris") == "00:30"
    assert format_time(moment, "fr", "Mars/Olympus_Mons") == "23:30"
    assert format_time(moment, "fr", "../../etc/passwd") == "23:30"


def test_placeholders_are_filled_after_translation() -> None:
    text = gettext("fr", "Welcome to your {company} customer portal", company="Patchbay")
    assert text == "Bienvenue sur votre portail client Patchbay"


def test_translated_texts_read_a_state_that_holds_the_language_alone() -> None:
    """The browser renders a state's readers again when any of its fields changes: the time
    zone and the stored language that every first load brings must not render each text."""
    readers = translated("Login")._get_all_var_data()
    assert readers is not None
    assert readers.state == LanguageState.get_full_name()
    assert {*LanguageState.base_vars, *LanguageState.computed_vars} == {"shown"}


def _catalog(language: str):
    with (ROOT / "locales" / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


def _source_messages() -> set[str]:
    found: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT / "portal", method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


def _portal_messages() -> set[str]:
    """The messages the portal marks itself, the embedded provider's left out: a portal
    pointed at another provider still ships them."""
    return {
        message if isinstance(message, str) else message[0]
        for file, _line, message, _comments, _context in extract_from_dir(
            ROOT / "portal", method_map=[("**.py", "python")], keywords=KEYWORDS
        )
        if not file.startswith("provider/")
    }


def test_the_calendar_legend_is_marked_by_the_portal() -> None:
    labels = {label for _colour, label in calendar.LEGEND}
    assert labels - _portal_messages() == set()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_message_of_the_code_is_translated(language: str) -> None:
    catalog = _catalog(language)
    missing = sorted(
        message
        for message in _source_messages()
        if catalog.get(message) is None or not catalog.get(message).string
    )
    assert not missing, f"Missing in {language}: {missing}"


def test_french_catalog_is_not_a_copy_of_the_english_one() -> None:
    french = _catalog("fr")
    same = [m.id for m in french if m.id and m.string == m.id and len(str(m.id)) > 12]
    # A few ids are the same in both languages (e.g. "Documentation"); whole sentences are not.
    assert not [s for s in same if " " in str(s)], same


def test_catalogs_compile(tmp_path: Path) -> None:
    # A copy: compiling in place would truncate the .mo files that another test worker may be
    # reading at that moment.
    locales = shutil.copytree(ROOT / "locales", tmp_path / "locales")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "compile",
            "-d",
            str(locales),
            "--statistics",
            "--use-fuzzy",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_a_catalog_is_compiled_beside_and_renamed_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Processes starting together compile the catalog at once: none may find the .mo file
    half-written, so it only appears at its path once complete."""
    messages = shutil.copytree(ROOT / "locales" / "fr", tmp_path / "fr") / "LC_MESSAGES"
    (messages / "messages.mo").unlink(missing_ok=True)
    seen_while_writing = []

    def write_mo(file: BinaryIO, catalog: Catalog) -> None:
        seen_while_writing.append((messages / "messages.mo").exists())
        babel_write_mo(file, catalog)

    monkeypatch.setattr(i18n, "LOCALES_DIR", tmp_path)
    monkeypatch.setattr(i18n, "write_mo", write_mo)
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("fr").gettext("Services") == "Services"
        assert i18n.translations("fr").gettext("Invoices") == "Factures"
    finally:
        i18n.translations.cache_clear()
    assert seen_while_writing == [False]
    assert sorted(path.name for path in messages.iterdir()) == ["messages.mo", "messages.po"]
