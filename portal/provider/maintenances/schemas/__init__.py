"""The JSON shapes of maintenances, their impacted services and contacts, and how rows become
them."""
