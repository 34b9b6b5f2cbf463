"""The provider's layers: the app over the domains, the domains over platform, no arrow going
up (docs/decisions/provider-domains.md).

- ``platform`` imports no domain and nothing of the app;
- a domain (``accounts``, ``services``…) imports only ``platform`` and itself;
- the app (the modules at the top of ``portal/provider`` and ``cli``, ``demo_data``,
  ``migrations``) may import every domain, and only the seed and the command line build the
  demo: the API answers from the provider's own modules, so a provider that loads its own data
  runs the same API;
- the provider and the client never import Reflex, and of the portal the provider uses only the
  modules both sides share.
"""

import subprocess
import sys
from pathlib import Path

import pytest

import portal.client
import portal.provider
from tests.unit.imports import imported_modules

PROVIDER = Path(portal.provider.__file__).parent
CLIENT = Path(portal.client.__file__).parent
APP_PACKAGES = {"cli", "demo_data", "migrations"}
DOMAINS = sorted(
    path.name
    for path in PROVIDER.iterdir()
    if (path / "__init__.py").exists() and path.name not in {*APP_PACKAGES, "platform"}
)
# What may build the demo: the seed, the command line, and the demo data itself.
DEMO_IMPORTERS = ("seed.py", "cli/", "demo_data/")
# The portal's modules the provider shares with the portal (none of them imports Reflex).
SHARED = {
    "portal.client_references",
    "portal.docs_pdf",
    "portal.forwarded",
    "portal.i18n",
    "portal.logs",
    "portal.markup",
    "portal.metrics",
    "portal.origins",
    "portal.permissions",
    "portal.private_files",
    "portal.request_timing",
    "portal.routes",
    "portal.settings",
    "portal.validation",
}


def _layer(module: str) -> str | None:
    """``platform``, a domain's name or ``app`` for a module of the provider; None for any
    other module, and for the package ``portal.provider`` itself (a docstring)."""
    parts = module.split(".")
    if parts[:2] != ["portal", "provider"] or len(parts) == 2:
        return None
    return parts[2] if parts[2] == "platform" or parts[2] in DOMAINS else "app"


def _crossings(package: str, allowed: set[str | None]) -> list[str]:
    return [
        f"{path.relative_to(PROVIDER)} imports {module}"
        for path in sorted((PROVIDER / package).rglob("*.py"))
        for module in imported_modules(path)
        if _layer(module) not in allowed
    ]


def test_the_domains_are_found() -> None:
    assert DOMAINS == [
        "accounts",
        "billing",
        "integration",
        "maintenances",
        "monitoring",
        "services",
        "support",
    ]


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_domain_imports_only_platform_and_itself(domain: str) -> None:
    assert _crossings(domain, {None, "platform", domain}) == []


def test_platform_imports_no_domain_and_not_the_app() -> None:
    assert _crossings("platform", {None, "platform"}) == []


def test_only_the_seed_and_the_cli_import_the_demo_data() -> None:
    found = [
        f"{relative} imports {module}"
        for path in sorted(PROVIDER.rglob("*.py"))
        if not (relative := path.relative_to(PROVIDER).as_posix()).startswith(DEMO_IMPORTERS)
        for module in imported_modules(path)
        if module.startswith("portal.provider.demo_data")
    ]
    assert found == []


def test_the_provider_uses_only_the_portal_modules_it_shares() -> None:
    found = [
        f"{path.relative_to(PROVIDER)} imports {module}"
        for path in sorted(PROVIDER.rglob("*.py"))
        for module in imported_modules(path)
        if module.startswith("portal.")
        and not module.startswith("portal.provider")
        and ".".join(module.split(".")[:2]) not in SHARED
    ]
    assert found == []


def _is_reflex(module: str) -> bool:
    return module.partition(".")[0] == "reflex" or module.startswith("reflex_")


@pytest.mark.parametrize("root", [CLIENT, PROVIDER], ids=["client", "provider"])
def test_neither_the_client_nor_the_provider_imports_reflex(root: Path) -> None:
    found = [
        f"{path.relative_to(root)} imports {module}"
        for path in sorted(root.rglob("*.py"))
        for module in imported_modules(path)
        if _is_reflex(module)
    ]
    assert found == []


def test_importing_them_loads_no_reflex() -> None:
    """What the AST cannot see: nothing they import pulls Reflex in on its way."""
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, portal.client, portal.provider.main, portal.provider.cli, "
            "portal.provider.seed; "
            "print(sorted(m for m in sys.modules if m.partition('.')[0].startswith('reflex')))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"
