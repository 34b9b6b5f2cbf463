"""The address of the user behind a request that came through reverse proxies (``TRUSTED_PROXIES``).

Each proxy appends to ``X-Forwarded-For`` the address it was reached from. Read from the right,
the addresses of trusted proxies are passed over; the first that is none of them is the user's:
what stands to its left was written by the user, or by a proxy nobody vouches for. A peer that
is no trusted proxy is the user itself, whatever header it sends. Neither Reflex nor FastAPI is
imported here: the portal's edge and the embedded provider read addresses the same way.
"""

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


def _address(text: str) -> Address | None:
    """An address as a proxy writes it (no port), an IPv4 one mapped into IPv6 unwrapped."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` is believed: addresses or networks (``10.0.0.0/8``)."""

    def __init__(self, entries: Iterable[str]) -> None:
        self.networks = tuple(
            ipaddress.ip_network(entry.strip(), strict=False) for entry in entries
        )

    def __contains__(self, host: object) -> bool:
        address = _address(host) if isinstance(host, str) else None
        return address is not None and any(address in network for network in self.networks)

    def client_address(self, peer: str | None, forwarded_for: str) -> str | None:
        """The user's address of a request from ``peer`` that carries ``forwarded_for`` (every
        ``X-Forwarded-For`` line of it, joined by commas)."""
        client = peer
        for hop in reversed(forwarded_for.split(",") if forwarded_for.strip() else []):
            if client not in self:
                break
            address = _address(hop)
            if address is None:
                # Not written by a proxy: the chain of trust ends at the one that passed it on.
                break
            client = str(address)
        return client


@lru_cache
def trusted_proxies(entries: tuple[str, ...]) -> TrustedProxies:
    """``TrustedProxies`` of the ``TRUSTED_PROXIES`` setting, parsed once."""
    return TrustedProxies(entries)
