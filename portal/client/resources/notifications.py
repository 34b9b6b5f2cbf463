"""The signed-in user's notification preferences, and the extra notice addresses of a company
(its user managers')."""

import builtins

from portal.client.errors import invalid_response
from portal.client.models.notifications import (
    NoticeAddress,
    NotificationPreferences,
    PreferencesChange,
)
from portal.client.resources.base import Resource
from portal.client.resources.users import MERGE_PATCH

PREFERENCES = "/api/notification_preferences"


def _addresses_path(company_id: str) -> str:
    return f"/api/companies/{company_id}/notice_addresses"


class NotificationsResource(Resource):
    async def preferences(self) -> NotificationPreferences:
        return await self._get(NotificationPreferences, PREFERENCES)

    async def update_preferences(self, change: PreferencesChange) -> NotificationPreferences:
        """Changes the fields ``change`` sets; the others stay."""
        return await self._send(
            NotificationPreferences,
            "PATCH",
            PREFERENCES,
            json=change.body(),
            content_type=MERGE_PATCH,
        )

    async def addresses(self, company_id: str) -> "builtins.list[NoticeAddress]":
        """The company's extra addresses, by e-mail (a plain JSON list, not a collection)."""
        found = await self._client.get_json(_addresses_path(company_id))
        if not isinstance(found, list):
            raise invalid_response(self._client.language)
        return [self._parse(NoticeAddress, address) for address in found]

    async def add_address(
        self, company_id: str, email: str, language: str, time_zone: str
    ) -> NoticeAddress:
        """Adds an address; the provider sends it the confirmation link."""
        body = {"email": email, "language": language, "timeZone": time_zone}
        return await self._send(NoticeAddress, "POST", _addresses_path(company_id), json=body)

    async def remove_address(self, company_id: str, address_id: str) -> None:
        await self._client.request("DELETE", f"{_addresses_path(company_id)}/{address_id}")
