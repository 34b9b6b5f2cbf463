"""One package per page; importing this package registers every page of the route table,
which ``add_pages`` then adds to the app."""

from portal.components.page import add_pages
from portal.pages.forgot_password import page as forgot_password
from portal.pages.home import page as home
from portal.pages.legal import page as legal
from portal.pages.login import page as login
from portal.pages.not_found import page as not_found
from portal.pages.reset_password import page as reset_password
from portal.pages.service import page as service
from portal.pages.services import page as services
from portal.pages.upcoming import page as upcoming
from portal.pages.user import page as user
from portal.pages.users import page as users

__all__ = [
    "add_pages",
    "forgot_password",
    "home",
    "legal",
    "login",
    "not_found",
    "reset_password",
    "service",
    "services",
    "upcoming",
    "user",
    "users",
]
