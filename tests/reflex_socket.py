"""A websocket client that speaks Reflex's event protocol as the compiled front end does
(Socket.IO over Engine.IO 4 on ``/_event``, the boot event inside the CONNECT packet), for the
clients a browser cannot play: one that holds another tab's token, or that connects from another
loopback address or with headers of its own. Every frame it receives is kept."""

import asyncio
import json
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlsplit

import websockets

ROOT_STATE = "reflex___state____state"
HYDRATE_AND_LOAD = f"{ROOT_STATE}.hydrate_and_load"
NAMESPACE = "/_event"
STEP_SECONDS = 30.0

Update = dict[str, Any]


def router_data(path: str) -> dict[str, Any]:
    return {"pathname": path, "asPath": path, "query": {}}


class ReflexSocket:
    """``first``: the boot event of a page's first connection, which carries the hashes of its
    compiled defaults; otherwise that of a page reconnecting (``portal.reconnect``)."""

    def __init__(
        self,
        url: str,
        token: str,
        path: str,
        *,
        cookie: str = "",
        forwarded_for: str = "",
        local_address: str | None = None,
        first: bool = True,
    ) -> None:
        self.url = (
            f"ws://{urlsplit(url).netloc}{NAMESPACE}/?EIO=4&transport=websocket&token={token}"
        )
        self.path = path
        self.headers = {
            name: value
            for name, value in (("Cookie", cookie), ("X-Forwarded-For", forwarded_for))
            if value
        }
        self.local_address = local_address
        self.first = first
        self.frames: list[str] = []
        self.updates: asyncio.Queue[Update] = asyncio.Queue()
        self.new_token = ""
        self._connection: Any = None
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Self:
        options = {"local_addr": (self.local_address, 0)} if self.local_address else {}
        self._connection = await websockets.connect(
            self.url, additional_headers=self.headers, max_size=None, open_timeout=STEP_SECONDS,
            **options,
        )  # fmt: skip
        greeting = str(await self._connection.recv())
        assert greeting.startswith("0{"), greeting
        payload: dict[str, Any] = {"hashes": {}} if self.first else {}
        boot = {"name": HYDRATE_AND_LOAD, "payload": payload, "router_data": router_data(self.path)}
        await self._connection.send(f"40{NAMESPACE}," + json.dumps({"event": boot}))
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self._connection.close()
        if self._reader is not None:
            self._reader.cancel()
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        prefix = f"42{NAMESPACE},"
        async for message in self._connection:
            text = str(message)
            self.frames.append(text)
            if text == "2":  # Engine.IO's ping
                await self._connection.send("3")
            elif text.startswith(prefix):
                name, *data = json.loads(text[len(prefix) :])
                if name == "event" and data:
                    self.updates.put_nowait(data[0])
                elif name == "new_token" and data:
                    self.new_token = str(data[0])

    async def emit(self, name: str, payload: dict[str, Any] | None = None) -> None:
        event = {"name": name, "payload": payload or {}, "router_data": router_data(self.path)}
        await self._connection.send(f"42{NAMESPACE}," + json.dumps(["event", event]))

    async def until(self, found: Callable[[Update], Any]) -> Any:
        """Reads updates until ``found`` returns something true for one; returns it."""
        async with asyncio.timeout(STEP_SECONDS):
            while True:
                if answer := found(await self.updates.get()):
                    return answer


def state_value(update: Update, state: str, var: str) -> Any:
    """The value ``update`` gives ``var`` of the state named ``state`` (a var travels with a
    suffix of its type), or None."""
    values = (update.get("delta") or {}).get(state) or {}
    for name, value in values.items():
        if name == var or name.startswith(f"{var}_rx_"):
            return value
    return None
