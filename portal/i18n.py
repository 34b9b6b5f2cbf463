"""Languages, translations and formats, shared by the portal and the embedded provider.

English message ids are the source text; ``locales/<lang>/LC_MESSAGES/messages.po`` holds the
catalogs (``make i18n`` extracts, updates and compiles them). This module never imports Reflex:
the compile-time ``_()`` of the UI lives in ``portal.components.i18n`` and reads these catalogs.
"""

import os
import threading
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal
from functools import cache
from gettext import GNUTranslations, NullTranslations
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.dates import format_date as babel_format_date
from babel.dates import format_datetime as babel_format_datetime
from babel.dates import format_time as babel_format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_currency as babel_format_currency
from babel.numbers import format_decimal

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
LANGUAGES = ("en", "fr")
DEFAULT_LANGUAGE = "en"
# Spec section 9: en-GB, en-US and fr-FR, matched on the first two letters; en-US and fr-FR as
# the fallbacks of each language. Every amount the portal shows (dashboard, invoices) is in
# euros, written in the language's style by ``format_amount``: the spec's GBP for English number
# formatting has no amount to apply to.
FORMAT_LOCALES = {"en": "en_GB", "fr": "fr_FR"}
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}


def N_(message: str) -> str:
    """Marks a message id for extraction where it is translated later, e.g. a route label."""
    return message


def match_language(tag: str | None) -> str:
    """The supported language of a locale tag such as ``fr-FR``, ``en_GB`` or ``fr``."""
    prefix = (tag or "").strip()[:2].lower()
    return prefix if prefix in LANGUAGES else DEFAULT_LANGUAGE


def negotiate_language(accept_language: str | None) -> str:
    """The best supported language of an ``Accept-Language`` header, English by default."""
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag[:2].lower() in LANGUAGES:
            weighted.append((-quality, index, tag[:2].lower()))
    return min(weighted)[2] if weighted else DEFAULT_LANGUAGE


@cache
def translations(language: str) -> NullTranslations:
    """The compiled catalog of a language, compiled from its ``.po`` on first use if needed."""
    po_path = LOCALES_DIR / language / "LC_MESSAGES" / "messages.po"
    mo_path = po_path.with_suffix(".mo")
    if not po_path.exists():
        return NullTranslations()
    if not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=language)
        # Written beside it, then renamed: the processes starting together (test workers,
        # backend workers) compile it at once, and none may read another's half-written file.
        partial = mo_path.with_suffix(f".{os.getpid()}.{threading.get_native_id()}.part")
        try:
            with partial.open("wb") as mo_file:
                write_mo(mo_file, catalog)
            partial.replace(mo_path)
        finally:
            partial.unlink(missing_ok=True)
    with mo_path.open("rb") as mo_file:
        return GNUTranslations(mo_file)


def gettext(language: str, message: str, /, **params: object) -> str:
    """``message`` translated into ``language``, with ``{name}`` placeholders filled from params."""
    text = translations(match_language(language)).gettext(message)
    return text.format(**params) if params else text


def ngettext(language: str, singular: str, plural: str, count: int, /, **params: object) -> str:
    text = translations(match_language(language)).ngettext(singular, plural, count)
    return text.format(count=count, **params)


def format_locale(language: str) -> Locale:
    return Locale.parse(FORMAT_LOCALES[match_language(language)])


def format_number(value: float | Decimal | int, language: str) -> str:
    return format_decimal(value, locale=format_locale(language))


def format_amount(value: float | Decimal | int, language: str, currency: str = "EUR") -> str:
    """An amount in ``currency`` (euros for invoices and the dashboard) in the language's style."""
    return babel_format_currency(value, currency, locale=format_locale(language))


def time_zone(name: str) -> tzinfo:
    """The IANA zone the browser named (``Europe/Paris``), or UTC for none or an unknown one."""
    return _zone(name[:64]) if name else UTC


@cache
def _zone(name: str) -> tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def local(value: datetime, zone: str) -> datetime:
    """``value`` on the wall clock of ``zone``; the provider's moments without offset are UTC."""
    aware = value if value.tzinfo else value.replace(tzinfo=UTC)
    return aware.astimezone(time_zone(zone))


def format_day(value: date | datetime | None, language: str, zone: str = "") -> str:
    """A calendar day; a moment counts on the day it falls in ``zone``."""
    if value is None:
        return ""
    day = local(value, zone).date() if isinstance(value, datetime) else value
    return babel_format_date(day, format="medium", locale=format_locale(language))


def format_time(value: datetime | None, language: str, zone: str = "") -> str:
    """24-hour clock in French, 12-hour clock in English, on the wall clock of ``zone``."""
    if value is None:
        return ""
    pattern = "HH:mm" if match_language(language) == "fr" else "h:mm a"
    return babel_format_time(local(value, zone), pattern, locale=format_locale(language))


def format_moment(value: datetime | None, language: str, zone: str = "") -> str:
    """Date and time, with the language's clock, on the wall clock of ``zone``."""
    if value is None:
        return ""
    pattern = "d MMM y HH:mm" if match_language(language) == "fr" else "d MMM y, h:mm a"
    return babel_format_datetime(local(value, zone), pattern, locale=format_locale(language))
