"""Events a handler is handed must reach the browser: a handler that calls a helper answering
events (a sign-out, a redirect) or another event handler, and drops what it answers, leaves the
user on a dead session or a stale page without a word. This reads every state module and fails
on any such call whose result is neither returned, yielded nor kept."""

import ast
from pathlib import Path

import pytest

import portal

PORTAL = Path(portal.__file__).parent
UI_PACKAGES = ("state", "pages", "components")


def _modules() -> list[Path]:
    return sorted(path for package in UI_PACKAGES for path in (PORTAL / package).rglob("*.py"))


def _is_event_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr == "event"


def _answers_something(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for node in ast.walk(function):
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        answered = isinstance(node, ast.Return) and node.value is not None
        if answered and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            return True
    return False


def _event_answering_names() -> set[str]:
    """Helpers annotated to answer ``Events``, and every event handler that answers."""
    names: set[str] = set()
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            answers = node.returns is not None and "Events" in ast.unparse(node.returns)
            handler = any(_is_event_decorator(d) for d in node.decorator_list)
            if answers or (handler and _answers_something(node)):
                names.add(node.name)
    return names


def _dropped_calls(path: Path, names: set[str]) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Expr):
            continue
        call = node.value.value if isinstance(node.value, ast.Await) else node.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "self"
            and call.func.attr in names
        ):
            found.append(f"{path.name}:{node.lineno} {ast.unparse(node)}")
    return found


def test_the_check_knows_the_helpers_that_answer_events() -> None:
    assert {"report", "_end", "check_access", "log_out"} <= _event_answering_names()


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(PORTAL)))
def test_no_handler_drops_the_events_it_is_handed(path: Path) -> None:
    assert _dropped_calls(path, _event_answering_names()) == []


def test_the_check_finds_a_dropped_report(tmp_path: Path) -> None:
    module = tmp_path / "state.py"
    module.write_text(
        "class S:\n"
        "    async def search(self, error):\n"
        "        await self.report(error)\n"
        "        return None\n"
        "    async def kept(self, error):\n"
        "        yield await self.report(error)\n"
    )
    assert _dropped_calls(module, {"report"}) == ["state.py:3 await self.report(error)"]
