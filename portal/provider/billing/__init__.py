"""Billing: invoices and credit notes, their lines and PDFs, and the invoicing summary. Like
every domain it imports only platform and itself."""
