"""A company's single sign-on (issue 52), for administrators: reached from the user menu."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.sso_settings.state import SsoSettingsState
from portal.pages.sso_settings.views import sso_settings_screen


@page(routes.SSO_SETTINGS, on_load=[SsoSettingsState.load])
def sso_settings() -> rx.Component:
    return sso_settings_screen()
