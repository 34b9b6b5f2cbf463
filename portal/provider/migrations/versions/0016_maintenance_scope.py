"""Maintenance links carry their service's company.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03 19:00:00

A customer's maintenances were found by joining every link to its service to read the
service's company: for the heavy tenant, a hash join over all the links at each list, count,
calendar month and feed. The link now holds the company too, read from an index of
(company_id, maintenance_id) alone. It is kept right by the database: the link's key to its
service is the pair (service_id, company_id), which a service's move to another company updates
in cascade; a unique index on the services' (id, company_id) is what that key refers to
(docs/decisions/maintenance-scope.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LINK_FK = "fk_maintenance_services_service_id_services"


def upgrade() -> None:
    op.create_index("ix_services_id_company_id", "services", ["id", "company_id"], unique=True)
    with op.batch_alter_table("maintenance_services") as batch_op:
        batch_op.add_column(sa.Column("company_id", sa.Uuid(), nullable=True))
    op.execute(
        "UPDATE maintenance_services SET company_id = ("
        " SELECT services.company_id FROM services"
        " WHERE services.id = maintenance_services.service_id)"
    )
    with op.batch_alter_table("maintenance_services") as batch_op:
        batch_op.alter_column("company_id", existing_type=sa.Uuid(), nullable=False)
        batch_op.drop_constraint(LINK_FK, type_="foreignkey")
        batch_op.create_foreign_key(
            LINK_FK,
            "services",
            ["service_id", "company_id"],
            ["id", "company_id"],
            onupdate="CASCADE",
            ondelete="CASCADE",
        )
        batch_op.create_index(
            "ix_maintenance_services_company_id_maintenance_id",
            ["company_id", "maintenance_id"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("maintenance_services") as batch_op:
        batch_op.drop_index("ix_maintenance_services_company_id_maintenance_id")
        batch_op.drop_constraint(LINK_FK, type_="foreignkey")
        batch_op.create_foreign_key(LINK_FK, "services", ["service_id"], ["id"], ondelete="CASCADE")
        batch_op.drop_column("company_id")
    op.drop_index("ix_services_id_company_id", table_name="services")
