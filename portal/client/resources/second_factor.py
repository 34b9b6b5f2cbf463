"""The signed-in user's TOTP second factor and recovery codes, and an administrator's reset of
someone's second factors."""

from portal.client.models.second_factor import Enrolment, RecoveryCodes, SecondFactorStatus
from portal.client.resources.base import Resource


class SecondFactorResource(Resource):
    async def status(self) -> SecondFactorStatus:
        return await self._get(SecondFactorStatus, "/api/second_factor")

    async def start(self) -> Enrolment:
        """A new secret to scan; confirmed by the first right code."""
        return await self._send(Enrolment, "POST", "/api/second_factor")

    async def confirm(self, code: str) -> list[str]:
        """Confirms the enrolment with a code of the app; returns the ten recovery codes."""
        path = "/api/second_factor/confirm"
        return (await self._send(RecoveryCodes, "POST", path, json={"code": code})).recovery_codes

    async def new_recovery_codes(self) -> list[str]:
        """Ten new recovery codes; the old ones stop working (issue 52)."""
        path = "/api/second_factor/recovery_codes"
        return (await self._send(RecoveryCodes, "POST", path)).recovery_codes

    async def reset(self, user_id: str) -> None:
        """An administrator removes the factor of ``user_id`` (a lost phone)."""
        await self._client.request("DELETE", f"/api/users/{user_id}/second_factor")
