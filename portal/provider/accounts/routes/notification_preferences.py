"""The signed-in user's notification preferences (issue 50, item 4): which maintenance notices
and ticket updates they take, and the language and time zone of those e-mails. Until the user
chooses a language or a time zone, each login sets the browser's
(docs/decisions/maintenance-notices.md)."""

from functools import cache
from typing import Literal
from zoneinfo import available_timezones

from pydantic import Field

from portal.i18n import N_
from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError, Violation
from portal.provider.platform.hydra import ApiModel
from portal.provider.platform.models import MaintenanceNotices, TicketNotices, User
from portal.provider.platform.routing import ProviderRouter
from portal.provider.platform.security import CurrentPrincipal

router = ProviderRouter(tags=["notifications"])

PREFERENCES = "/api/notification_preferences"
UNKNOWN_TIME_ZONE = N_("This is not a time zone of the IANA database, such as Europe/Paris.")
INVALID_PREFERENCES = N_("The preferences are not valid: nothing was changed.")
# The portal's languages (portal.i18n.LANGUAGES).
Language = Literal["en", "fr"]


class PreferencesOut(ApiModel):
    type: Literal["NotificationPreferences"] = Field(
        default="NotificationPreferences", alias="@type"
    )
    maintenance_notices: MaintenanceNotices = Field(
        description="`all`: maintenances touching any service of the user's companies; `none`."
    )
    ticket_notices: TicketNotices = Field(
        description="`opened`: the tickets the user opened; `all`: every ticket of the user's "
        "companies; `none`."
    )
    language: Language = Field(description="The language of the e-mails.")
    time_zone: str = Field(description="The IANA time zone the e-mails show times in.")
    language_chosen: bool = Field(description="False while each login sets the browser's.")
    time_zone_chosen: bool = Field(description="False while each login sets the browser's.")


class PreferencesIn(ApiModel):
    maintenance_notices: MaintenanceNotices | None = None
    ticket_notices: TicketNotices | None = None
    language: Language | None = None
    time_zone: str | None = Field(default=None, max_length=64)


def is_time_zone(name: str) -> bool:
    return name in _zones()


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def _out(user: User) -> PreferencesOut:
    return PreferencesOut(
        maintenance_notices=user.maintenance_notices,
        ticket_notices=user.ticket_notices,
        language="fr" if user.language == "fr" else "en",
        time_zone=user.time_zone,
        language_chosen=user.language_chosen,
        time_zone_chosen=user.time_zone_chosen,
    )


@router.get(PREFERENCES, response_model=PreferencesOut)
def read_preferences(db: SessionDep, principal: CurrentPrincipal) -> PreferencesOut:
    return _out(db.get_one(User, principal.user.id))


@router.patch(PREFERENCES, response_model=PreferencesOut)
def update_preferences(
    body: PreferencesIn, db: SessionDep, principal: CurrentPrincipal
) -> PreferencesOut:
    """Merge-patch: the fields sent change, the others stay."""
    if body.time_zone is not None and not is_time_zone(body.time_zone):
        raise ApiError(
            422, INVALID_PREFERENCES, violations=[Violation("timeZone", UNKNOWN_TIME_ZONE)]
        )
    user = db.get_one(User, principal.user.id)
    if body.maintenance_notices is not None:
        user.maintenance_notices = body.maintenance_notices
    if body.ticket_notices is not None:
        user.ticket_notices = body.ticket_notices
    if body.language is not None:
        user.language, user.language_chosen = body.language, True
    if body.time_zone is not None:
        user.time_zone, user.time_zone_chosen = body.time_zone, True
    db.add(user)
    db.commit()
    return _out(user)
