"""Webhooks (issue 51): a company's endpoints for its user managers, reached from the user
menu beside API access."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.webhooks.state import WebhooksState
from portal.pages.webhooks.views import webhooks_screen


@page(routes.WEBHOOKS, on_load=[WebhooksState.load])
def webhooks() -> rx.Component:
    return webhooks_screen()
