"""What the generator's steps share: the plan, the random sources, the spools and the rows that
later tables refer to (companies, staff, services)."""

import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.generate.plan import Plan
from bench.generate.spool import Spool
from portal.provider.demo_data.context import seeded_random
from portal.provider.demo_data.documents import DemoDocument


def allocate(total: int, weights: list[float], minimum: int = 0) -> list[int]:
    """``total`` split in proportion to ``weights`` (largest remainders), each at least
    ``minimum``: exact, and the same on every run."""
    rest = total - minimum * len(weights)
    if rest < 0:
        raise ValueError(f"{total} rows cannot give {minimum} to each of {len(weights)}")
    weight_sum = sum(weights)
    shares = [weight * rest / weight_sum for weight in weights]
    counts = [int(share) for share in shares]
    by_remainder = sorted(range(len(weights)), key=lambda i: counts[i] - shares[i])
    for index in by_remainder[: rest - sum(counts)]:
        counts[index] += 1
    return [count + minimum for count in counts]


@dataclass
class CustomerCompany:
    id: uuid.UUID
    name: str
    # How much this customer buys compared with the others (drawn once, skewed like real
    # estates: a few large customers, many small ones).
    weight: float
    domain: str
    french: bool
    user_emails: list[str] = field(default_factory=list)
    service_ids: list[uuid.UUID] = field(default_factory=list)
    service_references: list[str] = field(default_factory=list)


@dataclass
class World:
    plan: Plan
    folder: Path
    documents: dict[str, DemoDocument]
    password_hash: str
    rng: random.Random = field(init=False)
    spools: dict[str, Spool] = field(default_factory=dict)
    # The heavy tenant first, then the other demo customers, then the generated ones.
    customers: list[CustomerCompany] = field(default_factory=list)
    staff_ids: dict[str, uuid.UUID] = field(default_factory=dict)
    sales_emails: list[str] = field(default_factory=list)
    service_type_ids: dict[str, uuid.UUID] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = seeded_random(self.plan.seed)
        self._ids = seeded_random(self.plan.seed + 1)

    def new_id(self) -> uuid.UUID:
        return uuid.UUID(int=self._ids.getrandbits(128), version=4)

    def spool(self, table: str, columns: tuple[str, ...]) -> Spool:
        self.spools[table] = Spool(self.folder, table, columns)
        return self.spools[table]

    def add(self, table: str, *values: Any) -> None:
        self.spools[table].add(*values)

    def split(self, name: str) -> list[int]:
        """Rows of ``name`` per customer: the heavy tenant's share, the rest by weight."""
        total = getattr(self.plan, name)
        heavy = self.plan.heavy(name)
        others = self.customers[1:]
        minimum = 1 if name == "services" else 0
        return [heavy, *allocate(total - heavy, [c.weight for c in others], minimum)]
