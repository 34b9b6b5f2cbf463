"""The JSON shapes of tickets and their attachments, and how rows become them."""
