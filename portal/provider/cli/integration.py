"""The integration commands: ``token create|list|revoke`` and ``import FILE.jsonl``."""

from pathlib import Path
from typing import Any

from portal.provider.cli.database import database_label, migrated_engine
from portal.provider.cli.importer import DEFAULT_BATCH, import_file
from portal.provider.cli.tokens import create_token, print_tokens, revoke
from portal.provider.integration.kinds import BY_NAME, SCOPES
from portal.provider.platform.mail import wait_for_deliveries


def import_jsonl(source: Path, batch_size: int) -> bool:
    """Import the file; True only when every line went in."""
    if not source.is_file():
        print(f"Refused: no file at {source}.")
        return False
    if not 1 <= batch_size <= 1_000:
        print("Refused: --batch-size must be between 1 and 1000.")
        return False
    engine = migrated_engine()
    print(f"Importing {source} into {database_label(engine)}.")
    report = import_file(engine, source, batch_size)
    # Confirmation mails of created users leave after their batch's commit: let them go out.
    wait_for_deliveries()
    return not report.failures


def add_commands(commands: Any) -> None:
    """Add the commands to the parser's sub-commands."""
    token = commands.add_parser(
        "token",
        help="create, list or revoke API tokens of the integration API",
        description="API tokens let the provider's own systems load data through "
        "/provider/api/integration/… with 'Authorization: Bearer <token>'. A token writes "
        "the kinds of its scopes, as its owner, an active administrator, and reaches nothing "
        "else of the API.",
    )
    actions = token.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = actions.add_parser("create", help="create a token and print it, once")
    create.add_argument("--name", required=True, help="what the token is for")
    create.add_argument("--owner", required=True, help="e-mail of an active administrator")
    create.add_argument(
        "--scope",
        action="append",
        required=True,
        metavar="KIND",
        help="a kind the token may write, once per kind or separated by commas: "
        + ", ".join(SCOPES),
    )
    create.add_argument(
        "--expires", help="expiry date (2027-12-31) or ISO 8601 time; none if absent"
    )
    create.set_defaults(
        handler=lambda args: create_token(args.name, args.owner, args.scope, args.expires)
    )
    listing = actions.add_parser("list", help="list the tokens, without their values")
    listing.set_defaults(handler=lambda _args: print_tokens())
    revoking = actions.add_parser("revoke", help="revoke a token by its id")
    revoking.add_argument("id", help="the token's id, as 'token list' shows it")
    revoking.set_defaults(handler=lambda args: revoke(args.id))

    importing = commands.add_parser(
        "import",
        help="load companies, users, services… from a JSON Lines file",
        description="Each line is one object with its 'kind' ("
        + ", ".join(BY_NAME)
        + ") and the fields of the integration API. Consecutive lines of a kind go in "
        "batches, each validated whole and written in one transaction; failing lines are "
        "reported by number and left out. Objects are keyed on their reference: running the "
        "same file again updates or leaves unchanged what is there, so a re-run resumes an "
        "interrupted import. Exit code 1 if any line failed.",
    )
    importing.add_argument("file", type=Path, help="the .jsonl file")
    importing.add_argument(
        "--batch-size",
        type=int,
        default=DEFAULT_BATCH,
        help=f"objects per transaction (default {DEFAULT_BATCH}; samples go by 10 000)",
    )
    importing.set_defaults(handler=lambda args: import_jsonl(args.file, args.batch_size))
