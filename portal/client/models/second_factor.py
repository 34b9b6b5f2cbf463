"""The user's TOTP second factor (issue 18, item 10): its status and an enrolment under way."""

from portal.client.models.base import ProviderModel


class SecondFactorStatus(ProviderModel):
    enrolled: bool = False
    recovery_codes_left: int = 0
    # SECOND_FACTOR_REQUIRED applies to this user: nothing else opens until one is set up.
    required: bool = False


class Enrolment(ProviderModel):
    secret: str
    otpauth_uri: str
    qr_svg: str


class RecoveryCodes(ProviderModel):
    recovery_codes: list[str]
