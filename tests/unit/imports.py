"""What a module imports, for the tests that keep the layers apart (pages, provider domains)."""

import ast
from collections.abc import Iterator
from pathlib import Path


def imported_modules(path: Path) -> Iterator[str]:
    """Every module the file at ``path`` imports, imports inside functions included. ``from X
    import y`` yields ``X`` and ``X.y``, since ``y`` may be a module (``from portal.pages import
    users``). The project writes no relative imports."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
