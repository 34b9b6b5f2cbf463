"""Companies (issue 52): administrators set each company's login policy."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.companies.state import CompaniesState
from portal.pages.companies.views import companies_screen


@page(routes.COMPANIES, on_load=[CompaniesState.load])
def companies() -> rx.Component:
    return companies_screen()
