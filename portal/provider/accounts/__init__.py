"""Accounts: users and their companies, logging in and out, password reset, the second factor,
impersonation, and the audit log an administrator reads. Like every domain it imports only
platform and itself."""
