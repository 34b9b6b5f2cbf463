"""Companies, keyed on their reference; a stored company without a reference and of the same
name is adopted (given the reference) rather than duplicated."""

from typing import Any, Literal

from pydantic import Field
from sqlmodel import Session

from portal.i18n import N_
from portal.provider.integration.batch import Entries, Kind
from portal.provider.integration.common import (
    Counts,
    Email,
    InputModel,
    Reference,
    Text,
    assign,
    duplicates,
    path,
    rows_by,
    unknown,
)
from portal.provider.platform.db import preload
from portal.provider.platform.errors import Violation
from portal.provider.platform.models import Company, User

NAME_TAKEN = N_("Another company already has this name.")


class CompanyIn(InputModel):
    reference: Reference = Field(description="The provider's own reference: the key.")
    name: Text = Field(max_length=200, description="Unique among companies.")
    sales: list[Email] | None = Field(
        default=None,
        description="E-mails of the sales representatives serving the company (existing users); "
        "absent: unchanged.",
    )
    language: Literal["en", "fr"] | None = Field(
        default=None, description="Language of its invoice PDFs; absent: unchanged (new: en)."
    )
    street: str | None = Field(default=None, max_length=255, description="Billing address.")
    postal_code: str | None = Field(default=None, max_length=20)
    city: str | None = Field(default=None, max_length=100)
    country: str | None = Field(default=None, max_length=100)

    def billing(self) -> dict[str, str]:
        """The billing fields given (absent ones stay as they are)."""
        fields = ("language", "street", "postal_code", "city", "country")
        return {name: value for name in fields if (value := getattr(self, name)) is not None}


def check(db: Session, entries: Entries[CompanyIn]) -> tuple[Any, list[Violation]]:
    items = [item for _, item in entries]
    violations = duplicates(entries, lambda item: item.reference, "reference")
    violations += duplicates(entries, lambda item: item.name, "name")
    by_reference = rows_by(
        db, Company.reference, (item.reference for item in items), [*preload(Company.sales)]
    )
    by_name = rows_by(db, Company.name, (item.name for item in items), [*preload(Company.sales)])
    sales = rows_by(db, User.email, (email for item in items for email in item.sales or ()))
    for index, item in entries:
        own, named = by_reference.get(item.reference), by_name.get(item.name)
        if named is not None and named is not own and (own or named.reference):
            violations.append(Violation(path(index, "name"), NAME_TAKEN))
        for position, email in enumerate(item.sales or ()):
            violations += unknown(index, f"sales[{position}]", email, sales, email=True)
    return (by_reference, by_name, sales), violations


def write(db: Session, entries: Entries[CompanyIn], resolved: Any) -> Counts:
    by_reference, by_name, sales = resolved
    counts = Counts()
    for _, item in entries:
        company = by_reference.get(item.reference) or by_name.get(item.name)
        created = company is None
        if company is None:
            company = Company(reference=item.reference, name=item.name)
        changed = assign(
            company, {"reference": item.reference, "name": item.name, **item.billing()}
        )
        if item.sales is not None:
            wanted = [sales[email] for email in dict.fromkeys(item.sales)]
            if {user.id for user in company.sales} != {user.id for user in wanted}:
                company.sales = wanted
                changed = True
        db.add(company)
        counts.add(created, changed)
    return counts


KIND = Kind(
    name="company",
    path="companies",
    model=CompanyIn,
    limit=1_000,
    check=check,
    write=write,
    summary="Create or update companies",
    description="Upsert up to 1 000 companies keyed on `reference`.",
    example=[
        {"reference": "C-1001", "name": "Acme Networks", "sales": ["jeanne.roux@patchbay.test"]},
        {
            "reference": "C-1002",
            "name": "Globex",
            "language": "en",
            "street": "100 Fibre Lane",
            "postalCode": "EC2A 4NE",
            "city": "London",
            "country": "United Kingdom",
        },
    ],
)
