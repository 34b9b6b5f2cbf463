"""The provider's API is its domain, not its demo: the routes and schemas answer from the
provider's own modules (models, catalogue, labels), and the demo data builds on those, never
the other way round, so a provider that loads its own data runs the same API."""

import ast
from collections.abc import Iterator
from pathlib import Path

import portal.provider

PROVIDER = Path(portal.provider.__file__).parent
# What may build the demo: the seed, the command line, and the demo data itself.
DEMO_IMPORTERS = ("seed.py", "cli/", "demo_data/")


def _imported_modules(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def test_only_the_seed_and_the_cli_import_the_demo_data() -> None:
    found = [
        f"{relative} imports {module}"
        for path in sorted(PROVIDER.rglob("*.py"))
        if not (relative := path.relative_to(PROVIDER).as_posix()).startswith(DEMO_IMPORTERS)
        for module in _imported_modules(path)
        if module.startswith("portal.provider.demo_data")
    ]
    assert found == []
