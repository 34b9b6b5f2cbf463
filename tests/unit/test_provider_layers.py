"""The provider's API is its domain, not its demo: the schemas and routes answer from the
provider's own modules (models, catalogue, labels), and the demo data builds on those, never
the other way round, so a provider that loads its own data runs the same API."""

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import portal.provider

PROVIDER = Path(portal.provider.__file__).parent
API_PACKAGES = ("schemas", "routes")


def _imported_modules(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


@pytest.mark.parametrize("package", API_PACKAGES)
def test_the_api_never_imports_the_demo_data(package: str) -> None:
    found = [
        f"{path.relative_to(PROVIDER)} imports {module}"
        for path in sorted((PROVIDER / package).rglob("*.py"))
        for module in _imported_modules(path)
        if module.startswith("portal.provider.demo_data")
    ]
    assert found == []
