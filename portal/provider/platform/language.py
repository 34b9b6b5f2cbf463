"""The language of a request: every label and message follows its ``Accept-Language``."""

from typing import Annotated

from fastapi import Depends, Request

from portal.i18n import negotiate_language


def request_language(request: Request) -> str:
    return negotiate_language(request.headers.get("accept-language"))


async def _language(request: Request) -> str:
    return request_language(request)


# Dependencies that only read the request are coroutines: FastAPI runs a plain function in its
# thread pool, a hop per dependency and per request that the profile showed (issue 11).
LanguageDep = Annotated[str, Depends(_language)]
