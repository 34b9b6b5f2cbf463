"""Support: tickets and their attachments. Like every domain it imports only platform and
itself."""
