"""Download names (DESIGN 4): a stored document's name never breaks the header or the disk."""

import pytest

from portal.provider.platform.downloads import content_disposition, safe_filename


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("LOA-PB-ETH-1.pdf", "LOA-PB-ETH-1.pdf"),
        ('a"b.pdf', "a_b.pdf"),
        ("../../etc/passwd", "_.._etc_passwd"),
        ("C:\\temp\\x.pdf", "C_temp_x.pdf"),
        ("line\r\nInjected: 1.pdf", "line_Injected_ 1.pdf"),
        ("  . ", "document.pdf"),
        ("x" * 300 + ".pdf", "x" * 146 + ".pdf"),
    ],
)
def test_unsafe_characters_are_replaced(name: str, safe: str) -> None:
    assert safe_filename(name) == safe


def test_a_plain_name_is_given_as_is() -> None:
    assert (
        content_disposition("export_services.csv") == 'attachment; filename="export_services.csv"'
    )


def test_other_characters_also_come_in_utf8() -> None:
    assert content_disposition("Procès-verbal n°1.pdf") == (
        'attachment; filename="Proces-verbal n1.pdf"; '
        "filename*=utf-8''Proc%C3%A8s-verbal%20n%C2%B01.pdf"
    )
