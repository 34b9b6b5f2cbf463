"""Two-step login (issue 18, item 10, beyond the spec): one's own TOTP second factor, passkeys
and recovery codes (issue 52)."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.second_factor.passkeys_state import PasskeysState
from portal.pages.second_factor.passkeys_views import passkeys_card
from portal.pages.second_factor.state import SecondFactorState
from portal.pages.second_factor.views import due_callout, recovery_codes_card, second_factor_card


@page(routes.SECOND_FACTOR, on_load=[SecondFactorState.load, PasskeysState.load_passkeys])
def second_factor() -> rx.Component:
    return rx.vstack(
        due_callout(),
        passkeys_card(),
        second_factor_card(),
        recovery_codes_card(),
        spacing="4",
        width="100%",
    )
