"""The JSON shapes of invoices, credit notes and their lines, and how rows become them."""
