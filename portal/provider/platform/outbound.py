"""Requests the provider makes to addresses its customers chose: the webhooks (issue 51,
item 4). Guarded against server-side request forgery (docs/decisions/webhooks.md):

- only ``https://`` URLs, without credentials in them;
- the host's addresses are resolved and every one must be public: no loopback, private,
  shared, link-local (the cloud metadata address 169.254.169.254 among them), multicast,
  reserved or unspecified address, IPv4 in IPv6 included — checked at registration and again
  at each delivery, because a name may point elsewhere by then;
- the request connects to the address that was checked, not to a second resolution, and
  verifies the certificate against the URL's host name (TLS SNI);
- no redirect is followed, the body read is at most ``MAX_BODY`` bytes, the whole exchange
  bounded by ``WEBHOOK_TIMEOUT_SECONDS``; no proxy from the environment is used.

``WEBHOOK_ALLOWED_HOSTS`` names hosts let through whatever their addresses (tests, a private
deployment's own receivers); ``WEBHOOK_CA_FILE`` adds that deployment's certificate authority.
"""

import ipaddress
import socket
import ssl
import time
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import SplitResult, urlsplit

import httpx

from portal.i18n import N_
from portal.settings import get_settings

MAX_BODY = 4096
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

NOT_HTTPS = N_("The URL must start with https://.")
MALFORMED = N_("The URL must name a host, without a user name or password.")
UNRESOLVED = N_("The host name {host} could not be resolved.")
INTERNAL = N_("{host} leads to an internal address ({address}): only public addresses are allowed.")

# Besides what ``ipaddress`` calls non-global: the metadata addresses of the clouds (AWS's
# IPv6 one is in fd00::/8, already private; listed so that the rule reads whole).
_METADATA = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)


class Refused(Exception):
    """A URL the provider will not call: ``message`` (a message id) with ``fields``."""

    def __init__(self, message: str, **fields: str) -> None:
        super().__init__(message.format(**fields))
        self.message = message
        self.fields = fields


@dataclass(frozen=True)
class Answer:
    """What a receiver answered: its status, at most ``MAX_BODY`` bytes of its body as text,
    and how long it took."""

    status: int
    excerpt: str
    latency_ms: int


def is_public(address: Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address):
        mapped = address.ipv4_mapped or address.sixtofour
        if mapped is not None:
            return is_public(mapped)
    return address.is_global and not address.is_multicast and address not in _METADATA


def resolve(host: str, port: int) -> list[Address]:
    """The addresses of ``host`` (the system's resolver; tests replace it)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [ipaddress.ip_address(info[4][0]) for info in infos]


def _parts(url: str) -> tuple[SplitResult, str, int]:
    try:
        parts = urlsplit(url.strip())
        port = parts.port or 443
    except ValueError as error:
        raise Refused(MALFORMED) from error
    if parts.scheme.lower() != "https":
        raise Refused(NOT_HTTPS)
    host = (parts.hostname or "").rstrip(".")
    if not host or parts.username is not None or parts.password is not None:
        raise Refused(MALFORMED)
    return parts, host, port


def allowed_host(host: str) -> bool:
    return host.lower() in {entry.strip().lower() for entry in get_settings().webhook_allowed_hosts}


@dataclass(frozen=True)
class Target:
    parts: SplitResult
    host: str
    port: int
    addresses: list[Address]


def checked(url: str) -> Target:
    """``url`` with its host's addresses, each of them checked; ``Refused`` otherwise."""
    parts, host, port = _parts(url)
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            addresses = resolve(host, port)
        except (OSError, UnicodeError) as error:
            raise Refused(UNRESOLVED, host=host) from error
    if not addresses:
        raise Refused(UNRESOLVED, host=host)
    if not allowed_host(host):
        for address in addresses:
            if not is_public(address):
                raise Refused(INTERNAL, host=host, address=str(address))
    return Target(parts, host, port, addresses)


@lru_cache
def _tls(ca_file: str) -> ssl.SSLContext:
    context = ssl.create_default_context()
    if ca_file:
        context.load_verify_locations(cafile=ca_file)
    return context


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url`` after checking its addresses, on the first of them; raises
    ``Refused``, or httpx's errors when the receiver cannot be reached in time."""
    target = checked(url)
    address = target.addresses[0]
    literal = f"[{address}]" if address.version == 6 else str(address)
    on_address = target.parts._replace(netloc=f"{literal}:{target.port}").geturl()
    settings = get_settings()
    host = target.host
    host_header = host if target.port == 443 else f"{host}:{target.port}"
    started = time.perf_counter()
    with (
        httpx.Client(
            verify=_tls(settings.webhook_ca_file),
            timeout=settings.webhook_timeout_seconds,
            follow_redirects=False,
            trust_env=False,
        ) as client,
        client.stream(
            "POST",
            on_address,
            content=body,
            headers={**headers, "Host": host_header},
            extensions={"sni_hostname": host},
        ) as response,
    ):
        excerpt = b""
        for chunk in response.iter_bytes():
            excerpt += chunk
            if len(excerpt) >= MAX_BODY:
                break
            # httpx bounds each read; a receiver dripping its answer is bounded here as a whole.
            if time.perf_counter() - started > settings.webhook_timeout_seconds:
                raise httpx.ReadTimeout("The answer took longer than the timeout.")
    latency = round((time.perf_counter() - started) * 1000)
    return Answer(
        status=response.status_code,
        excerpt=excerpt[:MAX_BODY].decode("utf-8", "replace"),
        latency_ms=latency,
    )
