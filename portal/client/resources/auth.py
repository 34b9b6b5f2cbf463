"""Provider login and logout; the session lives in the client's cookie jar."""

from portal.client.errors import invalid_response
from portal.client.hydra import uuid_from_iri
from portal.client.resources.base import Resource


class AuthResource(Resource):
    async def login(self, username: str, password: str) -> str:
        """Open a provider session; returns the user's uuid, read from ``Location``."""
        response = await self._client.request(
            "POST", "/login", json={"username": username, "password": password}
        )
        location = response.headers.get("Location", "")
        if not location:
            raise invalid_response(self._client.language)
        return uuid_from_iri(location)

    async def logout(self) -> None:
        """Close the provider session; the jar is emptied even if the provider cannot be told."""
        try:
            await self._client.request("GET", "/logout")
        finally:
            self._client.clear_cookies()
