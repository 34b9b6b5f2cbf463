"""The maintenance table and its dialog (spec 2, Maintenance table and dialog), shared by the
service page, the maintenances screen and the dashboard. A page subclasses ``MaintenanceList``
(``portal.components.maintenances.state``) and passes its state:

    maintenances_table(state)   # portal.components.maintenances.table
    maintenance_dialog(state)   # portal.components.maintenances.dialog, once per page

The list sorts on ``dateStart`` descending and always keeps a sort.
"""
