"""Preferences kept in the browser's storage (spec 4): the language and the list view modes.

The dark mode is Reflex's own colour mode, which already defaults to the system preference and
is remembered in the browser.
"""

import reflex as rx
from reflex_base.registry import RegistrationContext

from portal.i18n import match_language, negotiate_language


class PreferencesState(rx.State):
    language: str = rx.LocalStorage("", name="patchbay.language", sync=True)
    # The browser's IANA time zone. /time-zone.js writes it before the app starts, so the first
    # event of every page already formats moments on the user's own clock (decision: time-zone).
    time_zone: str = rx.LocalStorage("", name="patchbay.time_zone")

    @rx.var
    def current_language(self) -> str:
        return match_language(self.language)

    @rx.event
    def set_language(self, language: str):
        """Texts of the interface change at once; what the server formatted or the provider
        labelled (dates, amounts, service types) comes again with the page's own load events."""
        self.language = match_language(language)
        page_loads = RegistrationContext.get().app.get_load_events(self.router.url.path)
        return [rx.call_script(f"document.documentElement.lang = '{self.language}'"), *page_loads]

    @rx.event
    def adopt_browser_language(self):
        """The first visit takes the browser's language; later ones keep the user's choice."""
        if not self.language:
            self.language = negotiate_language(self.router.headers.accept_language)
        return rx.call_script(f"document.documentElement.lang = '{self.current_language}'")


class LanguageState(PreferencesState):
    """The language the interface is shown in, alone in a state of its own: every translated
    text reads it (about a hundred components on a page). The browser re-renders a state's
    readers when any of its fields changes, and the preferences change on every first load
    without the language changing (the time zone and the stored language arriving with the
    hydration): read from ``PreferencesState``, each such change rendered every text again
    (docs/decisions/lighthouse-calibration.md, 2026-12-06)."""

    @rx.var
    def shown(self) -> str:
        return self.current_language
