"""The language of a request: every label and message follows its ``Accept-Language``."""

from typing import Annotated

from fastapi import Depends, Request

from portal.i18n import negotiate_language


def request_language(request: Request) -> str:
    return negotiate_language(request.headers.get("accept-language"))


LanguageDep = Annotated[str, Depends(request_language)]
