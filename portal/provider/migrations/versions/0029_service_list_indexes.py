"""Services: indexes that page a customer's list one company at a time, for every sort.

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-05 23:00:00

Issue 55, item 3: the list reads each of the customer's companies in the order shown and lets
the database merge them, as the invoices do (docs/decisions/deep-service-pages.md). Each sort
the screen offers gets ``(company_id, <field>, reference)``, read forwards or backwards; on
PostgreSQL they carry the id and the filtered columns (INCLUDE), so that a branch is an
index-only scan, whatever the filters on status or type and a limited user's grants (by id).
``(company_id, date_start, reference)`` is replaced by a wider one of the same name;
``(company_id, reference)`` and ``(company_id, status, reference)`` are new. About 20 MB each at
200 000 services (the table: 75 MB). ``(company_id, status)`` stays: at 1.7 MB it counts a
status filter (the screen's tiles) twice as fast as the wide one would.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_services_company_id_date_start", table_name="services")
    op.create_index(
        "ix_services_company_id_date_start",
        "services",
        ["company_id", "date_start", "reference"],
        postgresql_include=["id", "status", "type_id"],
    )
    op.create_index(
        "ix_services_company_id_status_reference",
        "services",
        ["company_id", "status", "reference"],
        postgresql_include=["id", "type_id"],
    )
    op.create_index(
        "ix_services_company_id_reference",
        "services",
        ["company_id", "reference"],
        postgresql_include=["id", "status", "type_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_services_company_id_reference", table_name="services")
    op.drop_index("ix_services_company_id_status_reference", table_name="services")
    op.drop_index("ix_services_company_id_date_start", table_name="services")
    op.create_index(
        "ix_services_company_id_date_start", "services", ["company_id", "date_start", "reference"]
    )
