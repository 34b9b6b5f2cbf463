"""A software WebAuthn authenticator for the provider tests: it answers the options of
``navigator.credentials.create`` and ``get`` as a passkey does (an ES256 key per credential,
attestation ``none``), with its counter, user-verification flag and origin under the test's
control, so the provider's checks can each be made to fail."""

import hashlib
import json
import secrets
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

from portal.provider.accounts.passkeys import relying_party

USER_PRESENT, USER_VERIFIED, ATTESTED = 0x01, 0x04, 0x40


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    user_handle: bytes
    count: int = 0


@dataclass
class Authenticator:
    credentials: dict[bytes, Credential] = field(default_factory=dict)
    origin: str = field(default_factory=lambda: relying_party().origin)

    def _client_data(self, kind: str, challenge: str) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": self.origin, "crossOrigin": False}
        return json.dumps(data).encode()

    @staticmethod
    def _rp_hash(options: dict[str, Any], key: str) -> bytes:
        rp_id = options["rp"]["id"] if key == "rp" else options["rpId"]
        return hashlib.sha256(rp_id.encode()).digest()

    def create(self, options: dict[str, Any], *, verified: bool = True) -> dict[str, Any]:
        """A new discoverable credential for the registration ``options``."""
        key = ec.generate_private_key(ec.SECP256R1())
        credential = Credential(
            secrets.token_bytes(16), key, base64url_to_bytes(options["user"]["id"])
        )
        self.credentials[credential.id] = credential
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )
        flags = USER_PRESENT | ATTESTED | (USER_VERIFIED if verified else 0)
        auth_data = (
            self._rp_hash(options, "rp")
            + bytes([flags])
            + struct.pack(">I", 0)
            + bytes(16)
            + struct.pack(">H", len(credential.id))
            + credential.id
            + cose
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        client_data = self._client_data("webauthn.create", options["challenge"])
        return {
            "id": bytes_to_base64url(credential.id),
            "rawId": bytes_to_base64url(credential.id),
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "attestationObject": bytes_to_base64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self,
        options: dict[str, Any],
        credential_id: str,
        *,
        verified: bool = True,
        count: int | None = None,
    ) -> dict[str, Any]:
        """An assertion of the credential ``credential_id`` (base64url) for ``options``; its
        counter goes up by one unless ``count`` says what to send."""
        credential = self.credentials[base64url_to_bytes(credential_id)]
        credential.count = credential.count + 1 if count is None else count
        flags = USER_PRESENT | (USER_VERIFIED if verified else 0)
        auth_data = self._rp_hash(options, "rpId") + bytes([flags])
        auth_data += struct.pack(">I", credential.count)
        client_data = self._client_data("webauthn.get", options["challenge"])
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = credential.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": credential_id,
            "rawId": credential_id,
            "type": "public-key",
            "response": {
                "clientDataJSON": bytes_to_base64url(client_data),
                "authenticatorData": bytes_to_base64url(auth_data),
                "signature": bytes_to_base64url(signature),
                "userHandle": bytes_to_base64url(credential.user_handle),
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
