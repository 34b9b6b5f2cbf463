"""What every demo builder shares: the session, the random source, the clock, the documents and
the rows built so far."""

import random
import uuid
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time

from sqlmodel import Session

from portal.provider.demo_data.documents import DemoDocument
from portal.provider.platform.models import Company, Service, User


def seeded_random(seed: int) -> random.Random:
    """A reproducible random source: the demo must come out the same on every install, and
    nothing it draws is a secret."""
    return random.Random(seed)


@dataclass
class SeedContext:
    session: Session
    rng: random.Random
    # Demo dates follow the moment of seeding (or noon UTC of DEMO_ANCHOR_DATE), so maintenances
    # are upcoming and invoices overdue whenever the demo is installed; only the dates move
    # between two installs.
    now: datetime
    documents: dict[str, DemoDocument]
    id_source: random.Random
    companies: dict[str, Company] = field(default_factory=dict)
    users: dict[str, User] = field(default_factory=dict)
    services: list[Service] = field(default_factory=list)

    @property
    def today(self) -> date:
        return self.now.date()

    @property
    def midnight(self) -> datetime:
        return datetime.combine(self.today, time(), tzinfo=UTC)

    def new_id(self) -> uuid.UUID:
        """A random-looking but reproducible UUID, so demo IRIs are the same on every install."""
        return uuid.UUID(int=self.id_source.getrandbits(128), version=4)

    def services_of(self, company_name: str) -> list[Service]:
        company_id = self.companies[company_name].id
        return [service for service in self.services if service.company_id == company_id]
