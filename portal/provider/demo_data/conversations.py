"""Ticket conversations (issue 49), each written once in English and once in French and told on
the ticket of the story it follows (``tickets.STORIES``, matched by subject) in the customer's
language. Messages are Markdown, as customers and the helpdesk write them; the seed renders them
as the provider does. A conversation Alice has not read ends on the provider's side, so a
newcomer's tickets list shows a "New reply"."""

from typing import NamedTuple

from portal.provider.platform.models import AuthorType


class DemoMessage(NamedTuple):
    author_type: AuthorType
    hours: int  # after the ticket was opened
    body_en: str
    body_fr: str
    # A file the message carries: (demo document kind, name pattern, content type).
    file: tuple[str, str, str] | None = None


class Conversation(NamedTuple):
    subject_en: str  # the story's
    technician: str  # the provider's author
    read_by_requester: bool
    messages: tuple[DemoMessage, ...]


CUSTOMER, PROVIDER = AuthorType.CUSTOMER, AuthorType.PROVIDER

CONVERSATIONS: tuple[Conversation, ...] = (
    Conversation(
        "DDoS attack on our web front ends",
        "Ana Silva",
        read_by_requester=False,
        messages=(
            DemoMessage(
                PROVIDER,
                1,
                "Mitigation is **active** on 203.0.113.0/26 since 10:42 UTC: the scrubbing "
                "centre drops about 17 Gbit/s of UDP.\n\nDo your front ends answer normally again?",
                "La mitigation est **active** sur 203.0.113.0/26 depuis 10 h 42 UTC : le centre "
                "de nettoyage écarte environ 17 Gbit/s d'UDP.\n\nVos frontaux répondent-ils de "
                "nouveau normalement ?",
            ),
            DemoMessage(
                CUSTOMER,
                2,
                "Yes, response times are back to normal. Could you keep the mitigation on "
                "until tomorrow morning?",
                "Oui, les temps de réponse sont revenus à la normale. Pouvez-vous laisser la "
                "mitigation active jusqu'à demain matin ?",
            ),
            DemoMessage(
                PROVIDER,
                20,
                "Agreed. We keep it on until **08:00 UTC** and will send you the attack "
                "report:\n\n- peak: 18.4 Gbit/s\n- sources: about 41 000 addresses\n- vectors: "
                "DNS and NTP amplification",
                "C'est entendu. Nous la laissons active jusqu'à **8 h UTC** et vous enverrons le "
                "rapport d'attaque :\n\n- pic : 18,4 Gbit/s\n- sources : environ 41 000 "
                "adresses\n- vecteurs : amplification DNS et NTP",
            ),
        ),
    ),
    Conversation(
        "Packet loss on IP transit during peak hours",
        "Maxime Leroy",
        read_by_requester=True,
        messages=(
            DemoMessage(
                PROVIDER,
                3,
                "The aggregation link is at 92 % at 21:00. Could you send us the router log "
                "of yesterday evening?",
                "Le lien d'agrégation est à 92 % à 21 h. Pouvez-vous nous envoyer le journal "
                "de votre routeur d'hier soir ?",
            ),
            DemoMessage(
                CUSTOMER,
                5,
                "Here it is. The losses start at `19:04`, when the link reaches 9 Gbit/s.",
                "Le voici. Les pertes commencent à `19:04`, quand le lien atteint 9 Gbit/s.",
                file=("log", "router-log-{number}.txt", "text/plain"),
            ),
            DemoMessage(
                PROVIDER,
                26,
                "Thank you. A second 10G link is planned for **Thursday night**; we will tell "
                "you when the traffic is spread over both.",
                "Merci. Un second lien 10G est prévu **jeudi soir** ; nous vous préviendrons "
                "quand le trafic sera réparti sur les deux.",
            ),
        ),
    ),
    Conversation(
        "High temperature alarm in our cage",
        "Ana Silva",
        read_by_requester=True,
        messages=(
            DemoMessage(
                PROVIDER,
                1,
                "A cooling unit of the room is in fault; a technician is on the way.",
                "Une unité de climatisation de la salle est en défaut ; un technicien est en "
                "route.",
            ),
            DemoMessage(
                CUSTOMER,
                4,
                "Thank you. Rack B04 is back to *27 °C*; we keep watching it.",
                "Merci. La baie B04 est redescendue à *27 °C* ; nous restons attentifs.",
            ),
        ),
    ),
)
