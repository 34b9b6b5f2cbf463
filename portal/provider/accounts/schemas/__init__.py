"""The JSON shapes of users and companies (with their sales contacts), and how rows become them."""
