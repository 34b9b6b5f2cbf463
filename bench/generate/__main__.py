"""``python -m bench.generate --scale S``: fill ``DATABASE_URL`` (PostgreSQL) with the data set."""

import argparse
import sys
from datetime import date

from bench.generate.plan import DEFAULT_SEED, Plan
from bench.generate.run import NotPostgreSQL, generate
from portal.settings import get_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.generate", description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="1 = 200 000 services (default)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--anchor",
        type=date.fromisoformat,
        default=None,
        help="the data set's today, YYYY-MM-DD (default: today); same seed and anchor, same rows",
    )
    arguments = parser.parse_args(argv)
    if arguments.scale <= 0:
        parser.error("--scale must be positive")
    plan = Plan(arguments.scale, arguments.seed)
    if arguments.anchor:
        plan = Plan(arguments.scale, arguments.seed, arguments.anchor)
    try:
        generate(get_settings().database_url, plan)
    except NotPostgreSQL as error:
        print(f"Refused: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
