"""Contacts (spec 2): whom to write to, and the sales contacts of the user's companies with
their managers and assistants."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.contacts.state import ContactsState
from portal.pages.contacts.views import contacts_page


@page(routes.CONTACTS, on_load=[ContactsState.load])
def contacts() -> rx.Component:
    return contacts_page()
