"""Legal documents as readable articles, and the acceptance bar of the terms of use."""

import reflex as rx

from portal.components.i18n import _
from portal.pages.legal.document import Block, Document, Section
from portal.pages.legal.state import TermsState
from portal.settings import get_settings
from portal.state.preferences import LanguageState
from portal.state.session import SessionState

READABLE_WIDTH = "80ch"
_BODY = {"font_size": "var(--font-size-3)", "line_height": "1.65", "margin": "0"}


def _block(block: Block) -> rx.Component:
    if isinstance(block, str):
        return rx.el.p(block, **_BODY)
    return rx.list.unordered(
        *(rx.list.item(item, margin_bottom="0.25em") for item in block),
        padding_left="1.5em",
        **_BODY,
    )


def _section(section: Section) -> rx.Component:
    return rx.el.section(
        rx.vstack(
            rx.heading(section.heading, as_="h2", size="4", color=rx.color("purple", 11)),
            *(_block(block) for block in section.blocks),
            spacing="3",
        ),
    )


def _article(document: Document, language: str) -> rx.Component:
    filled = document.filled(company=get_settings().company_name)
    return rx.el.article(
        rx.vstack(
            rx.text(filled.note, size="2", weight="medium", color=rx.color("gray", 11)),
            *(_section(section) for section in filled.sections),
            spacing="6",
        ),
        lang=language,
    )


def bilingual_document(english: Document, french: Document) -> rx.Component:
    """Both versions ship; the browser shows the one of the current language."""
    return rx.card(
        rx.cond(
            LanguageState.shown == "fr",
            _article(french, "fr"),
            _article(english, "en"),
        ),
        size=rx.breakpoints(initial="2", sm="4"),
        width="100%",
        max_width=READABLE_WIDTH,
    )


def _awaiting_acceptance() -> rx.Var[bool]:
    return SessionState.is_logged_in & ~SessionState.has_accepted_terms


def acceptance_notice() -> rx.Component:
    return rx.cond(
        _awaiting_acceptance(),
        rx.callout(
            _(
                "You have not accepted the terms of use yet. Please read them, then tick the "
                "box and validate to use the portal."
            ),
            icon="triangle-alert",
            color_scheme="amber",
            role="alert",
            width="100%",
            max_width=READABLE_WIDTH,
        ),
    )


def acceptance_bar() -> rx.Component:
    """Kept in sight at the bottom of the window while the text scrolls by."""
    return rx.cond(
        _awaiting_acceptance(),
        rx.flex(
            rx.checkbox(
                _("I have read and accept the terms of use"),
                checked=TermsState.terms_ticked,
                on_change=TermsState.set_terms_ticked,
                size="3",
            ),
            rx.button(
                _("Validate"),
                on_click=TermsState.accept,
                disabled=~TermsState.terms_ticked,
                loading=TermsState.accepting,
                size="3",
                flex_shrink="0",
            ),
            align="center",
            justify="between",
            gap="3",
            position="sticky",
            bottom="16px",
            z_index="1",
            width="100%",
            max_width=READABLE_WIDTH,
            padding=["12px", "12px 16px"],
            # Opaque, unlike a card's translucent panel: the text scrolls beneath it.
            background_color="var(--color-panel-solid)",
            border=f"1px solid {rx.color('gray', 6)}",
            border_radius="var(--radius-4)",
            box_shadow="var(--shadow-5)",
        ),
    )
