"""The profile's two-step login: a link to one's own set-up, and an administrator's reset of
another user's second factor (a lost phone; issue 18, item 10), confirmed, audited by the
provider."""

import reflex as rx
from reflex.vars import ObjectVar

from portal import routes
from portal.client import NotFound
from portal.components.confirm_dialog import confirm_dialog
from portal.components.i18n import _
from portal.components.users.models import UserRow
from portal.i18n import N_, gettext
from portal.pages.user.state import UserProfileState
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState

RESET_DONE = N_("The two-step login of {name} has been reset.")
NONE_TO_RESET = N_("{name} has not set up two-step login.")


class SecondFactorResetState(UserProfileState):
    reset_open: bool = False
    resetting: bool = False

    @rx.event
    def ask_reset(self):
        self.reset_open = True

    @rx.event
    def cancel_reset(self):
        self.reset_open = False

    @rx.event
    @reports_failures(shown=True)
    async def reset_second_factor(self):
        if self.resetting:
            return
        self.resetting = True
        yield
        name, language = self.profile.full_name, self.current_language
        messages = await self.get_state(MessagesState)
        try:
            await (await self.provider()).second_factor.reset(self.profile.id)
            messages.show(gettext(language, RESET_DONE).format(name=name), "success")
        except NotFound:
            messages.show(gettext(language, NONE_TO_RESET).format(name=name), "info")
        finally:
            self.resetting = False
            self.reset_open = False


def _reset_dialog() -> rx.Component:
    profile = SecondFactorResetState.profile.to(ObjectVar, UserRow)
    return confirm_dialog(
        title=_("Reset two-step login"),
        description=_(
            "{name} will log in with the password alone until they set up two-step "
            "login again. Their recovery codes and remembered browsers end.",
            name=profile.full_name,
        ),
        action=_("Reset"),
        on_confirm=SecondFactorResetState.reset_second_factor,
        on_cancel=SecondFactorResetState.cancel_reset,
        busy=SecondFactorResetState.resetting,
        is_open=SecondFactorResetState.reset_open,
    )


def second_factor_action() -> rx.Component:
    """One's own profile: the way to the set-up; another's, for an administrator: the reset."""
    return rx.cond(
        UserProfileState.is_own_profile,
        rx.button(
            rx.icon("shield-check", size=16),
            _("Two-step login"),
            variant="soft",
            on_click=rx.redirect(routes.SECOND_FACTOR.path),
        ),
        rx.cond(
            UserProfileState.may_reset_second_factor,
            rx.fragment(
                rx.button(
                    rx.icon("shield-off", size=16),
                    _("Reset two-step login"),
                    variant="soft",
                    color_scheme="amber",
                    on_click=SecondFactorResetState.ask_reset,
                ),
                _reset_dialog(),
            ),
        ),
    )
