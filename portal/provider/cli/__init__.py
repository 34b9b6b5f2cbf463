"""The embedded provider's command line: migrations, demo data (and its reset), the first
administrator, API tokens and JSON Lines imports.

Operators run it in a shell, so it speaks English like the other tools of the stack (alembic,
reflex). Every command answers with an exit code: 0 done, 1 refused (the message says why),
2 wrong usage (argparse's own).
"""

import argparse
from collections.abc import Sequence

from portal.logs import configure_logging
from portal.provider.cli.admin import create_admin
from portal.provider.cli.database import migrate_database, purge_expired, reset_demo, seed_demo
from portal.provider.cli.integration import add_commands as add_integration_commands
from portal.provider.cli.logins import print_logins
from portal.provider.cli.rollup import roll_up_sensors
from portal.provider.webhook_events import register_renderers
from portal.settings import get_settings

EXIT_OK = 0
EXIT_REFUSED = 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m portal.provider",
        description="Manage the database of the embedded provider API. The database is the "
        "one of DATABASE_URL (SQLite under data/ by default).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    migrate = commands.add_parser("migrate", help="apply the database migrations")
    migrate.set_defaults(handler=lambda _args: migrate_database())

    seed = commands.add_parser(
        "seed-demo",
        help="migrate, then load the demo data into a database without users",
        description="Migrate, then load the demo data (companies, demo accounts, services, "
        "invoices, tickets, maintenances, sensors) if the database has no user yet. "
        "Refused in production.",
    )
    seed.set_defaults(handler=lambda _args: seed_demo())

    reset = commands.add_parser(
        "reset-demo",
        help="empty every table, then load the demo data again",
        description="Migrate, then, in one transaction, delete every row of every table "
        "(whatever it holds: users, imports, API tokens) and load the demo data again, as a "
        "fresh install would. Browser tests run it before each module. Refused in production.",
    )
    reset.set_defaults(handler=lambda _args: reset_demo())

    admin = commands.add_parser(
        "create-admin",
        help="create the first administrator of a real installation",
        description="Migrate, then create a user with ROLE_ADMIN in the staff company "
        "(created if missing). The e-mail must belong to the staff mail domain. Without "
        "--password the password is asked for twice, without echo. The administrator accepts "
        "the terms of use at first login.",
    )
    admin.add_argument("--email", required=True, help="login e-mail, of the staff mail domain")
    admin.add_argument("--firstname", required=True, help="first name")
    admin.add_argument("--lastname", required=True, help="last name")
    admin.add_argument(
        "--password",
        help="at least 10 characters with a digit and an uppercase letter; prefer the prompt, "
        "which keeps it out of the shell history",
    )
    admin.set_defaults(
        handler=lambda args: create_admin(args.email, args.firstname, args.lastname, args.password)
    )

    logins = commands.add_parser(
        "print-logins", help="print the portal's address and the demo accounts"
    )
    logins.set_defaults(handler=lambda _args: print_logins())
    purge = commands.add_parser(
        "purge",
        help="delete expired sessions and one-time links, closed rate-limit windows, sent "
        "mails and audit entries past their retention (run it from cron, e.g. hourly)",
    )
    purge.set_defaults(handler=lambda _args: purge_expired())
    rollup = commands.add_parser(
        "roll-up",
        help="sum sensor samples up into hours and days, and drop what is no longer kept",
        description="Sum raw sensor samples up into hourly and daily roll-ups (min, max, sum, "
        "count), then drop raw samples older than 48 hours, hours older than 31 days and days "
        "older than 366 days. The provider runs it every SENSOR_ROLLUP_MINUTES by itself; run "
        "it from cron with SENSOR_ROLLUP_MINUTES=0. Safe to run at any time, twice at once.",
    )
    rollup.set_defaults(handler=lambda _args: roll_up_sensors())
    add_integration_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = get_settings()
    configure_logging(settings.effective_log_format, settings.log_level)
    register_renderers()
    return EXIT_OK if args.handler(args) else EXIT_REFUSED
