"""``ProviderClient``: one per portal user session, holding that user's provider cookie jar.

The portal keeps the jar server-side (``cookies()`` exports it, ``cookies=`` restores it); the
browser never sees the provider session. Paths are relative to the base URL, which includes the
provider prefix, e.g. ``http://127.0.0.1:8000/provider`` + ``/api/users``.
"""

import copy
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from decimal import Decimal
from types import TracebackType
from typing import IO, Any, Self

import httpx

from portal import metrics
from portal.client.errors import (
    NetworkError,
    ProviderError,
    RequestTimeout,
    error_from_response,
    invalid_response,
    network_error,
)
from portal.client.hydra import QueryParams
from portal.client.resources import (
    AuditLogResource,
    AuthResource,
    CompaniesResource,
    ImpersonationResource,
    InvoicesResource,
    MaintenancesResource,
    NotificationsResource,
    PasskeysResource,
    PersonalTokensResource,
    SecondFactorResource,
    SensorsResource,
    ServicesResource,
    ServiceTypesResource,
    TerminationDocumentsResource,
    TicketsResource,
    UsersResource,
    WebhooksResource,
)
from portal.logs import REQUEST_ID_HEADER, current_request_id, new_request_id, request_id_var

logger = logging.getLogger(__name__)

SESSION_COOKIE = "PATCHBAY_PROVIDER_SESSION"
# Set at the second step of a login to remember the browser: kept apart from the session's jar.
DEVICE_COOKIE = "PATCHBAY_PROVIDER_DEVICE"
JSON_LD = "application/ld+json"
# A multipart file: its name, its content (a file object is sent a chunk at a time) and its MIME
# type.
UploadFile = tuple[str, bytes | IO[bytes], str]


class ProviderClient:
    """The provider API for one portal session, as one caller speaks to it: the session's
    cookie jar and connections, with the caller's language and address. ``for_caller`` gives
    another caller (a tab in another language) its own view of the same session, so no call
    ever sends a language another caller set meanwhile."""

    def __init__(
        self,
        base_url: str,
        *,
        language: str = "en",
        cookies: dict[str, str] | None = None,
        forwarded_for: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 15.0,
    ) -> None:
        http = httpx.AsyncClient(
            base_url=base_url,
            cookies=cookies,
            headers={"Accept": JSON_LD},
            transport=transport,
            timeout=timeout,
        )
        self._bind(_Connection(http), language, forwarded_for)

    def for_caller(self, language: str, forwarded_for: str | None = None) -> "ProviderClient":
        """The same session (cookies, connections, calls in progress) for a caller with its
        own language and address."""
        view = copy.copy(self)  # then every attribute is bound anew
        view._bind(self._connection, language, forwarded_for)
        return view

    def _bind(self, connection: "_Connection", language: str, forwarded_for: str | None) -> None:
        self._connection = connection
        self._http = connection.http
        self._language = language
        self._forwarded_for = forwarded_for or None
        self.auth = AuthResource(self)
        self.users = UsersResource(self)
        self.companies = CompaniesResource(self)
        self.impersonation = ImpersonationResource(self)
        self.services = ServicesResource(self)
        self.service_types = ServiceTypesResource(self)
        self.termination_documents = TerminationDocumentsResource(self)
        self.maintenances = MaintenancesResource(self)
        self.invoices = InvoicesResource(self)
        self.tickets = TicketsResource(self)
        self.audit_log = AuditLogResource(self)
        self.sensors = SensorsResource(self)
        self.second_factor = SecondFactorResource(self)
        self.passkeys = PasskeysResource(self)
        self.notifications = NotificationsResource(self)
        self.personal_tokens = PersonalTokensResource(self)
        self.webhooks = WebhooksResource(self)

    @property
    def language(self) -> str:
        """The language of the provider's labels and messages, sent as ``Accept-Language``;
        fixed for this view (``for_caller`` makes another)."""
        return self._language

    @property
    def forwarded_for(self) -> str | None:
        """The portal user's address, so the provider's rate limits and audit log see them."""
        return self._forwarded_for

    def _headers(self, request_id: str, extra: dict[str, str] | None) -> dict[str, str]:
        """This caller's headers of one call."""
        headers = {"Accept-Language": self.language, REQUEST_ID_HEADER: request_id}
        if self.forwarded_for:
            headers["X-Forwarded-For"] = self.forwarded_for
        return headers | (extra or {})

    def cookies(self) -> dict[str, str]:
        """The provider cookies of this session by name, to persist on the portal's side."""
        return {cookie.name: cookie.value for cookie in self._http.cookies.jar if cookie.value}

    def clear_cookies(self) -> None:
        self._http.cookies.clear()

    def adopt_cookies(self, response: httpx.Response) -> None:
        """Keeps only the cookies a rotating response set: a jar restored from the portal's
        store holds them under no domain, so the old session would otherwise still be sent."""
        if response.cookies:
            self.use_cookies(dict(response.cookies.items()))

    def use_cookies(self, cookies: dict[str, str]) -> None:
        """Replaces every provider cookie of this client with ``cookies``."""
        self._http.cookies.clear()
        self._http.cookies.update(cookies)

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: QueryParams | None = None,
        json: Any = None,
        headers: dict[str, str] | None = None,
        files: Mapping[str, UploadFile] | None = None,
        data: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """Send one call; any failure is raised as a ``ProviderError`` subclass.

        ``files`` (with optional form ``data``) sends a multipart form, e.g. a CSV upload.
        """
        request_id = current_request_id() or new_request_id()
        started = time.perf_counter()
        self._connection.in_flight += 1
        try:
            response = await self._http.request(
                method,
                path,
                params=tuple(params or ()),
                json=json,
                headers=self._headers(request_id, headers),
                files=files,
                data=data,
            )
        except httpx.TransportError as error:
            raise _failed_call(
                network_error(error, self.language), method, started, request_id
            ) from error
        finally:
            await self._connection.call_ended()
        _observe_call(method, started, response.status_code)
        if response.is_error:
            raise _with_request_id(error_from_response(response), response, request_id)
        return response

    async def open_stream(
        self,
        path: str,
        *,
        params: QueryParams | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """A GET whose body is not read yet, for files passed on as they arrive (exports,
        documents); the caller reads it with ``aiter_bytes()`` and must ``aclose()`` it.
        A failure is read whole, closed and raised like ``request``'s."""
        request_id = current_request_id() or new_request_id()
        started = time.perf_counter()
        request = self._http.build_request(
            "GET",
            path,
            params=tuple(params or ()),
            headers=self._headers(request_id, {"Accept": "*/*", **(headers or {})}),
        )
        self._connection.in_flight += 1
        response: httpx.Response | None = None
        try:
            response = await self._http.send(request, stream=True)
        except httpx.TransportError as error:
            raise _failed_call(
                network_error(error, self.language), "GET", started, request_id
            ) from error
        finally:
            if response is None:
                await self._connection.call_ended()
        _observe_call("GET", started, response.status_code)
        # The stream counts as a call in progress until the caller closes it.
        response.stream = _OnClose(response.stream, self._connection.call_ended)
        if response.is_error:
            try:
                await response.aread()
            finally:
                await response.aclose()
            raise _with_request_id(error_from_response(response), response, request_id)
        return response

    async def get_json(self, path: str, params: QueryParams | None = None) -> Any:
        return self.decode(await self.request("GET", path, params=params))

    def decode(self, response: httpx.Response) -> Any:
        """The JSON body of a successful call, which the contract promises."""
        try:
            # Numbers with a fraction become Decimal, never float: amounts stay exact.
            return response.json(parse_float=Decimal)
        except ValueError as error:
            raise invalid_response(self.language) from error

    async def close(self, *, when_idle: bool = False) -> None:
        """Closes the connections to the provider (of every view of this session); with
        ``when_idle``, once the calls and streams in progress have ended (a download must not
        break because the client left a cache), otherwise at once."""
        await self._connection.close(when_idle=when_idle)

    @property
    def is_closed(self) -> bool:
        return self._http.is_closed

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()


def _observe_call(method: str, started: float, status: int) -> None:
    elapsed = time.perf_counter() - started
    metrics.CLIENT_CALL_LATENCY.labels(method, metrics.call_outcome(status)).observe(elapsed)
    if status >= 500:
        metrics.CLIENT_CALL_ERRORS.labels(metrics.call_outcome(status)).inc()


def _with_request_id(
    error: ProviderError, response: httpx.Response, request_id: str
) -> ProviderError:
    """The error with the id under which both sides logged the call (the provider's answer
    names it; a proxy's error page may not)."""
    error.request_id = response.headers.get(REQUEST_ID_HEADER) or request_id
    return error


def _failed_call(error: NetworkError, method: str, started: float, request_id: str) -> NetworkError:
    """Nothing came back: counted, logged under the request id, and raised with it."""
    kind = "timeout" if isinstance(error, RequestTimeout) else "network"
    metrics.CLIENT_CALL_LATENCY.labels(method, kind).observe(time.perf_counter() - started)
    metrics.CLIENT_CALL_ERRORS.labels(kind).inc()
    token = request_id_var.set(request_id)
    try:
        logger.warning("Provider call %s failed: %s", method, kind)
    finally:
        request_id_var.reset(token)
    error.request_id = request_id
    return error


class _Connection:
    """What every view of one session's client shares: the httpx client, which holds the
    session's cookie jar, and the calls and streams in progress."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.in_flight = 0
        # Whether ``close(when_idle=True)`` awaits the calls in progress.
        self.closing = False

    async def call_ended(self) -> None:
        self.in_flight -= 1
        if self.closing and self.in_flight == 0:
            await self.http.aclose()

    async def close(self, *, when_idle: bool) -> None:
        self.closing = True
        if not when_idle or self.in_flight == 0:
            await self.http.aclose()


class SharedTransport(httpx.AsyncBaseTransport):
    """One connection pool for many clients (one per portal session): each client keeps its
    own cookies and language, and closing one leaves the pool to the others. A pool and its TLS
    context per session cost a worker over a mebibyte for every signed-in tab."""

    def __init__(self, transport: httpx.AsyncBaseTransport) -> None:
        self._transport = transport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._transport.handle_async_request(request)

    async def aclose(self) -> None:
        """Nothing: the pool outlives the clients that use it."""


class _OnClose(httpx.AsyncByteStream):
    """A response body that calls ``on_close`` once, when it is closed (read to the end or
    closed by its reader)."""

    def __init__(
        self,
        stream: httpx.SyncByteStream | httpx.AsyncByteStream,
        on_close: Callable[[], Awaitable[None]],
    ) -> None:
        if not isinstance(stream, httpx.AsyncByteStream):
            raise TypeError("an async client answers with an async stream")
        self._stream = stream
        self._on_close: Callable[[], Awaitable[None]] | None = on_close

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            on_close, self._on_close = self._on_close, None
            if on_close is not None:
                await on_close()
