"""Maintenances: maintenance windows, their impacted services and contacts, and the private
calendar feed of them. Like every domain it imports only platform and itself."""
