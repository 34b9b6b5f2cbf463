"""Services: the services, their types and documents, termination documents, client references
(import, template, export) and the services export. Like every domain it imports only platform
and itself."""
