"""Every fact the provider writes in an audit entry's details has a label in both languages,
and so does every code it writes as a value (a login's method, a refusal's reason, true or
false): the audit screen showed ``token_name``, ``method: password`` and the like as they are
stored, in English on French screens."""

import ast
from pathlib import Path

import pytest

from portal.client.models import AuditEntry
from portal.components.audit.models import DETAILS, VALUES, YES_NO, AuditRow
from portal.i18n import gettext
from portal.provider.accounts.queries import AUDITED_PEOPLE
from portal.provider.integration.batch import BatchResult

PROVIDER = Path(__file__).resolve().parents[2] / "portal" / "provider"
WRITERS = {"record", "record_refusal", "record_feed_event"}
DETAIL = "detail"


def _name(call: ast.Call) -> str:
    function = call.func
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


def _modules() -> list[ast.Module]:
    return [ast.parse(path.read_text(encoding="utf-8")) for path in PROVIDER.rglob("*.py")]


def _functions(module: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(module) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _calls(scope: ast.AST, names: set[str]) -> list[ast.Call]:
    return [c for c in ast.walk(scope) if isinstance(c, ast.Call) and _name(c) in names]


def _named_parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = function.args
    return {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}


def _strings(nodes: list[ast.expr | None]) -> set[str]:
    return {n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _keys_of(value: ast.expr) -> set[str]:
    """The literal keys of a dict written out (or of either dict of a choice), or of one built
    from a tuple of names."""
    if isinstance(value, ast.IfExp):
        return _keys_of(value.body) | _keys_of(value.orelse)
    if isinstance(value, ast.Dict):
        return _strings(value.keys)
    if isinstance(value, ast.DictComp) and isinstance(value.generators[0].iter, ast.Tuple):
        return _strings(list(value.generators[0].iter.elts))
    return set()


def _detail_dicts(scope: ast.AST) -> set[str]:
    """The keys put in a ``detail`` dict: assigned, merged in, set one by one, or passed as
    ``AuditLog(detail=…)``."""
    keys: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign) and node.value:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == DETAIL:
                    keys |= _keys_of(node.value)
                elif (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == DETAIL
                ):
                    keys |= _strings([target.slice])
        elif isinstance(node, ast.Call) and _name(node) == "AuditLog":
            for keyword in node.keywords:
                if keyword.arg == DETAIL:
                    keys |= _keys_of(keyword.value)
    return keys


def _recorded_details() -> set[str]:
    """The keys of the details the provider writes: the keyword arguments of its writers and
    of the functions that pass their ``**detail`` on to one, beyond the parameters each names;
    the ``detail`` dicts of the functions that write; an integration batch's counts."""
    keys = {name for name in BatchResult.model_fields if name != "kind"}
    for module in _modules():
        functions = _functions(module)
        # Private helpers: a name means the function of its own module.
        forwarders = {
            f.name: f for f in functions if f.args.kwarg is not None and _calls(f, WRITERS)
        }
        writing = WRITERS | set(forwarders)
        for function in functions:
            if not _calls(function, writing | {"AuditLog"}):
                continue
            keys |= _detail_dicts(function)
            for call in _calls(function, writing):
                forwarder = forwarders.get(_name(call))
                named = _named_parameters(forwarder) if forwarder else set()
                keys |= {k.arg for k in call.keywords if k.arg is not None and k.arg not in named}
    writer_parameters = {"actor", "subject", "impersonator", "user", "request", "db"}
    return keys - writer_parameters - set(AUDITED_PEOPLE)


def test_the_provider_records_the_details_this_test_reads() -> None:
    # A change in how entries are written would leave the test below checking nothing.
    expected = {"token_name", "method", "fields", "impersonated_email", "via", "received"}
    assert expected <= _recorded_details()


@pytest.mark.parametrize("key", sorted(_recorded_details()))
def test_every_recorded_detail_has_a_label(key: str) -> None:
    assert key in DETAILS, f"{key} would show as it is stored"
    assert gettext("fr", DETAILS[key]) != DETAILS[key], f"{key} has no French label"


def _recorded_codes() -> set[tuple[str, str]]:
    """The literal values that the functions writing entries put under the keys whose values
    are codes: passed by name (``reason="chain"``) or in a dict (``{"via": "cli"}``)."""
    codes: set[tuple[str, str]] = set()
    for module in _modules():
        functions = _functions(module)
        forwarders = {f.name for f in functions if f.args.kwarg is not None and _calls(f, WRITERS)}
        for function in functions:
            if not _calls(function, WRITERS | forwarders | {"AuditLog"}):
                continue
            for node in ast.walk(function):
                pairs: list[tuple[str | None, ast.expr | None]] = []
                if isinstance(node, ast.Call):
                    pairs = [(keyword.arg, keyword.value) for keyword in node.keywords]
                elif isinstance(node, ast.Dict):
                    pairs = [
                        (key.value if isinstance(key, ast.Constant) else None, value)
                        for key, value in zip(node.keys, node.values, strict=True)
                    ]
                for key, value in pairs:
                    if key in VALUES and isinstance(value, ast.Constant):
                        codes.add((key, str(value.value)))
    return codes


def test_the_provider_writes_the_codes_this_test_reads() -> None:
    expected = {("method", "password"), ("method", "sso"), ("via", "cli"), ("reason", "chain")}
    assert expected <= _recorded_codes()


@pytest.mark.parametrize(("key", "code"), sorted(_recorded_codes()))
def test_every_recorded_code_has_a_label(key: str, code: str) -> None:
    label = VALUES[key].get(code) or YES_NO.get(code)
    assert label is not None, f"{key}: {code} would show as it is stored"
    assert gettext("fr", label) != label, f"{key}: {code} has no French label"


def test_codes_and_truth_values_read_in_the_screens_language() -> None:
    entry = AuditEntry(
        id="1",
        action="login",
        detail={"method": "passkey", "second_factor": "True", "name": "password"},
    )
    assert AuditRow.of(entry, "fr", "UTC").detail == (
        "Méthode : clé d'accès · Nom : password · Second facteur : oui"
    )
    assert AuditRow.of(entry, "en", "UTC").detail == (
        "Method: passkey · Name: password · Second factor: yes"
    )
    assert {gettext("fr", label) for label in YES_NO.values()} == {"oui", "non"}
