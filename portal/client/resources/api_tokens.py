"""The signed-in user's personal API tokens (issue 51): made, listed and revoked by them."""

import datetime as dt
from collections.abc import Sequence

from portal.client.hydra import Page
from portal.client.models.api_tokens import PersonalToken
from portal.client.resources.base import Resource

PERSONAL_TOKENS = "/api/personal_tokens"
# The most tokens the page lists, newest first.
LISTED = 100


class PersonalTokensResource(Resource):
    async def list(self) -> Page[PersonalToken]:
        return await self._list(PersonalToken, PERSONAL_TOKENS, items_per_page=LISTED)

    async def create(
        self, name: str, scopes: Sequence[str], expires_at: dt.datetime
    ) -> PersonalToken:
        """A new token; its value is in the answer, and never again."""
        body = {"name": name, "scopes": list(scopes), "expiresAt": expires_at.isoformat()}
        return await self._send(PersonalToken, "POST", PERSONAL_TOKENS, json=body)

    async def revoke(self, token_id: str) -> None:
        await self._client.request("DELETE", f"{PERSONAL_TOKENS}/{token_id}")
