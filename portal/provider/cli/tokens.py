"""``token create|list|revoke``: API tokens from the shell, for the first token of a new
installation or a server without a browser. The same rules as the API: the owner must be an
active administrator, the token names the kinds it may write, the value is printed once and
stored hashed."""

import uuid
from datetime import UTC, date, datetime, time

from sqlmodel import Session, select

from portal.provider.cli.database import migrated_engine
from portal.provider.integration.kinds import SCOPES
from portal.provider.platform.api_tokens import (
    is_admin,
    issue_token,
    list_tokens,
    revoke_token,
    token_state,
)
from portal.provider.platform.models import ApiToken, AuditLog, User, utcnow


def _refuse(reason: str) -> bool:
    print(f"Refused: {reason}")
    return False


def parse_expiry(value: str | None) -> datetime | None:
    """``2027-12-31`` (the end of that day, UTC) or an ISO 8601 time; None for no expiry."""
    if not value:
        return None
    try:
        return datetime.combine(date.fromisoformat(value), time.max, tzinfo=UTC)
    except ValueError:
        parsed = datetime.fromisoformat(value)
        return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed


def parse_scopes(values: list[str]) -> list[str]:
    """``["services,invoices", "tickets"]`` → ``["services", "invoices", "tickets"]``."""
    return [scope.strip() for value in values for scope in value.split(",") if scope.strip()]


def create_token(name: str, owner_email: str, scope_values: list[str], expires: str | None) -> bool:
    name = name.strip()
    if not 1 <= len(name) <= 100:
        return _refuse("the name must have 1 to 100 characters.")
    scopes = parse_scopes(scope_values)
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if unknown or not scopes:
        shown = f"{', '.join(map(repr, unknown))} is not a kind" if unknown else "no kind given"
        return _refuse(f"{shown}; --scope takes {', '.join(SCOPES)}.")
    try:
        expires_at = parse_expiry(expires)
    except ValueError:
        return _refuse(f"{expires!r} is not a date (2027-12-31) nor an ISO 8601 time.")
    if expires_at is not None and expires_at <= utcnow():
        return _refuse("the expiry must be in the future.")
    with Session(migrated_engine()) as session:
        email = owner_email.strip().lower()
        owner = session.exec(select(User).where(User.email == email)).first()
        if not is_admin(owner):
            return _refuse(f"{email} is not an active administrator (ROLE_ADMIN).")
        token, value = issue_token(session, owner, name, scopes, expires_at)
        session.flush()
        detail = {"token_id": str(token.id), "name": name, "scopes": token.scopes, "via": "cli"}
        session.add(AuditLog(actor_id=owner.id, action="token.create", detail=detail))
        session.commit()
        print(
            f"Created the token {token.id} ({name!r}) acting as {email}, "
            f"writing {', '.join(token.scopes)}."
        )
        print("Shown this once; send it as 'Authorization: Bearer <token>':")
        print(value)
    return True


def print_tokens() -> bool:
    with Session(migrated_engine()) as session:
        tokens = list_tokens(session)
        owners = {user.id: user.email for user in session.exec(select(User)).all()}
        if not tokens:
            print("No API token.")
            return True
        rows = [("id", "name", "owner", "scopes", "state", "created", "last used", "expires")]
        for token in tokens:
            rows.append(
                (
                    str(token.id),
                    token.name,
                    owners.get(token.user_id, "?"),
                    ",".join(token.scopes),
                    token_state(token),
                    _moment(token.created_at),
                    _moment(token.last_used_at),
                    _moment(token.expires_at),
                )
            )
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    return True


def _moment(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "-"


def revoke(token_id: str) -> bool:
    try:
        wanted = uuid.UUID(token_id)
    except ValueError:
        return _refuse(f"{token_id!r} is not a token id (see 'token list').")
    with Session(migrated_engine()) as session:
        token = session.get(ApiToken, wanted)
        if token is None:
            return _refuse(f"no token has the id {token_id}.")
        if revoke_token(session, token):
            detail = {"token_id": str(token.id), "name": token.name, "via": "cli"}
            session.add(AuditLog(action="token.revoke", detail=detail))
            session.commit()
            print(f"Revoked the token {token.id} ({token.name!r}).")
        else:
            print(f"The token {token.id} ({token.name!r}) was already revoked.")
    return True
