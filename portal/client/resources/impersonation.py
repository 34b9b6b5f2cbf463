"""Staff impersonation: the provider switches the session's user in place and rotates the
session cookie, so the caller must store the client's cookies again afterwards."""

from portal.client.models.users import User
from portal.client.resources.base import Resource

EXIT = "_exit"


class ImpersonationResource(Resource):
    async def start(self, email: str) -> User:
        """Act as the user of ``email``; returns that user, now the session's current user."""
        return await self._switch(email)

    async def exit(self) -> User:
        """Leave the impersonation; returns the original user."""
        return await self._switch(EXIT)

    async def _switch(self, target: str) -> User:
        response = await self._client.request("GET", "/api", params=[("_impersonate", target)])
        self._client.adopt_cookies(response)
        return self._parse(User, self._client.decode(response))
