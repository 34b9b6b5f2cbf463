"""The user's second factors: TOTP (issue 18, item 10) and passkeys (issue 52), their status,
an enrolment under way and the recovery codes."""

from datetime import datetime
from typing import Any

from pydantic import Field

from portal.client.models.base import ProviderModel


class SecondFactorStatus(ProviderModel):
    # An authenticator app (TOTP) is set up.
    enrolled: bool = False
    passkeys: int = 0
    recovery_codes_left: int = 0
    # A staff role under SECOND_FACTOR_REQUIRED, or the company's policy (issue 52): nothing
    # else opens until one is set up.
    required: bool = False

    @property
    def has_factor(self) -> bool:
        return self.enrolled or self.passkeys > 0


class Enrolment(ProviderModel):
    secret: str
    otpauth_uri: str
    qr_svg: str


class RecoveryCodes(ProviderModel):
    recovery_codes: list[str]


class Ceremony(ProviderModel):
    """A passkey ceremony under way (issue 52): the options for ``navigator.credentials``, for
    the browser, and the token that finishes it, which stays on the portal's backend."""

    challenge_token: str
    public_key: dict[str, Any]


class Passkey(ProviderModel):
    id: str
    name: str
    created_at: datetime
    last_used_at: datetime | None = None


class NewPasskey(Passkey):
    # Ten recovery codes when it is the user's first second factor, shown once.
    recovery_codes: list[str] = Field(default_factory=list)
