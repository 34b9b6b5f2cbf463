"""The audit log (issue 17, beyond the spec): administrators read who did what and when."""

import reflex as rx

from portal import routes
from portal.components.page import page
from portal.pages.audit.state import AuditLogState
from portal.pages.audit.views import audit_log


@page(routes.AUDIT_LOG, on_load=[AuditLogState.load])
def audit() -> rx.Component:
    return audit_log()
