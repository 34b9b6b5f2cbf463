"""The JSON shapes of the API's resources, and how rows become them."""
