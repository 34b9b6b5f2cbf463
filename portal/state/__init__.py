"""Shared states: preferences, messages and the portal session."""
