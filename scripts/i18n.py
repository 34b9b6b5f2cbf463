"""Maintain the message catalogs: ``update`` extracts every message of ``portal/`` into
``locales/messages.pot``, merges it into the English and French catalogs (English is the source
language, so its empty entries take the message id) and compiles them; ``translate FILE.json``
merges a ``{"English message id": "French text"}`` map into the French catalog.
"""

import json
import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
POT = LOCALES / "messages.pot"
KEYWORDS = ["-k", "_", "-k", "N_", "-k", "gettext:2", "-k", "ngettext:2,3"]


def catalog_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / "messages.po"


def pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True, cwd=ROOT)


def load(language: str):
    with catalog_path(language).open("rb") as handle:
        return read_po(handle, locale=language)


def save(language: str, catalog) -> None:
    with catalog_path(language).open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=True)
    with catalog_path(language).with_suffix(".mo").open("wb") as handle:
        write_mo(handle, catalog)


def update() -> None:
    pybabel(
        "extract",
        "-F",
        "babel.cfg",
        "--no-location",
        "--sort-output",
        "--omit-header",
        *KEYWORDS,
        "-o",
        str(POT),
        "portal",
    )
    for language in ("en", "fr"):
        command = "update" if catalog_path(language).exists() else "init"
        pybabel(command, "-i", str(POT), "-d", str(LOCALES), "-l", language, "--no-wrap")
    english = load("en")
    for message in english:
        if message.id:
            message.string = message.id
        message.flags.discard("fuzzy")
    english.obsolete.clear()
    save("en", english)
    french = load("fr")
    for message in french:
        if "fuzzy" in message.flags:
            # Babel's guess from a similar message is not a translation.
            message.string = ""
            message.flags.discard("fuzzy")
        # A message that comes back (moved, or briefly missing) takes its old translation.
        previous = french.obsolete.get(message.id)
        if message.id and not message.string and previous is not None:
            message.string = previous.string
    french.obsolete.clear()
    save("fr", french)


def translate(mapping_file: str) -> None:
    mapping = json.loads(Path(mapping_file).read_text(encoding="utf-8"))
    french = load("fr")
    for msgid, text in mapping.items():
        message = french.get(msgid)
        if message is None:
            french.add(msgid, text)
        else:
            message.string = text
    save("fr", french)


if __name__ == "__main__":
    if sys.argv[1:2] == ["update"]:
        update()
    elif sys.argv[1:2] == ["translate"] and len(sys.argv) == 3:
        translate(sys.argv[2])
    else:
        sys.exit("usage: python scripts/i18n.py update | translate FILE.json")
