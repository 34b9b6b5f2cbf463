"""A ticket names its service by id as well as by reference.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-05 22:50:00

Issue 53, item 5: a user limited to some services reads the tickets about them. Found by the
service's reference, each ticket went through a correlated look-up of the service and then of
its grant; by the service's id it is one semi-join on the grants' key (user_id, service_id).
Filled in here from ``service_reference`` (a reference naming no service leaves it empty).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tickets") as batch_op:
        batch_op.add_column(sa.Column("service_id", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            op.f("fk_tickets_service_id_services"),
            "services",
            ["service_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.execute(
        "UPDATE tickets SET service_id = services.id FROM services"
        " WHERE services.reference = tickets.service_reference"
    )
    # The status and requester ride along: a limited user's counts are then read from the
    # index alone, as an unlimited user's are from (company_id, status).
    op.create_index(
        "ix_tickets_company_id_service_id",
        "tickets",
        ["company_id", "service_id"],
        postgresql_include=["status", "requester_email"],
    )


def downgrade() -> None:
    op.drop_index("ix_tickets_company_id_service_id", table_name="tickets")
    with op.batch_alter_table("tickets") as batch_op:
        batch_op.drop_constraint(op.f("fk_tickets_service_id_services"), type_="foreignkey")
        batch_op.drop_column("service_id")
