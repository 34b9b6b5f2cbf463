"""The JSON shapes of services, their types and their termination documents, and how rows become
them."""
