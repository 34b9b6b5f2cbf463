"""The legal notices in English and French: the publisher, the host and the rules of the site that
French law (LCEN, article 6) requires every professional website to state."""

from portal.pages.legal.document import Document, Section

LEGAL_NOTICES_EN = Document(
    "Last updated: 1 November 2021",
    (
        Section(
            "Publisher",
            (
                "This customer portal is published by {company} SAS, a French simplified "
                "joint-stock company (société par actions simplifiée) with a share capital of "
                "€2,500,000, and an electronic communications network operator declared to "
                "ARCEP, the French telecommunications regulator.",
                (
                    "Registered office: 12 rue des Répartiteurs, 75011 Paris, France",
                    "Paris Trade and Companies Register (RCS): 912 345 675",
                    "Intra-community VAT number: FR65 912345675",
                    "Telephone: +33 1 99 00 42 00",
                    "E-mail: legal@patchbay.test",
                ),
            ),
        ),
        Section(
            "Publication director",
            ("The publication director is Hélène Marchand, President of {company} SAS.",),
        ),
        Section(
            "Host",
            (
                "The portal is hosted by {company} SAS itself, 12 rue des Répartiteurs, "
                "75011 Paris, France, telephone +33 1 99 00 42 00, on its own servers in its "
                "data centres in Île-de-France. No third party hosts the portal or its data.",
            ),
        ),
        Section(
            "Contact",
            (
                "For any question about these notices or the portal, write to "
                "legal@patchbay.test or to the registered office. For help with your services, "
                "contact the Helpdesk as set out in your contract.",
            ),
        ),
        Section(
            "Intellectual property",
            (
                "The portal as a whole — its structure, software, texts, graphics, logos, "
                "trademarks and user documentation — is the exclusive property of {company} SAS "
                "or is used with the permission of its owners, and is protected by French and "
                "international intellectual property law.",
                "Any reproduction, representation, adaptation or distribution of all or part of "
                "the portal, by any means, without the prior written consent of {company} SAS "
                "is prohibited and may constitute an infringement under articles L. 335-2 et "
                "seq. of the French Intellectual Property Code. The data of your company shown "
                "in the portal remain yours.",
            ),
        ),
        Section(
            "Personal data",
            (
                "{company} SAS, as data controller, processes the personal data of the portal’s "
                "users to manage their accounts, secure access, provide support and perform the "
                "contract with their company, in accordance with the General Data Protection "
                "Regulation (EU) 2016/679 and the French Data Protection Act of 6 January 1978.",
                "The data processed, their purposes, how long they are kept and your rights are "
                "described in the “Personal data” section of the terms of use. You can exercise "
                "your rights by writing to legal@patchbay.test, and you may lodge a complaint "
                "with the CNIL, the French data protection authority (www.cnil.fr).",
            ),
        ),
        Section(
            "Cookies and browser storage",
            (
                "The portal sets a single cookie, which is strictly necessary: a session cookie "
                "that keeps you logged in. It holds only a random identifier, cannot be read by "
                "scripts and travels only over secure connections.",
                "Your browser’s local storage keeps your display preferences: language, light "
                "or dark mode and the chosen view of lists. They stay on your device and serve "
                "only to show the portal as you set it.",
                "The portal uses no tracking, advertising or audience-measurement cookie and "
                "loads no third-party content. Since these items are strictly necessary for the "
                "service you ask for, they need no consent (article 82 of the French Data "
                "Protection Act).",
            ),
        ),
    ),
)

LEGAL_NOTICES_FR = Document(
    "Dernière mise à jour : 1er novembre 2021",
    (
        Section(
            "Éditeur",
            (
                "Le présent portail client est édité par {company} SAS, société par actions "
                "simplifiée au capital de 2 500 000 €, opérateur de réseaux de communications "
                "électroniques déclaré auprès de l’ARCEP.",
                (
                    "Siège social : 12 rue des Répartiteurs, 75011 Paris, France",
                    "RCS Paris 912 345 675",
                    "Numéro de TVA intracommunautaire : FR65 912345675",
                    "Téléphone : +33 1 99 00 42 00",
                    "E-mail : legal@patchbay.test",
                ),
            ),
        ),
        Section(
            "Directrice de la publication",
            ("La directrice de la publication est Hélène Marchand, présidente de {company} SAS.",),
        ),
        Section(
            "Hébergeur",
            (
                "Le portail est hébergé par {company} SAS elle-même, 12 rue des Répartiteurs, "
                "75011 Paris, France, téléphone +33 1 99 00 42 00, sur ses propres serveurs "
                "installés dans ses centres de données d’Île-de-France. Aucun tiers n’héberge le "
                "portail ni ses données.",
            ),
        ),
        Section(
            "Contact",
            (
                "Pour toute question sur les présentes mentions ou sur le portail, écrivez à "
                "legal@patchbay.test ou au siège social. Pour obtenir de l’aide sur vos "
                "services, contactez le Helpdesk selon les modalités de votre contrat.",
            ),
        ),
        Section(
            "Propriété intellectuelle",
            (
                "Le portail dans son ensemble — sa structure, ses logiciels, ses textes, ses "
                "graphismes, ses logos, ses marques et sa documentation utilisateur — est la "
                "propriété exclusive de {company} SAS ou est utilisé avec l’autorisation de ses "
                "titulaires, et il est protégé par le droit français et international de la "
                "propriété intellectuelle.",
                "Toute reproduction, représentation, adaptation ou diffusion de tout ou partie "
                "du portail, par quelque procédé que ce soit, sans l’autorisation écrite "
                "préalable de {company} SAS est interdite et peut constituer une contrefaçon au "
                "sens des articles L. 335-2 et suivants du Code de la propriété intellectuelle. "
                "Les données de votre société affichées dans le portail restent les vôtres.",
            ),
        ),
        Section(
            "Données personnelles",
            (
                "{company} SAS, en qualité de responsable de traitement, traite les données "
                "personnelles des utilisateurs du portail pour gérer leurs comptes, sécuriser "
                "les accès, assurer le support et exécuter le contrat conclu avec leur société, "
                "conformément au règlement général sur la protection des données (UE) 2016/679 "
                "et à la loi Informatique et Libertés du 6 janvier 1978.",
                "Les données traitées, leurs finalités, leurs durées de conservation et vos "
                "droits sont décrits à l’article « Données personnelles » des conditions "
                "d’utilisation. Vous pouvez exercer vos droits en écrivant à "
                "legal@patchbay.test et introduire une réclamation auprès de la CNIL "
                "(www.cnil.fr).",
            ),
        ),
        Section(
            "Cookies et stockage du navigateur",
            (
                "Le portail dépose un seul cookie, strictement nécessaire : un cookie de session "
                "qui maintient votre connexion. Il ne contient qu’un identifiant aléatoire, ne "
                "peut pas être lu par des scripts et ne circule que sur des connexions "
                "sécurisées.",
                "Le stockage local de votre navigateur conserve vos préférences d’affichage : "
                "langue, mode clair ou sombre et présentation choisie pour les listes. Elles "
                "restent sur votre appareil et servent uniquement à afficher le portail comme "
                "vous l’avez réglé.",
                "Le portail n’utilise aucun cookie de suivi, de publicité ou de mesure "
                "d’audience et ne charge aucun contenu tiers. Ces éléments étant strictement "
                "nécessaires au service que vous demandez, ils ne requièrent pas votre "
                "consentement (article 82 de la loi Informatique et Libertés).",
            ),
        ),
    ),
)
