"""Tickets both ways (issue 49): messages, read marks, the helpdesk's feed of events and how
far it was purged, the files of a message, and when a ticket was closed and last answered.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-12 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column],
        [f"{target}.id"],
        name=op.f(f"fk_{table}_{column}_{target}"),
        ondelete=ondelete,
    )


def upgrade() -> None:
    op.create_table(
        "ticket_messages",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("ticket_id", sa.Uuid(), nullable=False),
        sa.Column("reference", sa.String(length=100), nullable=True),
        sa.Column("author_type", sa.String(length=40), nullable=False),
        sa.Column("author_id", sa.Uuid(), nullable=True),
        sa.Column("author_name", sa.String(length=200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("body_html", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        _fk("ticket_messages", "ticket_id", "tickets", "CASCADE"),
        _fk("ticket_messages", "author_id", "users", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ticket_messages")),
    )
    op.create_index(
        op.f("ix_ticket_messages_reference"), "ticket_messages", ["reference"], unique=True
    )
    op.create_index(
        "ix_ticket_messages_ticket_id_created", "ticket_messages", ["ticket_id", "created"]
    )
    op.create_table(
        "ticket_read_marks",
        sa.Column("user_id", sa.Uuid(), nullable=False),
        sa.Column("ticket_id", sa.Uuid(), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=False),
        _fk("ticket_read_marks", "user_id", "users", "CASCADE"),
        _fk("ticket_read_marks", "ticket_id", "tickets", "CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "ticket_id", name=op.f("pk_ticket_read_marks")),
    )
    with op.batch_alter_table("ticket_attachments") as batch_op:
        batch_op.add_column(sa.Column("message_id", sa.Uuid(), nullable=True))
        batch_op.create_foreign_key(
            op.f("fk_ticket_attachments_message_id_ticket_messages"),
            "ticket_messages",
            ["message_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_index(op.f("ix_ticket_attachments_message_id"), ["message_id"])
    with op.batch_alter_table("tickets") as batch_op:
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("last_reply_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "ticket_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("ticket_id", sa.Uuid(), nullable=False),
        sa.Column("message_id", sa.Uuid(), nullable=True),
        sa.Column("attachment_id", sa.Uuid(), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        _fk("ticket_events", "ticket_id", "tickets", "CASCADE"),
        _fk("ticket_events", "message_id", "ticket_messages", "CASCADE"),
        _fk("ticket_events", "attachment_id", "ticket_attachments", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ticket_events")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_ticket_events_ticket_id"), "ticket_events", ["ticket_id"])
    op.create_table(
        "ticket_feed_horizon",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("purged_through", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ticket_feed_horizon")),
    )


def downgrade() -> None:
    op.drop_table("ticket_feed_horizon")
    op.drop_table("ticket_events")
    with op.batch_alter_table("tickets") as batch_op:
        batch_op.drop_column("last_reply_at")
        batch_op.drop_column("closed_at")
    with op.batch_alter_table("ticket_attachments") as batch_op:
        batch_op.drop_index(op.f("ix_ticket_attachments_message_id"))
        batch_op.drop_constraint(
            op.f("fk_ticket_attachments_message_id_ticket_messages"), type_="foreignkey"
        )
        batch_op.drop_column("message_id")
    op.drop_table("ticket_read_marks")
    op.drop_table("ticket_messages")
