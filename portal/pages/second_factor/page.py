"""Two-step sign-in (issue 18, item 10, beyond the spec): one's own TOTP second factor."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.second_factor.state import SecondFactorState
from portal.pages.second_factor.views import second_factor_card


@page(routes.SECOND_FACTOR, on_load=[SecondFactorState.load])
def second_factor() -> rx.Component:
    return second_factor_card()
