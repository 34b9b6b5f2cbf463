"""The import of client references (spec 2 and 5): a CSV chosen and checked, then sent whole.

The file stays in the browser until Validate (issue 47, item 10): choosing it tells the state
only its name, type and size, which are checked here (spec 5); Validate posts it to Reflex's
upload route, whose handler streams it on to the provider. The state never holds its bytes (it
held up to 5 MiB per open dialog, serialized with every event), only its name and size.
"""

import reflex as rx

from portal.client import TooLarge, ValidationFailed
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
    file_size: int = 0
    error: str = ""
    # The provider's line report of a refused file: "line 3: unknown reference …".
    report_lines: rx.Field[list[str]] = rx.field(default_factory=list)
    sending: bool = False

    def _reset(self) -> None:
        self.file_name = self.error = ""
        self.file_size = 0
        self.report_lines = []

    @rx.event
    def set_open(self, value: bool):
        self.open = value
        self._reset()
        # The browser lets go of a file chosen in the dialog it closes (or opens again).
        return rx.clear_selected_files(UPLOAD_ID)

    def _refuse(self, message: str):
        """Clears the choice, in the state and in the browser, and says why (spec 5)."""
        self._reset()
        self.error = message
        return rx.clear_selected_files(UPLOAD_ID)

    @rx.event
    def choose(self, name: str, content_type: str, size: int):
        """The chosen file, checked on name, type and size before anything is sent."""
        self._reset()
        if not name:
            return None
        if not is_csv_file(name, content_type):
            return self._refuse(gettext(self.current_language, INVALID_CSV_FILE))
        limit = get_settings().import_max_bytes
        if size > limit:
            megabytes = f"{limit / MEGABYTE:g}"
            return self._refuse(gettext(self.current_language, TOO_LARGE, max=megabytes))
        self.file_name, self.file_size = name, size
        return None

    @rx.event
    @reports_failures
    async def validate(self, files: list[rx.UploadFile]):
        """Validate: the chosen file arrives through the upload route and goes on to the
        provider as it is read from the upload's spool, never whole in memory."""
        sent = files[0] if files else None
        if sent is None or not self.file_name:
            return
        # The file that arrives must be the one checked when it was chosen: a CSV of that size
        # (the browser's word about it was all the checks had).
        if not is_csv_file(self.file_name, sent.content_type) or sent.size != self.file_size:
            yield self._refuse(gettext(self.current_language, INVALID_CSV_FILE))
            return
        self.sending, self.error, self.report_lines = True, "", []
        yield
        try:
            client = await self.provider()
            result = await client.services.import_client_references(
                self.file_name, sent.file, sent.content_type or "text/csv"
            )
        except ValidationFailed as error:
            self.error = error.message
            self.report_lines = [
                f"{violation.property_path}: {violation.message}"
                if violation.property_path
                else violation.message
                for violation in error.violations
            ]
            return
        except TooLarge as error:
            self.error = error.message
            return
        finally:
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
        yield rx.clear_selected_files(UPLOAD_ID)
        # The list and its counts load again, as the spec asks after an import.
        yield ServicesState.load
