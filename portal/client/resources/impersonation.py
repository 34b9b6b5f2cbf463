"""Staff impersonation: the provider switches the session's user in place and rotates the
session cookie, so the caller must store the client's cookies again afterwards."""

from portal.client.models.users import User
from portal.client.resources.base import Resource


class ImpersonationResource(Resource):
    async def start(self, email: str) -> User:
        """Act as the user of ``email``; returns that user, now the session's current user."""
        return await self._switch("/api/impersonation", {"email": email})

    async def exit(self) -> User:
        """Leave the impersonation; returns the original user."""
        return await self._switch("/api/impersonation/exit", None)

    async def _switch(self, path: str, body: dict[str, str] | None) -> User:
        response = await self._client.request("POST", path, json=body)
        self._client.adopt_cookies(response)
        return self._parse(User, self._client.decode(response))
