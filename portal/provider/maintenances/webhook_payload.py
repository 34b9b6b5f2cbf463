"""A maintenance as a webhook event shows it to one company (issue 51): its item route's
answer read by that company alone, so a shared maintenance lists only the company's services
and contacts. Read without the visibility check: a company the maintenance no longer impacts
is told of the cancellation, with no service of its own left in it."""

import uuid
from typing import Any

from sqlmodel import Session, col, select

from portal.provider.maintenances.queries import visible_contacts
from portal.provider.maintenances.schemas.maintenances import maintenance_detail_out
from portal.provider.platform.db import preload
from portal.provider.platform.models import Maintenance, MaintenanceService, Service
from portal.provider.platform.scoping import through_visible_services
from portal.provider.platform.security import Principal


def render_maintenance(db: Session, maintenance_id: uuid.UUID, reader: Principal) -> dict[str, Any]:
    maintenance = db.get_one(Maintenance, maintenance_id)
    services = through_visible_services(
        select(Service)
        .join(MaintenanceService, col(MaintenanceService.service_id) == col(Service.id))
        .where(MaintenanceService.maintenance_id == maintenance.id),
        reader,
    ).options(*preload(Service.type, Service.endpoint_a, Service.endpoint_b))
    impacted = list(db.exec(services.order_by(col(Service.reference))))
    contacts = visible_contacts(maintenance.contacts, reader)
    answer = maintenance_detail_out(maintenance, impacted, contacts, "en")
    return answer.model_dump(mode="json", by_alias=True)
