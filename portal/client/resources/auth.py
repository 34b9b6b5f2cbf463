"""Provider login and logout, and the password reset and account confirmation by e-mail link;
the session lives in the client's cookie jar."""

from typing import Any
from urllib.parse import quote

import httpx

from portal.client.errors import invalid_response
from portal.client.hydra import uuid_from_iri
from portal.client.models.second_factor import Ceremony
from portal.client.models.sso import SsoLookup, SsoStart
from portal.client.resources.base import Resource


class AuthResource(Resource):
    # What the second step of the last password login takes: ``totp``, ``passkey``,
    # ``recovery_code`` (issue 52).
    second_factor_methods: tuple[str, ...] = ()

    async def login(self, username: str, password: str, time_zone: str = "") -> str | None:
        """Open a provider session; returns the user's uuid, read from ``Location``, or None
        when the password is right and the second factor is due (``second_step``): the jar then
        holds the pending login. ``time_zone``, the browser's, is the e-mails' until the user
        chooses one."""
        body = {"username": username, "password": password}
        if time_zone:
            body["timeZone"] = time_zone
        response = await self._client.request("POST", "/login", json=body)
        if response.status_code == 202:
            answer = self._client.decode(response)
            methods = answer.get("methods") if isinstance(answer, dict) else None
            self.second_factor_methods = tuple(m for m in methods or () if isinstance(m, str))
            return None
        return self._user_of(response)

    async def second_step(self, code: str, *, remember: bool) -> str:
        """The second step of a login, with a TOTP or a recovery code; returns the user's uuid.
        ``remember`` has the provider set a device cookie that skips this step for 30 days."""
        response = await self._client.request(
            "POST", "/login/second_factor", json={"code": code, "remember": remember}
        )
        return self._user_of(response)

    async def sso_lookup(self, email: str) -> SsoLookup:
        """Whether single sign-on covers ``email``'s domain, and whether a password may still
        be used (issue 52)."""
        return await self._send(SsoLookup, "POST", "/login/sso/lookup", json={"email": email})

    async def sso_start(self, email: str, redirect_uri: str) -> SsoStart:
        """The identity provider's URL to send the browser to, and the ``state`` its callback
        brings back to ``redirect_uri``."""
        body = {"email": email, "redirectUri": redirect_uri}
        return await self._send(SsoStart, "POST", "/login/sso/start", json=body)

    async def sso_finish(self, state: str, code: str, error: str = "") -> str:
        """The callback's values; opens the provider session and returns the user's uuid."""
        body = {"state": state, "code": code, "error": error}
        response = await self._client.request("POST", "/login/sso/finish", json=body)
        return self._user_of(response)

    async def passkey_options(self) -> Ceremony:
        """Options for ``navigator.credentials.get``: any passkey, or with the jar's pending
        login that user's (issue 52)."""
        return await self._send(Ceremony, "POST", "/login/passkey/options")

    async def passkey_sign_in(
        self, challenge_token: str, credential: dict[str, Any], *, remember: bool = False
    ) -> str:
        """Logs in with the browser's assertion; returns the user's uuid."""
        body = {"challengeToken": challenge_token, "credential": credential, "remember": remember}
        response = await self._client.request("POST", "/login/passkey", json=body)
        return self._user_of(response)

    def _user_of(self, response: httpx.Response) -> str:
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
