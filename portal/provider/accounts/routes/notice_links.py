"""The one-click unsubscribe of the maintenance notices and ticket e-mails (RFC 8058, issue 50
items 3 and 5), public but for its signed token (``portal.provider.platform.notice_links``): a
user's token turns their maintenance notices off, a user's ticket token their ticket e-mails, an
extra address's token removes that address. Any other token, or one whose recipient is gone,
answers 404 and nothing else."""

from fastapi import Response
from sqlmodel import col, delete

from portal.provider.platform.db import SessionDep
from portal.provider.platform.errors import ApiError
from portal.provider.platform.models import MaintenanceNotices, NoticeAddress, TicketNotices, User
from portal.provider.platform.notice_links import verified
from portal.provider.platform.routing import ProviderRouter

router = ProviderRouter(tags=["notifications"])


@router.post(
    "/notices/unsubscribe/{token}",
    status_code=204,
    response_class=Response,
    responses={
        204: {"description": "The recipient takes no more notices of the link's kind."},
        404: {"description": "No such link."},
    },
)
def unsubscribe(token: str, db: SessionDep) -> Response:
    found = verified(token, "tickets" if token.startswith("tickets.") else "unsubscribe")
    if found is None:
        raise ApiError(404)
    kind, recipient_id = found
    if kind in ("user", "tickets"):
        user = db.get(User, recipient_id)
        if user is None:
            raise ApiError(404)
        if kind == "tickets":
            user.ticket_notices = TicketNotices.NONE
        else:
            user.maintenance_notices = MaintenanceNotices.NONE
        db.add(user)
    else:
        removed = db.execute(delete(NoticeAddress).where(col(NoticeAddress.id) == recipient_id))
        if not removed.rowcount:  # type: ignore[attr-defined]
            raise ApiError(404)
    db.commit()
    return Response(status_code=204)
