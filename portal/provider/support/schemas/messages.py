"""A ticket's conversation as the API shows it, and what a customer sends to write in it
(issue 49)."""

import datetime as dt
import uuid
from typing import Annotated, Any, Literal

from pydantic import Field

from portal.provider.platform.hydra import NOT_BLANK, ApiModel, Resource, iri
from portal.provider.platform.models import TicketPriority
from portal.provider.support.schemas.tickets import attachment_path


class MessageAttachmentOut(ApiModel):
    id: str
    name: str
    size: int
    content_type: str
    url: str = Field(description="Download path of the file (always an attachment).")


class MessageOut(Resource):
    type: str = Field(default="TicketMessage", alias="@type")
    author: str = Field(description="The author's display name.")
    author_type: Literal["customer", "provider"]
    body: str = Field(description="Sanitised HTML, rendered from the Markdown written.")
    created: dt.datetime
    attachments: list[MessageAttachmentOut]


class MessageIn(ApiModel):
    body: Annotated[str, NOT_BLANK] = Field(
        min_length=1,
        description="Markdown, at most 20 000 characters (413 above). Raw HTML shows as text.",
    )


class TicketIn(ApiModel):
    subject: Annotated[str, NOT_BLANK] = Field(min_length=1, max_length=200)
    description: Annotated[str, NOT_BLANK] = Field(
        min_length=1, max_length=20_000, description="Markdown; raw HTML shows as text."
    )
    type: Literal["incident", "request", "question"]
    priority: TicketPriority
    service: str | None = Field(
        default=None, max_length=200, description="The service's IRI or id: one of the caller's."
    )
    company: str | None = Field(
        default=None,
        max_length=200,
        description="The company's IRI or id: required when the caller has several companies "
        "and names no service.",
    )


class TicketStatusIn(ApiModel):
    status: Literal["open", "closed"] = Field(
        description="`closed` closes the ticket; `open` reopens it within 14 days of closing."
    )


def attachment_out(ticket_id: uuid.UUID, row: dict[str, Any]) -> MessageAttachmentOut:
    """A file as the message list reads it (JSON's values, the id a string)."""
    attachment_id = uuid.UUID(str(row["id"]))
    return MessageAttachmentOut(
        id=str(attachment_id),
        name=row["filename"],
        size=row["size"],
        content_type=row["contentType"],
        url=attachment_path(ticket_id, attachment_id),
    )


def message_out(
    ticket_id: uuid.UUID,
    message_id: uuid.UUID,
    author: str,
    author_type: str,
    body_html: str,
    created: dt.datetime,
    attachments: list[dict[str, Any]],
) -> MessageOut:
    return MessageOut(
        iri=f"{iri('tickets', ticket_id)}/messages/{message_id}",
        id=str(message_id),
        author=author,
        author_type="provider" if author_type == "provider" else "customer",
        body=body_html,
        created=created,
        attachments=[
            attachment_out(ticket_id, row)
            for row in sorted(attachments, key=lambda row: (row["filename"], str(row["id"])))
        ],
    )
