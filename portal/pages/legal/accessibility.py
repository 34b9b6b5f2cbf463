"""The accessibility statement in English and French (issue 54): the standard aimed at, how the
portal is checked, what is known not to meet it, and whom to write to. It says only what the
tests check (tests/e2e/test_accessibility.py, tests/e2e/test_keyboard.py)."""

from portal.pages.legal.document import Document, Section

ACCESSIBILITY_EN = Document(
    "Last updated: 5 December 2026",
    (
        Section(
            "Our commitment",
            (
                "{company} SAS wants every customer to use this portal, whether they read it with "
                "a screen reader, a magnifier or at 400 % zoom, or work by keyboard alone. The "
                "portal aims at conformance with the Web Content Accessibility Guidelines (WCAG) "
                "2.2, level AA, which is also the level of the European standard EN 301 549 and of "
                "the French RGAA.",
            ),
        ),
        Section(
            "How the portal is checked",
            (
                "Every change to the portal runs these checks before it is released:",
                (
                    "the axe-core engine checks every page and every dialog against the WCAG 2.0, "
                    "2.1 and 2.2 rules of levels A and AA, in English and in French, in the light "
                    "and the dark theme, at desktop and phone widths: no violation is accepted;",
                    "browser tests carry out the main tasks with the keyboard alone: logging in, "
                    "changing the language, filtering, sorting and paging a list, opening a "
                    "service, opening and closing a dialog, reading a sensor's chart, moving "
                    "through the maintenance calendar and replying to a ticket;",
                    "the colours of both themes are checked for a contrast of at least 4.5:1 for "
                    "text and 3:1 for the outlines of controls.",
                ),
            ),
        ),
        Section(
            "What the portal offers",
            (
                (
                    "a link to skip to the main content, landmarks and one main heading per page;",
                    "a visible focus indicator on every control, and dialogs that keep the focus "
                    "while open and give it back when they close;",
                    "statuses written out in words, never shown by colour alone;",
                    "errors of a form announced and tied to their field;",
                    "a text summary and a table view of every chart, and a readout of its values "
                    "that the arrow keys move;",
                    "reduced motion when your system asks for it.",
                ),
            ),
        ),
        Section(
            "Known limits",
            (
                (
                    "The PDF files the portal offers (invoices and the user documentation) are not "
                    "tagged PDF: a screen reader reads their text in the order it is written. The "
                    "same invoices are readable on the Invoicing page.",
                    "The month grid of the maintenance calendar is a visual overview; the list "
                    "view of the same page shows the same maintenances as a table.",
                    "The portal has not yet been audited by people using assistive technology "
                    "every day; such an audit is planned.",
                ),
            ),
        ),
        Section(
            "Contact",
            (
                "If you cannot reach a content or a service of the portal, or find a barrier we "
                "have not listed, write to accessibility@patchbay.test or open a ticket: we answer "
                "within five working days and send you the content in a form you can use.",
                "If our answer does not satisfy you, you may contact the Défenseur des droits, the "
                "French authority that handles such complaints (defenseurdesdroits.fr).",
            ),
        ),
    ),
)

ACCESSIBILITY_FR = Document(
    "Dernière mise à jour : 5 décembre 2026",
    (
        Section(
            "Notre engagement",
            (
                "{company} SAS veut que chaque client puisse utiliser ce portail, qu’il le lise "
                "avec un lecteur d’écran, une loupe ou un zoom à 400 %, ou qu’il travaille au "
                "clavier seul. Le portail vise la conformité aux règles pour l’accessibilité des "
                "contenus web (WCAG) 2.2, niveau AA, qui est aussi le niveau de la norme "
                "européenne EN 301 549 et du RGAA.",
            ),
        ),
        Section(
            "Comment le portail est vérifié",
            (
                "Chaque modification du portail passe ces vérifications avant sa mise en ligne :",
                (
                    "le moteur axe-core vérifie chaque page et chaque fenêtre de dialogue selon "
                    "les règles des WCAG 2.0, 2.1 et 2.2 de niveaux A et AA, en français et en "
                    "anglais, en thème clair et sombre, sur ordinateur et sur téléphone : aucune "
                    "non-conformité n’est acceptée ;",
                    "des tests dans le navigateur accomplissent au clavier seul les tâches "
                    "principales : se connecter, changer de langue, filtrer, trier et paginer une "
                    "liste, ouvrir un service, ouvrir et fermer une fenêtre de dialogue, lire le "
                    "graphique d’une sonde, parcourir le calendrier des maintenances et répondre à "
                    "un ticket ;",
                    "les couleurs des deux thèmes sont vérifiées : un contraste d’au moins 4,5:1 "
                    "pour le texte et de 3:1 pour le contour des contrôles.",
                ),
            ),
        ),
        Section(
            "Ce que le portail offre",
            (
                (
                    "un lien d’accès direct au contenu, des régions et un titre principal par "
                    "page ;",
                    "un indicateur de focus visible sur chaque contrôle, et des fenêtres de "
                    "dialogue qui gardent le focus tant qu’elles sont ouvertes et le rendent à "
                    "leur fermeture ;",
                    "des statuts écrits en toutes lettres, jamais signalés par la seule couleur ;",
                    "les erreurs d’un formulaire annoncées et liées à leur champ ;",
                    "un résumé textuel et une vue en tableau de chaque graphique, et une lecture "
                    "de ses valeurs que les flèches du clavier déplacent ;",
                    "des animations réduites quand votre système le demande.",
                ),
            ),
        ),
        Section(
            "Limites connues",
            (
                (
                    "Les fichiers PDF proposés par le portail (factures et documentation "
                    "utilisateur) ne sont pas des PDF balisés : un lecteur d’écran lit leur texte "
                    "dans l’ordre où il est écrit. Les mêmes factures se lisent sur la page "
                    "Facturation.",
                    "La grille mensuelle du calendrier des maintenances est une vue d’ensemble "
                    "visuelle ; la vue en liste de la même page présente les mêmes maintenances "
                    "dans un tableau.",
                    "Le portail n’a pas encore été audité par des personnes qui utilisent une "
                    "technologie d’assistance au quotidien ; cet audit est prévu.",
                ),
            ),
        ),
        Section(
            "Contact",
            (
                "Si vous ne pouvez pas accéder à un contenu ou à un service du portail, ou si vous "
                "rencontrez un obstacle que nous n’avons pas listé, écrivez à "
                "accessibility@patchbay.test ou ouvrez un ticket : nous répondons sous cinq jours "
                "ouvrés et vous transmettons le contenu sous une forme que vous pouvez utiliser.",
                "Si notre réponse ne vous satisfait pas, vous pouvez saisir le Défenseur des "
                "droits (defenseurdesdroits.fr).",
            ),
        ),
    ),
)
