"""One package per page; importing this package registers every page of the route table,
which ``add_pages`` then adds to the app."""

from portal.components.page import add_pages
from portal.pages.home import page as home
from portal.pages.legal import page as legal
from portal.pages.login import page as login
from portal.pages.not_found import page as not_found
from portal.pages.upcoming import page as upcoming
from portal.pages.user import page as user
from portal.pages.users import page as users

__all__ = ["add_pages", "home", "legal", "login", "not_found", "upcoming", "user", "users"]
