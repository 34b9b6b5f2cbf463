"""A sensor as a webhook event shows it to its company (issue 51): as the sensors list does."""

import uuid
from typing import Any

from sqlmodel import Session

from portal.provider.monitoring.schemas.sensors import sensor_out
from portal.provider.platform.models import Sensor
from portal.provider.platform.security import Principal


def render_sensor(db: Session, sensor_id: uuid.UUID, reader: Principal) -> dict[str, Any]:
    sensor = db.get_one(Sensor, sensor_id)
    if sensor.company_id not in reader.company_ids:
        raise LookupError(f"sensor {sensor_id} is not of the reader's company")
    return sensor_out(sensor).model_dump(mode="json", by_alias=True)
