"""A user's profile (spec 2): full name as title, roles, companies, e-mail, phone and job."""

import reflex as rx

from portal import routes
from portal.components.i18n import _
from portal.components.page import page
from portal.pages.user.state import UserProfileState
from portal.pages.user.views import profile_title, user_profile


@page(
    routes.USER,
    crumbs=((_(routes.USERS.label), routes.USERS.path), (profile_title(), "")),
    title=profile_title(),
    on_load=[UserProfileState.load],
)
def user() -> rx.Component:
    return user_profile()
