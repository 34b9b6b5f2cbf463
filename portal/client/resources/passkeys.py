"""The signed-in user's passkeys (issue 52): listed, registered in two calls (options for the
browser, then its answer), renamed and deleted."""

import builtins
from typing import Any

from portal.client.models.second_factor import Ceremony, NewPasskey, Passkey
from portal.client.resources.base import Resource

PASSKEYS = "/api/passkeys"


class PasskeysResource(Resource):
    async def list(self) -> "builtins.list[Passkey]":
        data = await self._client.get_json(PASSKEYS)
        items = data if isinstance(data, builtins.list) else []
        return [self._parse(Passkey, item) for item in items]

    async def registration_options(self) -> Ceremony:
        return await self._send(Ceremony, "POST", "/api/passkey_registrations")

    async def register(
        self, challenge_token: str, name: str, credential: dict[str, Any]
    ) -> NewPasskey:
        body = {"challengeToken": challenge_token, "name": name, "credential": credential}
        return await self._send(NewPasskey, "POST", PASSKEYS, json=body)

    async def rename(self, passkey_id: str, name: str) -> Passkey:
        return await self._send(Passkey, "PATCH", f"{PASSKEYS}/{passkey_id}", json={"name": name})

    async def delete(self, passkey_id: str) -> None:
        await self._client.request("DELETE", f"{PASSKEYS}/{passkey_id}")
