"""Which origin a browser request comes from, and whether the portal trusts it (issue 18).

SameSite=Lax cookies keep most cross-site requests anonymous, but not a top-level navigation
nor a websocket, and not a sibling site of the same registrable domain. So the portal also looks
at who is asking: the ``Origin`` header (sent by browsers on every websocket, every POST and every
cross-origin fetch), else the origin of ``Referer``, else ``Sec-Fetch-Site``. A request without
any of them comes from no browser page (a server, a script, a typed URL) and is let through: its
cookies, if any, are its own. Neither Reflex nor FastAPI is imported here.
"""

from collections.abc import Iterable, Mapping

from portal.settings import origin_of

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def claimed_origin(headers: Mapping[str, str]) -> str | None:
    """The origin the browser names for the page behind the request, if it names one."""
    origin = headers.get("origin")
    if origin:
        # "null": a sandboxed frame, a data: URL, a redirect across origins: never ours.
        return "null" if origin.strip() == "null" else origin_of(origin)
    referer = headers.get("referer")
    if referer:
        return origin_of(referer)
    return None


def is_foreign(headers: Mapping[str, str], allowed: Iterable[str]) -> bool:
    """Whether a page of another origin than ``allowed`` sent the request."""
    origin = claimed_origin(headers)
    if origin is not None:
        return origin not in set(allowed)
    return headers.get("sec-fetch-site", "").lower() == "cross-site"
