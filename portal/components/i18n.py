"""Compile-time translation of UI text (STYLE: i18n).

``_("Login")`` reads both catalogs when the page is compiled and yields an expression that picks
the current language's text in the browser: both languages ship, the session holds only the
language, and switching language needs no round trip. ``{name}`` placeholders take Vars.
"""

import re

import reflex as rx
from reflex.vars import Var

from portal.i18n import gettext
from portal.state.preferences import LanguageState

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _fill(text: str, params: dict[str, Var | str]) -> Var | str:
    if not params:
        return text
    pieces: list[Var | str] = []
    position = 0
    for match in _PLACEHOLDER.finditer(text):
        pieces.append(text[position : match.start()])
        value = params[match.group(1)]
        pieces.append(value.to(str) if isinstance(value, Var) else str(value))
        position = match.end()
    pieces.append(text[position:])
    result = Var.create("").to(str)
    for piece in pieces:
        if isinstance(piece, Var):
            result = result + piece.to(str)
        elif piece:
            result = result + piece
    return result


def _(message: str, **params: Var | str) -> Var:
    """``message`` in the browser's current language."""
    english = _fill(gettext("en", message), params)
    french = _fill(gettext("fr", message), params)
    return rx.cond(LanguageState.shown == "fr", french, english)
