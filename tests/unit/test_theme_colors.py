"""The style sheet ships the tokens of THEME_COLORS only (issue 11): a color scale the code names
and the list lacks would render without its colors. Every Radix scale named in a string of the
portal's code must be in the list."""

import re
from pathlib import Path

from rxconfig import THEME_COLORS

PORTAL = Path(__file__).resolve().parents[2] / "portal"
RADIX_SCALES = (
    *("gray", "mauve", "slate", "sage", "olive", "sand", "amber", "blue", "bronze", "brown"),
    *("crimson", "cyan", "gold", "grass", "green", "indigo", "iris", "jade", "lime", "mint"),
    *("orange", "pink", "plum", "purple", "red", "ruby", "sky", "teal", "tomato", "violet"),
    "yellow",
)
_NAMED = re.compile(r"""["'](""" + "|".join(RADIX_SCALES) + r""")["']""")


def test_every_color_the_portal_names_is_shipped() -> None:
    named = {
        match.group(1): path.relative_to(PORTAL.parent).as_posix()
        for path in PORTAL.rglob("*.py")
        for match in _NAMED.finditer(path.read_text(encoding="utf-8"))
    }
    missing = {color: where for color, where in named.items() if color not in THEME_COLORS}
    assert not missing, f"add these scales to THEME_COLORS in rxconfig.py: {missing}"
    assert set(named) >= {"purple", "gray", "red", "green"}  # the scan reads the code
