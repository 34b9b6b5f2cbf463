"""iCalendar (RFC 5545) content lines for the maintenance feed: escaped values, folded lines.

Written here rather than through the ``icalendar`` package's components, which spent about
30 µs per line of a feed (an object per property and parameter, a fold that encodes each
character on its own): four fifths of a 2 000-event feed's time. The rules are few and are the
ones that package applies, so the bytes are the same (docs/decisions/calendar-feed-speed.md);
the tests read every feed back with that package.
"""

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime

from portal.provider.maintenances.queries import aware

# A line is folded before its 75th octet (RFC 5545 3.1), each continuation after a space.
LINE_OCTETS = 74
FOLD = b"\r\n "
# Not parted at a fold from the character they escape (TEXT's backslash, RFC 6868's caret):
# some calendar programs read them apart.
_ESCAPES = b"\\^"
_CONTINUATION = 0b1100_0000  # the two high bits of a UTF-8 byte inside a character: 10


def text(value: str) -> str:
    """A TEXT value (RFC 5545 3.3.11): backslash, semicolon and comma escaped, every line
    break as ``\\n``."""
    return (
        value.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def param(value: str) -> str:
    """A parameter value (RFC 5545 3.2): a double quote, a caret and a line break written as
    RFC 6868 says, the whole in double quotes when it holds a comma, semicolon or colon."""
    value = (
        value.replace("^", "^^")
        .replace('"', "^'")
        .replace("\r\n", "^n")
        .replace("\n", "^n")
        .replace("\r", "^n")
    )
    return f'"{value}"' if any(mark in value for mark in ",;:") else value


def utc(moment: datetime) -> str:
    """A DATE-TIME in UTC (RFC 5545 3.3.5, form 2); a moment without a time zone is UTC."""
    return aware(moment).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def line(name: str, value: str) -> bytes:
    """``NAME:value`` and its line break, folded; ``value`` already written (see ``text``)."""
    content = f"{name}:{value}".encode()
    if len(content) <= LINE_OCTETS:
        return content + b"\r\n"
    return FOLD.join(_segments(content)) + b"\r\n"


def component(name: str, lines: Iterable[bytes]) -> Iterator[bytes]:
    yield f"BEGIN:{name}\r\n".encode()
    yield from lines
    yield f"END:{name}\r\n".encode()


def _segments(content: bytes) -> Iterator[bytes]:
    """``content`` cut into pieces of at most ``LINE_OCTETS`` octets, never inside a
    character nor right after an escaping one."""
    start = 0
    while len(content) - start > LINE_OCTETS:
        cut = start + LINE_OCTETS
        while content[cut] & _CONTINUATION == 0b1000_0000:
            cut -= 1
        if cut - 1 > start and content[cut - 1] in _ESCAPES:
            cut -= 1
        yield content[start:cut]
        start = cut
    yield content[start:]
