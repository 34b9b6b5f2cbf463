"""Spec 2 and 9: the legal notices and the terms of use say the same in both languages, and the
terms state their effective date and the three retention periods."""

import pytest

from portal.pages.legal.accessibility import ACCESSIBILITY_EN, ACCESSIBILITY_FR
from portal.pages.legal.document import Document
from portal.pages.legal.notices import LEGAL_NOTICES_EN, LEGAL_NOTICES_FR
from portal.pages.legal.terms_en import TERMS_OF_USE_EN
from portal.pages.legal.terms_fr import TERMS_OF_USE_FR

NBSP = "\u00a0"
PAIRS = [
    pytest.param(LEGAL_NOTICES_EN, LEGAL_NOTICES_FR, id="legal notices"),
    pytest.param(TERMS_OF_USE_EN, TERMS_OF_USE_FR, id="terms of use"),
    pytest.param(ACCESSIBILITY_EN, ACCESSIBILITY_FR, id="accessibility statement"),
]


def shape(document: Document) -> list[list[int]]:
    """Per section, each block's kind: 0 for a paragraph, else the number of list items."""
    return [
        [0 if isinstance(block, str) else len(block) for block in section.blocks]
        for section in document.sections
    ]


def plain(document: Document) -> str:
    """The filled text with French non-breaking spaces as plain spaces, for easy matching."""
    return document.filled(company="Patchbay").text().replace(NBSP, " ")


@pytest.mark.parametrize(("english", "french"), PAIRS)
def test_both_languages_have_the_same_sections(english: Document, french: Document) -> None:
    assert len(english.sections) == len(french.sections)
    assert shape(english) == shape(french)


@pytest.mark.parametrize(("english", "french"), PAIRS)
def test_the_company_name_is_filled_everywhere(english: Document, french: Document) -> None:
    for document in (english, french):
        text = plain(document)
        assert "{" not in text
        assert "}" not in text
        assert "Patchbay SAS" in text


def test_the_terms_state_their_effective_date() -> None:
    assert TERMS_OF_USE_EN.note == "Effective date: 1 November 2021"
    assert plain(TERMS_OF_USE_FR).startswith("Date d’entrée en vigueur : 1er novembre 2021")


@pytest.mark.parametrize(
    ("document", "periods"),
    [
        pytest.param(
            TERMS_OF_USE_EN,
            (
                "registration data are kept for 5 years after the end of the Contract",
                "connection logs are kept for 1 year",
                "12 months after the end of the Contract",
            ),
            id="en",
        ),
        pytest.param(
            TERMS_OF_USE_FR,
            (
                "les données d’inscription sont conservées 5 ans après la fin du Contrat",
                "les journaux de connexion sont conservés 1 an",
                "12 mois après la fin du Contrat",
            ),
            id="fr",
        ),
    ],
)
def test_the_terms_state_the_retention_periods(
    document: Document, periods: tuple[str, ...]
) -> None:
    text = plain(document)
    for period in periods:
        assert period in text


@pytest.mark.parametrize(
    "document", [LEGAL_NOTICES_EN, LEGAL_NOTICES_FR, TERMS_OF_USE_EN, TERMS_OF_USE_FR]
)
def test_every_document_gives_the_legal_contact(document: Document) -> None:
    assert "legal@patchbay.test" in plain(document)


@pytest.mark.parametrize("document", [LEGAL_NOTICES_EN, LEGAL_NOTICES_FR])
def test_the_notices_identify_the_publisher(document: Document) -> None:
    text = plain(document)
    for fact in ("912 345 675", "FR65 912345675", "12 rue des Répartiteurs, 75011 Paris"):
        assert fact in text


def test_french_punctuation_is_kept_off_the_line_start() -> None:
    for document in (LEGAL_NOTICES_FR, TERMS_OF_USE_FR, ACCESSIBILITY_FR):
        text = document.text()
        for mark in (":", ";", "»"):
            assert f" {mark}" not in text
        assert "« " not in text


@pytest.mark.parametrize("document", [ACCESSIBILITY_EN, ACCESSIBILITY_FR])
def test_the_accessibility_statement_names_its_standard_and_contact(document: Document) -> None:
    text = plain(document)
    assert "WCAG" in text
    assert "2.2" in text
    assert "AA" in text
    assert "accessibility@patchbay.test" in text
