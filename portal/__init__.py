"""Patchbay: the customer portal of a network and infrastructure provider."""
