"""The maintenance table and its dialog (spec 2, Maintenance table and dialog), shared by the
service page and the dashboard.

    maintenances_table()   # portal.components.maintenances.table
    maintenance_dialog()   # portal.components.maintenances.dialog, once per page
    MaintenancesState.show_for_service(reference)   # "" for every maintenance of the user

The state sorts on ``dateStart`` descending and always keeps a sort; a page that wants other
page sizes (the dashboard's 5) passes its own to ``data_table`` and sets ``items_per_page``.
"""
