"""Pages are found, not listed: every route of the table gets exactly one page, its page
package's own. And no page package imports another."""

from collections import Counter
from pathlib import Path

import portal.pages
import portal.portal  # adds the pages, as the running app does
from portal import routes
from portal.components.page import PAGES
from tests.unit.imports import imported_modules


def test_every_route_has_exactly_one_page() -> None:
    registered = Counter(entry.route for entry in PAGES)
    assert set(registered) == {route.path for route in routes.ROUTES}
    assert max(registered.values()) == 1


def test_no_page_package_imports_another() -> None:
    """A page package is one screen: what two screens share lives in ``portal/components`` (the
    user form and delete dialog, say), so no page waits on another and none can loop back."""
    root = Path(portal.pages.__file__).parent
    packages = {path.name for path in root.iterdir() if (path / "__init__.py").exists()}
    crossings = [
        f"{path.relative_to(root)} imports {module}"
        for package in sorted(packages)
        for path in sorted((root / package).rglob("*.py"))
        for module in imported_modules(path)
        if (parts := module.split("."))[:2] == ["portal", "pages"]
        and len(parts) > 2
        and parts[2] in packages
        and parts[2] != package
    ]
    assert crossings == []
