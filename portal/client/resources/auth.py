"""Provider login and logout, and the password reset and account confirmation by e-mail link;
the session lives in the client's cookie jar."""

from urllib.parse import quote

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
            await self._client.request("POST", "/logout")
        finally:
            self._client.clear_cookies()

    async def request_reset(self, email: str) -> None:
        """Ask for a reset link by e-mail; the provider answers alike whether the e-mail exists."""
        await self._client.request("POST", "/reset", json={"email": email})

    async def reset_password(self, token: str, password: str) -> None:
        """Set the password with the token of a reset or an account confirmation link."""
        await self._client.request(
            "POST", f"/reset/{quote(token, safe='')}", json={"password": password}
        )
