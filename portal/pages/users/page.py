"""Users (spec 2): the users the signed-in user may see, filtered, sorted and paged."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.users.state import UsersListState
from portal.pages.users.views import users_list


@page(routes.USERS, on_load=[UsersListState.load])
def users() -> rx.Component:
    return users_list()
