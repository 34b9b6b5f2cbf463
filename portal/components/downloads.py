"""Links that download a file from the portal's file route, with failures reported like any
other failed call (spec 8) instead of reaching the browser as a raw error page or file.

The link keeps its ``href`` (so "save link as" and the keyboard work), but a click is handled
by the page: the file is fetched, and saved under the name given only when the answer is a
success; otherwise the answer's status and message go to the one message handler, so an expired
session signs out with the current page as the redirect, and a missing document shows why.
"""

import json

import httpx
import reflex as rx

from portal.client import ProviderError
from portal.client.errors import error_from_response, network_error
from portal.state.failures import reports_failures
from portal.state.session import SessionState

# Fetches the file; answers null once it is saved, or {status, body} when it is not (status 0:
# nothing came back). The object URL is kept a minute so a slow save dialog still finds it.
_FETCH_AND_SAVE = """
(async (url, filename) => {
  let answer;
  try {
    answer = await fetch(url, {credentials: "same-origin"});
  } catch (error) {
    return {status: 0, body: ""};
  }
  if (!answer.ok) {
    return {status: answer.status, body: await answer.text().catch(() => "")};
  }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await answer.blob());
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  return null;
})(%s, %s)
"""


def download_failure(status: int, body: str, language: str) -> ProviderError:
    """The typed error of a failed file answer, as the client would have raised it."""
    if status == 0:
        return network_error(httpx.ConnectError(""), language)
    return error_from_response(httpx.Response(status, text=body))


class DownloadState(SessionState):
    @rx.event
    def download(self, url: str, filename: str):
        return rx.call_script(
            _FETCH_AND_SAVE % (json.dumps(url), json.dumps(filename)),
            callback=DownloadState.finished,
        )

    @rx.event
    @reports_failures
    def finished(self, failure: dict | None):
        if failure:
            raise download_failure(
                int(failure.get("status", 0)), str(failure.get("body", "")), self.current_language
            )


def download_link(
    *children: rx.Component | rx.Var | str,
    href: rx.Var[str] | str,
    filename: rx.Var[str] | str,
    **props,
) -> rx.Component:
    return rx.el.a(
        *children,
        href=href,
        download=filename,
        # A same-site anchor would otherwise be routed inside the single-page app.
        custom_attrs={"reloadDocument": True},
        on_click=[rx.prevent_default, DownloadState.download(href, filename)],
        **props,
    )
