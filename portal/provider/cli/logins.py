"""``print-logins``: where the portal answers and how to log in to the demo."""

from portal.provider.seed import demo_logins
from portal.settings import get_settings

HEADINGS = ("E-mail", "Password", "Account")


def login_table(rows: list[tuple[str, str, str]]) -> list[str]:
    """Rows as aligned columns under their headings."""
    widths = [max(len(row[column]) for row in [HEADINGS, *rows]) for column in range(2)]

    def line(row: tuple[str, str, str]) -> str:
        return f"  {row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]}"

    rule = ("-" * widths[0], "-" * widths[1], "-" * max(len(row[2]) for row in rows))
    return [line(HEADINGS), line(rule), *(line(row) for row in rows)]


def print_logins() -> bool:
    settings = get_settings()
    print(f"Patchbay portal: {settings.portal_public_url}")
    if settings.environment == "production" or not settings.seed_demo:
        return True
    print()
    print("Demo accounts:")
    print("\n".join(login_table(demo_logins())))
    return True
