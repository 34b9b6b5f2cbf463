"""One's own TOTP second factor (issue 18, item 10): its status, the set-up with a QR code and
a first code, then the ten recovery codes, shown once; new recovery codes on demand (issue
52)."""

import reflex as rx
import segno

from portal import routes
from portal.client import ValidationFailed
from portal.state.failures import reports_failures
from portal.state.session import SessionState


def qr_code(uri: str) -> str:
    """The otpauth URI as a data URI of an SVG drawn here: the page shows it in an image, so no
    markup from the provider enters the page. Dark on white, whatever the theme."""
    return segno.make(uri, error="m").svg_data_uri(scale=5, dark="#000", light="#fff")


class SecondFactorState(SessionState):
    loaded: bool = False
    enrolled: bool = False
    # How many passkeys the user has (issue 52): a second factor too.
    passkeys: int = 0
    # New recovery codes asked for: waiting for the user's confirmation.
    confirming_new_codes: bool = False
    recovery_codes_left: rx.Field[int] = rx.field(0)
    # The set-up under way: what to scan or type into the app, then the code it shows.
    qr_code: str = ""
    secret: str = ""
    setup_code: str = ""
    code_error: str = ""
    working: bool = False
    # Shown once, right after the set-up.
    recovery_codes: rx.Field[list[str]] = rx.field(default_factory=list)
    # The set-up was due (SECOND_FACTOR_REQUIRED): once done, the user goes on to the portal.
    continue_home: bool = False

    @rx.var
    def after_recovery_code(self) -> bool:
        """Opened by a login with a recovery code (issue 52)."""
        return self.router.url.query_parameters.get("signedInWith") == "recoveryCode"

    @rx.var
    def has_factor(self) -> bool:
        return self.enrolled or self.passkeys > 0

    @rx.var
    def step(self) -> str:
        if self.recovery_codes:
            return "codes"
        return "scan" if self.secret else ""

    @rx.event
    def set_setup_code(self, value: str):
        self.setup_code = value

    @rx.event
    @reports_failures
    async def load(self):
        self._clear_set_up()
        self.recovery_codes = []
        if not self._page_open():
            return
        status = await (await self.provider()).second_factor.status()
        self.enrolled, self.recovery_codes_left = status.enrolled, status.recovery_codes_left
        self.passkeys = status.passkeys
        self.loaded = True
        if status.has_factor and self.second_factor_due:
            await self._mark_second_factor_due(False)

    @rx.event
    @reports_failures(shown=True)
    async def start(self):
        if self.working:
            return
        self.working = True
        yield
        try:
            enrolment = await (await self.provider()).second_factor.start()
        finally:
            self.working = False
        self.secret, self.qr_code = enrolment.secret, qr_code(enrolment.otpauth_uri)

    @rx.event
    def cancel(self):
        self._clear_set_up()

    @rx.event
    @reports_failures(shown=True)
    async def confirm(self, _form: dict):
        code = self.setup_code.strip()
        if not code or self.working:
            return
        self.working = True
        self.code_error = ""
        yield
        try:
            codes = await (await self.provider()).second_factor.confirm(code)
        except ValidationFailed as error:
            self.code_error = error.message
            return
        finally:
            self.working = False
            self.setup_code = ""
        self._clear_set_up()
        self.recovery_codes = codes
        self.enrolled, self.recovery_codes_left = True, len(codes)
        self.continue_home = self.second_factor_due
        await self._mark_second_factor_due(False)

    @rx.event
    def finish(self):
        """The user has saved the recovery codes: they are not shown again."""
        self.recovery_codes = []
        if self.continue_home:
            self.continue_home = False
            return rx.redirect(routes.HOME.path)
        return None

    @rx.event
    def ask_new_codes(self):
        self.confirming_new_codes = True

    @rx.event
    def cancel_new_codes(self):
        self.confirming_new_codes = False

    @rx.event
    @reports_failures(shown=True)
    async def new_codes(self):
        """Ten new recovery codes, shown once; the old ones stop working."""
        if self.working:
            return
        self.working = True
        yield
        try:
            codes = await (await self.provider()).second_factor.new_recovery_codes()
        finally:
            self.working = False
            self.confirming_new_codes = False
        self.recovery_codes, self.recovery_codes_left = codes, len(codes)

    def _clear_set_up(self) -> None:
        self.secret = self.qr_code = self.setup_code = self.code_error = ""
