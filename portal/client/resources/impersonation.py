"""Staff impersonation: the provider switches the session's user in place."""

from portal.client.resources.base import Resource

EXIT = "_exit"


class ImpersonationResource(Resource):
    async def start(self, email: str) -> None:
        await self._client.request("GET", "/api", params=[("_impersonate", email)])

    async def exit(self) -> None:
        await self._client.request("GET", "/api", params=[("_impersonate", EXIT)])
