"""The invoice table (spec 2, Invoices): shared by a service's page and the invoicing screen."""
