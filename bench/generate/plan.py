"""How many rows each table gets at a scale: the one formula the generator and its tests share."""

import math
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

from portal.provider.demo_data.people import CUSTOMER_COMPANIES, PEOPLE

# Scale 1 (issue 3): what a provider with a few thousand customers holds.
SCALE_ONE = {
    "companies": 2_000,
    "users": 20_000,
    "services": 200_000,
    "invoices": 2_000_000,
    "tickets": 500_000,
    "maintenances": 50_000,
    "sensors": 100_000,
    "sampled_sensors": 1_000,
}
# Acme Networks (the demo's alice) owns this share of each, so that a customer's own lists are
# deep: at scale 1 about 1 000 users, 100 000 invoices and 15 000 services (a 1 000th page).
HEAVY_TENANT = "Acme Networks"
HEAVY_SHARE = {"users": 0.05, "services": 0.075, "invoices": 0.05, "tickets": 0.05, "sensors": 0.05}
SAMPLE_PERIOD = timedelta(days=365)
SAMPLE_STEP = timedelta(minutes=5)
# What the schema keeps of that year (docs/decisions/sensor-rollups.md): raw samples over 48
# hours, hourly roll-ups over 31 days, daily ones over the whole year.
RAW_SAMPLE_PERIOD = timedelta(hours=48)
HOURLY_ROLLUP_PERIOD = timedelta(days=31)
DEFAULT_SEED = 2026
DEMO_COMPANIES = 1 + len(CUSTOMER_COMPANIES)


def _scaled(name: str, scale: float) -> int:
    return max(1, round(SCALE_ONE[name] * scale))


@dataclass(frozen=True)
class Plan:
    scale: float
    seed: int = DEFAULT_SEED
    # The day the data set is "today": dates are drawn around it, so the same anchor and seed
    # give the same rows.
    anchor: date = field(default_factory=lambda: datetime.now(UTC).date())

    @property
    def companies(self) -> int:
        """Every company, the demo's eight included (they are the floor at tiny scales)."""
        return max(_scaled("companies", self.scale), DEMO_COMPANIES)

    @property
    def bulk_companies(self) -> int:
        return self.companies - DEMO_COMPANIES

    @property
    def users(self) -> int:
        """Every user, the demo's people included; each generated company has at least one."""
        return max(_scaled("users", self.scale), len(PEOPLE) + self.bulk_companies)

    @property
    def services(self) -> int:
        # At least one per customer company: invoice lines refer to a company's services.
        return max(_scaled("services", self.scale), self.companies - 1)

    @property
    def invoices(self) -> int:
        return _scaled("invoices", self.scale)

    @property
    def tickets(self) -> int:
        return _scaled("tickets", self.scale)

    @property
    def maintenances(self) -> int:
        return _scaled("maintenances", self.scale)

    @property
    def sensors(self) -> int:
        return _scaled("sensors", self.scale)

    @property
    def sampled_sensors(self) -> int:
        return min(self.sensors, _scaled("sampled_sensors", self.scale))

    @property
    def samples_per_sensor(self) -> int:
        return math.ceil(SAMPLE_PERIOD / SAMPLE_STEP)

    @property
    def samples(self) -> int:
        """Raw samples kept: the last 48 hours of each sampled sensor."""
        return self.sampled_sensors * math.ceil(RAW_SAMPLE_PERIOD / SAMPLE_STEP)

    @property
    def rollups(self) -> int:
        """Hours of the last 31 days and days of the year, of each sampled sensor."""
        hours = math.ceil(HOURLY_ROLLUP_PERIOD / timedelta(hours=1))
        days = math.ceil(SAMPLE_PERIOD / timedelta(days=1))
        return self.sampled_sensors * (hours + days)

    @property
    def anchor_time(self) -> datetime:
        return datetime(self.anchor.year, self.anchor.month, self.anchor.day, tzinfo=UTC)

    def heavy(self, name: str) -> int:
        """The heavy tenant's rows of a table."""
        return round(getattr(self, name) * HEAVY_SHARE[name])

    def exact_counts(self) -> dict[str, int]:
        """Tables whose row count the formula fixes exactly (the others vary with the draws)."""
        return {
            "companies": self.companies,
            "users": self.users,
            "services": self.services,
            "invoices": self.invoices,
            "tickets": self.tickets,
            "maintenances": self.maintenances,
            "sensors": self.sensors,
            "sensor_samples": self.samples,
            "sensor_rollups": self.rollups,
        }
