"""The import of client references (spec 2 and 5): a CSV chosen, checked, then sent whole."""

import reflex as rx

from portal.client import ProviderError, ValidationFailed
from portal.client_references import INVALID_CSV_FILE, is_csv_file
from portal.i18n import N_, gettext, ngettext
from portal.pages.services.state import ServicesState
from portal.settings import get_settings
from portal.state.failures import reports_failures
from portal.state.messages import MessagesState
from portal.state.session import SessionState

UPLOAD_ID = "client-references-file"
# The provider's own words for its 413, said before the file travels any further.
TOO_LARGE = N_("The file is larger than the limit of {max} MB.")
MEGABYTE = 1024 * 1024


class ImportState(SessionState):
    open: bool = False
    file_name: str = ""
    error: str = ""
    # The provider's line report of a refused file: "line 3: unknown reference …".
    report_lines: rx.Field[list[str]] = rx.field(default_factory=list)
    sending: bool = False

    _content: bytes = b""
    _content_type: str = ""

    def _reset(self) -> None:
        self.file_name = self.error = ""
        self.report_lines = []
        self._content, self._content_type = b"", ""

    @rx.event
    def set_open(self, value: bool):
        self.open = value
        self._reset()

    def _refuse(self) -> None:
        self._reset()
        self.error = gettext(self.current_language, INVALID_CSV_FILE)

    @rx.event
    async def choose(self, files: list[rx.UploadFile]):
        """The chosen file, checked on name and type (spec 5) before anything is sent."""
        if not files:
            return
        chosen = files[0]
        name = chosen.filename or ""
        if not is_csv_file(name, chosen.content_type):
            self._refuse()
            return
        limit = get_settings().import_max_bytes
        content = await chosen.read(limit + 1)
        self._reset()
        if len(content) > limit:
            self.error = gettext(self.current_language, TOO_LARGE, max=f"{limit / MEGABYTE:g}")
            return
        self.file_name = name
        self._content, self._content_type = content, chosen.content_type or "text/csv"

    @rx.event
    @reports_failures
    async def validate(self):
        if not self.file_name:
            return
        self.sending, self.error, self.report_lines = True, "", []
        yield
        try:
            client = await self.provider()
            result = await client.services.import_client_references(
                self.file_name, self._content, self._content_type
            )
        except ValidationFailed as error:
            self.sending = False
            self.error = error.message
            self.report_lines = [
                f"{violation.property_path}: {violation.message}"
                if violation.property_path
                else violation.message
                for violation in error.violations
            ]
            return
        except ProviderError as error:
            self.sending = False
            if error.code != 413:
                raise
            self.error = error.message
            return
        self.sending = False
        self.open = False
        self._reset()
        messages = await self.get_state(MessagesState)
        text = ngettext(
            self.current_language,
            "{count} service updated.",
            "{count} services updated.",
            result.imported,
        )
        messages.show(text, "success")
        # The list and its counts load again, as the spec asks after an import.
        yield ServicesState.load
