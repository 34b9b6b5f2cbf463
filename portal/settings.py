"""Every setting of the portal and of the embedded provider, read from the environment.

One module for both sides so a value such as the staff mail domain has one source of truth;
neither this module nor its callers in ``portal.provider`` import Reflex.
"""

import ipaddress
import os
import socket
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower-cased, without a default port or a path."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=ROOT / ".env", extra="ignore")

    environment: Literal["development", "production", "test"] = "development"
    port: int = Field(default=3000, description="Front-end port (the single port in production).")
    backend_port: int = Field(default=8000, description="Backend port in development.")
    portal_public_url: str = Field(
        default="",
        description="Public URL of the portal, used in e-mail links (empty: http://localhost:PORT).",
    )

    # The origins (scheme://host[:port]) whose pages may open the portal's websocket, call its
    # /_portal routes and write to the provider with the user's cookies (CORS included). Empty:
    # the origin of portal_public_url (docs/decisions/origin-checks.md).
    portal_allowed_origins: list[str] = []

    # Provider API the portal talks to; empty means the embedded provider of this process.
    provider_api_url: str = ""

    database_url: str = f"sqlite:///{DATA_DIR / 'provider.db'}"
    # PostgreSQL connections each backend worker keeps open for the provider, and the most it
    # uses at once: a request beyond them waits for one (docs/decisions/connection-pool.md).
    database_pool_size: int = Field(default=15, ge=1)
    # Asynchronous PostgreSQL connections each worker keeps for the principal's read, beside
    # that pool (docs/decisions/provider-floor.md): a request beyond them waits for one.
    database_loop_pool_size: int = Field(default=4, ge=1)
    redis_url: str = ""
    portal_session_db: Path = DATA_DIR / "portal-sessions.db"

    session_idle_minutes: int = 30
    session_absolute_hours: int = 12
    items_per_page_max: int = 100
    # The reverse proxies (deploy/nginx.conf) and portal backends whose X-Forwarded-For is
    # believed, addresses or networks; the user's address is the right-most other one in it.
    trusted_proxies: list[str] = ["127.0.0.1", "::1"]

    company_name: str = "Patchbay"
    # The provider as its invoices name it (the legal notices give the same).
    company_address: str = "12 rue des Répartiteurs, 75011 Paris, France"
    company_vat_number: str = "FR65 912345675"
    # The provider's day for billing: an invoice due before today there is overdue.
    billing_timezone: str = "Europe/Paris"
    staff_mail_domain: str = "patchbay.test"
    staff_company_name: str = "Patchbay"
    headband_alert_en: str = ""
    headband_alert_fr: str = ""
    # The generic contacts of the contacts page (spec 2; DESIGN 6), shown as mailto links.
    contact_legal_email: str = "legal@patchbay.test"
    contact_invoicing_email: str = "invoicing@patchbay.test"
    contact_support_email: str = "helpdesk@patchbay.test"
    contact_ticketing_email: str = "tickets@patchbay.test"

    seed_demo: bool = True
    # The day the demo's dates are built around, at noon UTC (ISO, e.g. 2026-03-02); empty means
    # the moment of seeding. Pins the demo for screenshots, documentation and tests.
    demo_anchor_date: date | None = None

    # Stored documents (PDFs, attachments) are kept as paths relative to this directory.
    data_dir: Path = DATA_DIR
    # Largest client-reference CSV accepted (spec 5); 5 MB holds well over 100 000 lines.
    import_max_bytes: int = 5 * 1024 * 1024
    # Largest file a customer attaches to a ticket (issue 49).
    ticket_attachment_max_bytes: int = 10 * 1024 * 1024
    # The numbers of tickets opened in the portal start here, above the helpdesk's own
    # (docs/decisions/ticket-conversations.md).
    portal_ticket_number_start: int = 1_000_000
    # Tickets opened and messages written a minute per user; a burst past it is a 429.
    ticket_messages_per_minute: int = 30

    # Request limits (issue 18): a larger body is a 413, a longer query string a 414, larger
    # headers a 431. The integration API takes large batches; an upload elsewhere is bounded by
    # the larger of import_max_bytes and ticket_attachment_max_bytes, and its multipart envelope.
    body_max_bytes: int = 1024 * 1024
    integration_body_max_bytes: int = 32 * 1024 * 1024
    query_max_bytes: int = 8 * 1024
    headers_max_bytes: int = 32 * 1024

    # E-mail: through SMTP_URL (smtp://, smtps:// or smtp+starttls://, optional user:password@),
    # else each message is written as an .eml file under mail_dir.
    smtp_url: str = ""
    mail_dir: Path = DATA_DIR / "mail"
    mail_from: str = "Patchbay <no-reply@patchbay.test>"

    # A TOTP second factor is required of every staff role (admin, user managers, sales, read-only
    # staff: all read every customer's data): until they set one up, their session reaches only
    # the set-up.
    # Unset: required in production, not elsewhere (the demo's staff log in with a password).
    second_factor_required: bool | None = None
    # The key that seals every TOTP secret in the database (AES-256-GCM): 32 random bytes in
    # base64url, ``python -c "import secrets; print(secrets.token_urlsafe(32))"``. Required in
    # production; elsewhere, empty means a key generated once into DATA_DIR. During a rotation
    # the previous key still opens what it sealed (docs/decisions/secrets-at-rest.md).
    second_factor_key: SecretStr = SecretStr("")
    second_factor_previous_key: SecretStr = SecretStr("")

    # Rate limits (docs/decisions/rate-limits.md): failed logins, and reset requests, per account
    # and per client address within a window.
    login_limit_per_account: int = 5
    login_limit_per_address: int = 20
    login_limit_window_minutes: int = 15
    reset_limit_per_account: int = 3
    reset_limit_per_address: int = 10
    reset_limit_window_minutes: int = 60
    # Requests per minute of one personal API token (docs/decisions/personal-api-tokens.md).
    api_token_rate_limit: int = 120

    # Operations (README "Operations"). Logs: "json" (one object per line) or "text"; empty
    # means json in production, text elsewhere.
    log_format: Literal["", "json", "text"] = ""
    log_level: str = "INFO"
    # Names this instance in the X-Served-By header and in /readyz (the host name by default).
    instance_name: str = ""
    # /metrics answers a scraper that sends "Authorization: Bearer METRICS_TOKEN"; without a
    # token, only a direct (not proxied) client on the loopback address.
    metrics_token: str = ""
    # How long /readyz waits for each dependency.
    readiness_timeout_seconds: float = 2.0
    # A stopping instance (SIGTERM) serves on this long with /readyz at 503, so that the proxy
    # takes it out; then it accepts nothing new and gives what it holds up to the grace period
    # to finish (docs/decisions/graceful-drain.md).
    shutdown_drain_seconds: float = Field(default=10, ge=0)
    shutdown_grace_seconds: float = Field(default=30, ge=0)
    # Housekeeping: how long expired or used rows are kept before the purge removes them.
    audit_retention_days: int = 400
    expired_token_retention_days: int = 7
    sent_mail_retention_days: int = 30
    # The helpdesk's feed of events: a helpdesk down for less than this resumes where it was.
    ticket_event_retention_days: int = Field(default=30, ge=1)
    # How often the provider runs the purge itself (0: never; cron runs the CLI instead).
    housekeeping_interval_minutes: float = 60
    # Outbox: how many times a mail is tried before it is given up, and the first wait between
    # tries (doubled each time).
    mail_max_attempts: int = 8
    mail_retry_seconds: int = 30
    # How long a maintenance notice waits before it leaves: the changes of the same maintenance
    # made meanwhile go out in it, as its latest state (docs/decisions/maintenance-notices.md).
    maintenance_notice_delay_seconds: int = Field(default=300, ge=0)

    # Monitoring (docs/decisions/sensor-rollups.md): how often the provider sums samples up
    # into hours and days (0: never; then run ``python -m portal.provider roll-up`` from cron),
    # and the tags that mark path-type sensors, left out of the status counts (DESIGN 6).
    sensor_rollup_minutes: int = 5
    sensor_path_tags: list[str] = ["product_path", "product_path_backup"]

    # Webhooks (issue 51, docs/decisions/webhooks.md): hosts a webhook may reach although they
    # resolve to a loopback, private or otherwise internal address (tests, private
    # deployments), a CA bundle trusted beside the system's for their certificates, each
    # delivery's timeout, the first wait after a failure (doubled each time, at most an hour)
    # and how long a delivery is tried before its endpoint is disabled.
    webhook_allowed_hosts: list[str] = []
    webhook_ca_file: str = ""
    webhook_timeout_seconds: float = Field(default=10, gt=0)
    webhook_retry_seconds: float = Field(default=5, gt=0)
    webhook_retry_window_hours: float = Field(default=24, gt=0)
    # How long the delivery log keeps a delivered or failed event.
    webhook_delivery_retention_days: int = Field(default=30, ge=1)

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_addresses(cls, value: list[str]) -> list[str]:
        # A typing error here would otherwise surface as a 500 at the first request.
        for entry in value:
            ipaddress.ip_network(entry.strip(), strict=False)
        return value

    @field_validator("demo_anchor_date", mode="before")
    @classmethod
    def _empty_anchor_is_today(cls, value: object) -> object:
        return value or None

    @model_validator(mode="after")
    def _public_url_follows_port(self) -> "Settings":
        # `PORT=8080 make run` serves on 8080: e-mail links must point there too, not to 3000.
        if not self.portal_public_url:
            self.portal_public_url = f"http://localhost:{self.port}"
        if not self.portal_allowed_origins:
            self.portal_allowed_origins = [origin_of(self.portal_public_url)]
        self.portal_allowed_origins = [origin_of(origin) for origin in self.portal_allowed_origins]
        return self

    @property
    def effective_log_format(self) -> str:
        return self.log_format or ("text" if self.is_development else "json")

    @property
    def effective_instance_name(self) -> str:
        return self.instance_name or socket.gethostname()

    @property
    def staff_second_factor_required(self) -> bool:
        if self.second_factor_required is None:
            return not self.is_development
        return self.second_factor_required

    @property
    def is_development(self) -> bool:
        return self.environment != "production"

    @property
    def sqlalchemy_url(self) -> str:
        """The database URL with the psycopg 3 driver for PostgreSQL."""
        url = self.database_url
        for prefix in ("postgresql://", "postgres://"):
            if url.startswith(prefix):
                return "postgresql+psycopg://" + url[len(prefix) :]
        return url


@lru_cache
def get_settings() -> Settings:
    return Settings()


def backend_workers() -> int:
    """The backend worker processes of an instance with Redis, unless GRANIAN_WORKERS names
    another count: one per core. Reflex's default (2 x cores + 1) measured worse on two cores,
    the provider's queries sharing them (docs/decisions/backend-workers.md)."""
    return os.cpu_count() or 1
