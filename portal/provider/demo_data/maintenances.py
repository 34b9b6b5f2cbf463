"""Maintenance works on the provider's network, in English and French."""

from typing import NamedTuple


class MaintenanceWork(NamedTuple):
    name_en: str
    name_fr: str


WORKS: tuple[MaintenanceWork, ...] = (
    MaintenanceWork(
        "Software upgrade of the Paris core routers",
        "Mise à jour logicielle des routeurs de cœur de Paris",
    ),
    MaintenanceWork(
        "Fibre splicing after a cable cut near Mâcon",
        "Soudure de fibres après une coupure de câble près de Mâcon",
    ),
    MaintenanceWork(
        "Replacement of optical amplifiers on the Lyon–Marseille route",
        "Remplacement d'amplificateurs optiques sur l'axe Lyon–Marseille",
    ),
    MaintenanceWork(
        "Power distribution works in data centre room 2",
        "Travaux sur la distribution électrique de la salle 2 du centre de données",
    ),
    MaintenanceWork(
        "Line card replacement on an aggregation switch",
        "Remplacement d'une carte de ligne sur un commutateur d'agrégation",
    ),
    MaintenanceWork(
        "Diversion of the London–Slough fibre for road works",
        "Déviation de la fibre Londres–Slough pour travaux de voirie",
    ),
    MaintenanceWork(
        "Firmware update of the DWDM platform",
        "Mise à jour du micrologiciel de la plateforme DWDM",
    ),
    MaintenanceWork(
        "Migration of IP transit to new border routers",
        "Migration du transit IP vers de nouveaux routeurs de bordure",
    ),
    MaintenanceWork(
        "Cooling system overhaul in Marseille MRS1",
        "Révision du système de refroidissement de Marseille MRS1",
    ),
    MaintenanceWork(
        "Renewal of the DDoS mitigation appliances",
        "Renouvellement des équipements de mitigation DDoS",
    ),
    MaintenanceWork(
        "Emergency repair of a submarine cable landing in Calais",
        "Réparation d'urgence d'un atterrissement de câble sous-marin à Calais",
    ),
    MaintenanceWork(
        "Change of the SIP session border controllers",
        "Remplacement des contrôleurs de session SIP",
    ),
)
