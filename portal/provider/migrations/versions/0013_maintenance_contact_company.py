"""Maintenance contacts: the company each belongs to, so a customer sees only its own.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24 17:40:00

A maintenance shared by two companies listed each one's contacts to the other. A contact now
belongs to one customer company, or to none (the provider's own). Existing contacts take the
company of the user with the same e-mail; the others stay without one, which shows them to
customers only when the e-mail is of the staff mail domain
(docs/decisions/maintenance-contacts.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("maintenance_contacts") as batch_op:
        batch_op.add_column(sa.Column("company_id", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            op.f("fk_maintenance_contacts_company_id_companies"),
            "companies",
            ["company_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_index(
            batch_op.f("ix_maintenance_contacts_company_id"), ["company_id"], unique=False
        )
    op.execute(
        "UPDATE maintenance_contacts SET company_id = ("
        " SELECT users.company_id FROM users"
        " WHERE lower(users.email) = lower(maintenance_contacts.email))"
        " WHERE company_id IS NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("maintenance_contacts") as batch_op:
        batch_op.drop_index(batch_op.f("ix_maintenance_contacts_company_id"))
        batch_op.drop_constraint(
            op.f("fk_maintenance_contacts_company_id_companies"), type_="foreignkey"
        )
        batch_op.drop_column("company_id")
