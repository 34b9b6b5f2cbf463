"""Les conditions d’utilisation en français (spec 2 et 9 : en vigueur le 1er novembre 2021)."""

from portal.pages.legal.document import Document, Section

TERMS_OF_USE_FR = Document(
    "Date d’entrée en vigueur : 1er novembre 2021",
    (
        Section(
            "1. Objet et champ d’application",
            (
                "Les présentes conditions d’utilisation régissent l’accès au portail client (le "
                "« Portail ») que {company} SAS (« {company} ») met à la disposition de ses "
                "clients professionnels, ainsi que son utilisation. Le Portail permet aux "
                "utilisateurs désignés par un client de suivre les services de ce client et "
                "leurs documents, ses factures et avoirs, ses tickets de support, les fenêtres "
                "de maintenance, ses contacts et ses sondes de supervision.",
                "Elles s’appliquent à chaque utilisateur, en complément du contrat conclu entre "
                "{company} et le client (le « Contrat »). Seul le Contrat régit les services "
                "eux-mêmes ; en cas de contradiction entre les présentes conditions et le "
                "Contrat, le Contrat prévaut.",
                "Chaque utilisateur doit lire et accepter les présentes conditions avant sa "
                "première utilisation du Portail, puis à nouveau après chaque modification.",
            ),
        ),
        Section(
            "2. Accès et identifiants",
            (
                "Le Portail est réservé aux clients ayant signé un Contrat avec {company}. "
                "{company} remet les identifiants à l’administrateur désigné par le client. Cet "
                "administrateur décide quels membres du personnel du client peuvent accéder au "
                "Portail, crée leurs comptes, leur attribue les rôles nécessaires (par exemple "
                "l’accès aux factures ou à la supervision) et ferme le compte de toute personne "
                "qui quitte l’entreprise ou n’a plus besoin d’accès.",
                "Les identifiants sont personnels. L’utilisateur ne doit pas les partager ; il "
                "garde son mot de passe secret et choisit un mot de passe d’au moins "
                "10 caractères, comprenant un chiffre et une majuscule, qu’il n’utilise nulle "
                "part ailleurs.",
                "Le client est responsable des comptes qu’il a demandés et de toute action "
                "effectuée avec ceux-ci, sauf s’il démontre une faute de {company}. Toute perte, "
                "tout vol ou toute utilisation abusive présumée des identifiants doit être "
                "signalé sans délai au Helpdesk, et le mot de passe changé immédiatement.",
            ),
        ),
        Section(
            "3. Obligations des utilisateurs",
            (
                "L’utilisateur s’engage à :",
                (
                    "n’utiliser le Portail que pour les relations d’affaires du client avec "
                    "{company} ;",
                    "fournir des informations exactes et tenir son profil à jour ;",
                    "ne pas tenter d’accéder à des données, comptes ou systèmes qu’il n’est pas "
                    "autorisé à utiliser, notamment ceux d’autres clients ;",
                    "ne pas perturber le Portail, ni tester sa sécurité, ni en extraire le "
                    "contenu par des moyens automatisés au-delà d’un usage normal ;",
                    "respecter les lois et règlements en vigueur.",
                ),
                "{company} peut suspendre immédiatement un compte en cas de manquement aux "
                "présentes conditions ou de menace pour la sécurité du Portail ; elle en informe "
                "alors l’administrateur du client.",
            ),
        ),
        Section(
            "4. Confidentialité",
            (
                "Les informations affichées dans le Portail — notamment l’architecture réseau, "
                "les extrémités, les références de services, les prix, les factures, les "
                "plannings de maintenance, les tickets et les données de supervision — sont "
                "confidentielles. L’utilisateur ne peut les utiliser que pour l’exécution du "
                "Contrat et ne doit pas les divulguer à des tiers, à l’exception des conseils et "
                "prestataires du client tenus à une obligation de confidentialité équivalente.",
                "Cette obligation se poursuit après la fin du Contrat tant que les informations "
                "demeurent confidentielles.",
            ),
        ),
        Section(
            "5. Sécurité",
            (
                "{company} protège le Portail par des mesures adaptées à la sensibilité des "
                "informations qu’il contient : connexions chiffrées, mots de passe conservés "
                "uniquement sous forme d’empreintes salées, sessions qui prennent fin après "
                "30 minutes d’inactivité et au plus tard après 12 heures, limitation des "
                "tentatives de connexion répétées et journalisation des connexions.",
                "Pour assister un client, les membres habilités du personnel de {company} "
                "peuvent consulter le Portail tel qu’un utilisateur donné le voit. Seuls ceux "
                "qui en ont besoin peuvent le faire, et chacun de ces accès est enregistré avec "
                "les personnes concernées et l’heure.",
                "Les utilisateurs contribuent à la sécurité : ils se déconnectent sur les "
                "appareils partagés, maintiennent leur navigateur à jour et signalent toute "
                "vulnérabilité ou tout incident au Helpdesk.",
            ),
        ),
        Section(
            "6. Disponibilité",
            (
                "Le Portail est en principe accessible 24 heures sur 24, 7 jours sur 7. "
                "{company} le fournit avec tout le soin raisonnable, au titre d’une obligation "
                "de moyens : il peut être interrompu pour maintenance, annoncée à l’avance "
                "lorsque c’est possible, ou en cas d’incident ou de force majeure.",
                "La disponibilité du Portail est sans effet sur celle des services, dont les "
                "engagements (niveaux de service, délais de rétablissement) sont fixés par le "
                "seul Contrat. Lorsque le Portail est indisponible, les incidents peuvent "
                "toujours être signalés au Helpdesk par téléphone.",
            ),
        ),
        Section(
            "7. Données personnelles",
            (
                "{company} SAS, 12 rue des Répartiteurs, 75011 Paris, France, est responsable "
                "des traitements de données personnelles effectués dans le Portail, au sens du "
                "règlement général sur la protection des données (UE) 2016/679 et de la loi "
                "Informatique et Libertés du 6 janvier 1978. Elle traite :",
                (
                    "les données d’inscription : nom, prénom, adresse e-mail professionnelle, "
                    "numéro de téléphone, fonction, société et rôles ;",
                    "les journaux de connexion : date et heure, adresse IP, pages consultées et "
                    "actions, tentatives de connexion ;",
                    "les préférences d’affichage, conservées dans le navigateur de "
                    "l’utilisateur (voir l’article 9).",
                ),
                "Ces données servent à gérer les comptes des utilisateurs, à sécuriser les accès "
                "et détecter les abus, à assurer le support et à exécuter le Contrat. Les bases "
                "légales sont l’exécution du Contrat, l’intérêt légitime de {company} à "
                "sécuriser ses systèmes et, pour les journaux de connexion, ses obligations "
                "légales d’opérateur de communications électroniques et d’hébergeur.",
                "Elles sont traitées par les membres du personnel de {company} qui en ont "
                "besoin, sur les propres serveurs de {company} situés en France. Elles ne sont "
                "ni vendues, ni utilisées à des fins publicitaires, ni transférées hors de "
                "l’Union européenne.",
                "Durées de conservation : les données d’inscription sont conservées 5 ans après "
                "la fin du Contrat, durée de la prescription commerciale ; les journaux de "
                "connexion sont conservés 1 an. Les données sont ensuite supprimées ou "
                "anonymisées.",
                "L’utilisateur dispose d’un droit d’accès, de rectification et d’effacement de "
                "ses données, d’un droit à la limitation du traitement, d’un droit d’opposition "
                "et d’un droit à la portabilité ; il peut aussi définir des directives relatives "
                "au sort de ses données après son décès. Il exerce ces droits en écrivant à "
                "legal@patchbay.test et peut introduire une réclamation auprès de la CNIL "
                "(www.cnil.fr).",
            ),
        ),
        Section(
            "8. Accès après la fin du Contrat",
            (
                "À la fin du Contrat, les utilisateurs du client conservent l’accès au Portail "
                "pendant 12 mois après la fin du Contrat, afin de consulter et de télécharger "
                "les factures, les avoirs et les documents. Leurs comptes sont ensuite fermés et "
                "leurs données d’inscription conservées comme indiqué à l’article 7.",
                "L’administrateur du client peut demander la fermeture anticipée des comptes.",
            ),
        ),
        Section(
            "9. Cookies et stockage du navigateur",
            (
                "Le Portail dépose un seul cookie, strictement nécessaire au maintien de la "
                "connexion de l’utilisateur. Il ne contient qu’un identifiant aléatoire, ne peut "
                "pas être lu par des scripts et ne circule que sur des connexions sécurisées. Il "
                "ne donne plus accès au Portail dès que l’utilisateur se déconnecte, après "
                "30 minutes d’inactivité ou après 12 heures.",
                "Le stockage local du navigateur conserve les préférences d’affichage : langue, "
                "mode clair ou sombre et présentation choisie pour les listes. Le Portail "
                "n’utilise aucun cookie de suivi, de publicité ou de mesure d’audience et ne "
                "charge aucun contenu tiers ; aucun consentement n’est donc requis.",
            ),
        ),
        Section(
            "10. Propriété intellectuelle",
            (
                "Le Portail, ses logiciels, son contenu et sa documentation appartiennent à "
                "{company} ou à ses concédants. {company} accorde à chaque utilisateur un droit "
                "personnel, non exclusif et non cessible d’utiliser le Portail pendant la durée "
                "de son accès et aux seules fins des présentes conditions. Toute autre "
                "utilisation, reproduction ou adaptation est interdite.",
                "Les données que le client saisit dans le Portail, telles que ses propres "
                "références de services, restent sa propriété ; {company} ne les utilise que "
                "pour fournir ses services.",
            ),
        ),
        Section(
            "11. Responsabilité",
            (
                "Les informations affichées dans le Portail sont fournies pour la commodité des "
                "utilisateurs, telles qu’elles figurent dans les systèmes de {company} au moment "
                "de leur affichage. Les factures et documents émis au titre du Contrat prévalent "
                "sur leur affichage dans le Portail ; les données de supervision sont "
                "indicatives.",
                "{company} n’est responsable que des dommages directs prouvés par le client et "
                "causés par une faute dans la fourniture du Portail, dans les limites fixées par "
                "le Contrat. Elle n’est pas responsable des dommages causés par une utilisation "
                "non conforme du Portail, par la divulgation d’identifiants par un utilisateur "
                "ou par une défaillance de l’accès à Internet de l’utilisateur.",
            ),
        ),
        Section(
            "12. Modification des conditions",
            (
                "{company} peut modifier les présentes conditions, notamment pour tenir compte "
                "de l’évolution du Portail ou de la loi. Une nouvelle version s’applique à "
                "compter de la date d’entrée en vigueur indiquée en haut de cette page. Chaque "
                "utilisateur est invité à l’accepter lors de sa connexion suivante et ne peut "
                "pas utiliser le Portail avant de l’avoir fait.",
            ),
        ),
        Section(
            "13. Droit applicable et juridiction",
            (
                "Les présentes conditions sont régies par le droit français. Elles sont rédigées "
                "en français et en anglais ; en cas de divergence, la version française prévaut.",
                "Les parties rechercheront d’abord une solution amiable à tout différend relatif "
                "à leur interprétation ou à leur exécution. À défaut d’accord dans un délai de "
                "30 jours, le différend sera porté devant les tribunaux compétents de Paris, "
                "nonobstant pluralité de défendeurs ou appel en garantie.",
            ),
        ),
    ),
)
