"""The JSON shapes of sensors and their charts, and how rows become them."""
