"""Every action the provider writes to the audit log has a label in both languages: the audit
screen showed ``integration.ticket_replies``, ``webhook.create`` and the command-line importer's
``import.services`` as they are stored."""

import ast
from pathlib import Path

import pytest

from portal.components.audit.models import ACTIONS
from portal.i18n import gettext
from portal.provider.integration.kinds import KINDS

PROVIDER = Path(__file__).resolve().parents[2] / "portal" / "provider"
# The functions that write an entry, and the position of their action among the arguments.
WRITERS = {"record": 2, "record_refusal": 2, "record_feed_event": 1}


def _name(call: ast.Call) -> str:
    function = call.func
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


def _strings_assigned(scope: ast.AST, variable: str) -> set[str]:
    return {
        node.value.value
        for node in ast.walk(scope)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and any(isinstance(target, ast.Name) and target.id == variable for target in node.targets)
    }


def _recorded_actions() -> set[str]:
    """The actions named in the provider's calls of the writers or of ``AuditLog(action=…)``: a
    literal, or the literals assigned to the variable passed (``action = "ticket.close"``); the
    integration API's ``f"integration.{kind}"`` and the importer's ``f"import.{kind}"`` stand
    for one action per kind."""
    actions = {f"{source}.{kind.path}" for kind in KINDS for source in ("integration", "import")}
    for path in PROVIDER.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for scope in ast.walk(tree):
            if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(scope):
                if not isinstance(call, ast.Call):
                    continue
                if _name(call) == "AuditLog":
                    named = [keyword.value for keyword in call.keywords if keyword.arg == "action"]
                    if not named:
                        continue
                    argument = named[0]
                elif _name(call) in WRITERS and len(call.args) > WRITERS[_name(call)]:
                    argument = call.args[WRITERS[_name(call)]]
                else:
                    continue
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    actions.add(argument.value)
                elif isinstance(argument, ast.Name) and (
                    found := _strings_assigned(scope, argument.id)
                ):
                    actions |= found
    return actions


def test_the_provider_records_the_actions_this_test_reads() -> None:
    # A change in how entries are written would leave the test below checking nothing.
    recorded = _recorded_actions()
    assert {"login", "ticket.close", "webhook.rotate", "integration.samples"} <= recorded
    assert {"token.revoke", "calendar_feed.revoke", "import.companies"} <= recorded


@pytest.mark.parametrize("action", sorted(_recorded_actions()))
def test_every_recorded_action_has_a_label(action: str) -> None:
    assert action in ACTIONS, f"{action} would show as it is stored"
    assert gettext("fr", ACTIONS[action]) != ACTIONS[action], f"{action} has no French label"
