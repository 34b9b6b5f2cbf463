"""One package per page; importing this package registers every page of the route table."""

from portal.pages.home import page as home
from portal.pages.login import page as login
from portal.pages.not_found import page as not_found
from portal.pages.upcoming import page as upcoming

__all__ = ["home", "login", "not_found", "upcoming"]
