"""The browser's half of a passkey ceremony (issue 52): ``navigator.credentials.create`` or
``get`` with the provider's options, run by ``rx.call_script``, whose callback receives the
credential as JSON, or the name of the browser's refusal.

The options are public values (the challenge, the relying party, the user's id and the allowed
credentials); the token that finishes the ceremony stays in the state's backend-only vars, so
nothing that grants access reaches the page. Browsers that parse the options from JSON and give
``toJSON()`` (the WebAuthn level 3 helpers) use them; others get the same conversion here.
"""

import json
from typing import Any

from portal.i18n import N_

# The conversions between base64url text and the binary fields of the options and the answer.
_CEREMONY = """
(async (kind, options) => {
  const toBytes = (text) => {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)).buffer;
  };
  const toText = (buffer) => {
    if (!buffer) return null;
    const bytes = new Uint8Array(buffer);
    let binary = "";
    bytes.forEach((b) => { binary += String.fromCharCode(b); });
    return btoa(binary).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  };
  if (!window.PublicKeyCredential || !navigator.credentials) {
    return {error: "NotSupportedError"};
  }
  const Credential = window.PublicKeyCredential;
  const descriptors = (list) => (list || []).map((d) => ({...d, id: toBytes(d.id)}));
  let publicKey;
  if (kind === "create") {
    publicKey = Credential.parseCreationOptionsFromJSON
      ? Credential.parseCreationOptionsFromJSON(options)
      : {...options, challenge: toBytes(options.challenge),
         user: {...options.user, id: toBytes(options.user.id)},
         excludeCredentials: descriptors(options.excludeCredentials)};
  } else {
    publicKey = Credential.parseRequestOptionsFromJSON
      ? Credential.parseRequestOptionsFromJSON(options)
      : {...options, challenge: toBytes(options.challenge),
         allowCredentials: descriptors(options.allowCredentials)};
  }
  let credential;
  try {
    credential = kind === "create"
      ? await navigator.credentials.create({publicKey})
      : await navigator.credentials.get({publicKey});
  } catch (error) {
    return {error: (error && error.name) || "Error"};
  }
  if (!credential) return {error: "NotAllowedError"};
  if (typeof credential.toJSON === "function") return {credential: credential.toJSON()};
  const r = credential.response;
  const response = {clientDataJSON: toText(r.clientDataJSON)};
  if (kind === "create") {
    response.attestationObject = toText(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toText(r.authenticatorData);
    response.signature = toText(r.signature);
    response.userHandle = toText(r.userHandle);
  }
  return {credential: {id: credential.id, rawId: toText(credential.rawId), type: credential.type,
    response, clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment || null}};
})(__ARGUMENTS__)
"""

# What the browser's refusals mean to the user; any other refusal reads as the last.
CANCELLED = N_("The passkey request was cancelled or timed out.")
ALREADY_REGISTERED = N_("This device already holds a passkey for your account.")
NOT_SUPPORTED = N_("This browser cannot use passkeys.")
FAILED = N_("The passkey could not be used. Please try again.")
_REFUSALS = {
    "NotAllowedError": CANCELLED,
    "AbortError": CANCELLED,
    "InvalidStateError": ALREADY_REGISTERED,
    "NotSupportedError": NOT_SUPPORTED,
}


def create_script(options: dict[str, Any]) -> str:
    """The script that registers a passkey with ``options`` (the provider's ``publicKey``)."""
    return _CEREMONY.replace("__ARGUMENTS__", f'"create", {json.dumps(options)}')


def get_script(options: dict[str, Any]) -> str:
    """The script that signs ``options``' challenge with a passkey."""
    return _CEREMONY.replace("__ARGUMENTS__", f'"get", {json.dumps(options)}')


def refusal(result: object) -> str | None:
    """The message id of the browser's refusal in ``result``, or None when it holds a
    credential."""
    if isinstance(result, dict) and isinstance(result.get("credential"), dict):
        return None
    error = result.get("error") if isinstance(result, dict) else None
    return _REFUSALS.get(error if isinstance(error, str) else "", FAILED)


def credential_of(result: dict[str, Any]) -> dict[str, Any]:
    credential = result["credential"]
    return credential if isinstance(credential, dict) else {}
