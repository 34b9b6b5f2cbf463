"""Every setting of the portal and of the embedded provider, read from the environment.

One module for both sides so a value such as the staff mail domain has one source of truth;
neither this module nor its callers in ``portal.provider`` import Reflex.
"""

from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=ROOT / ".env", extra="ignore")

    environment: Literal["development", "production", "test"] = "development"
    port: int = Field(default=3000, description="Front-end port (the single port in production).")
    backend_port: int = Field(default=8000, description="Backend port in development.")
    portal_public_url: str = Field(
        default="",
        description="Public URL of the portal, used in e-mail links (empty: http://localhost:PORT).",
    )

    # Provider API the portal talks to; empty means the embedded provider of this process.
    provider_api_url: str = ""

    database_url: str = f"sqlite:///{DATA_DIR / 'provider.db'}"
    redis_url: str = ""
    portal_session_db: Path = DATA_DIR / "portal-sessions.db"

    session_idle_minutes: int = 30
    session_absolute_hours: int = 12
    items_per_page_max: int = 100
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

    seed_demo: bool = True
    # The day the demo's dates are built around, at noon UTC (ISO, e.g. 2026-03-02); empty means
    # the moment of seeding. Pins the demo for screenshots, documentation and tests.
    demo_anchor_date: date | None = None

    # Stored documents (PDFs, attachments) are kept as paths relative to this directory.
    data_dir: Path = DATA_DIR
    # Largest client-reference CSV accepted (spec 5); 5 MB holds well over 100 000 lines.
    import_max_bytes: int = 5 * 1024 * 1024

    # E-mail: through SMTP_URL (smtp://, smtps:// or smtp+starttls://, optional user:password@),
    # else each message is written as an .eml file under mail_dir.
    smtp_url: str = ""
    mail_dir: Path = DATA_DIR / "mail"
    mail_from: str = "Patchbay <no-reply@patchbay.test>"

    # Rate limits (docs/decisions/rate-limits.md): failed logins, and reset requests, per account
    # and per client address within a window.
    login_limit_per_account: int = 5
    login_limit_per_address: int = 20
    login_limit_window_minutes: int = 15
    reset_limit_per_account: int = 3
    reset_limit_per_address: int = 10
    reset_limit_window_minutes: int = 60

    @field_validator("demo_anchor_date", mode="before")
    @classmethod
    def _empty_anchor_is_today(cls, value: object) -> object:
        return value or None

    @model_validator(mode="after")
    def _public_url_follows_port(self) -> "Settings":
        # `PORT=8080 make run` serves on 8080: e-mail links must point there too, not to 3000.
        if not self.portal_public_url:
            self.portal_public_url = f"http://localhost:{self.port}"
        return self

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
