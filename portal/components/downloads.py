"""Links that download a file from the portal's file route.

Reflex renders same-site anchors as router links, which would open the file route as a page of
the single-page app; ``reloadDocument`` hands the click back to the browser, which downloads
the file under the name given (or the one of the answer's ``Content-Disposition``).
"""

import reflex as rx


def download_link(
    *children: rx.Component | rx.Var | str,
    href: rx.Var[str] | str,
    filename: rx.Var[str] | str,
    **props,
) -> rx.Component:
    return rx.el.a(
        *children, href=href, download=filename, custom_attrs={"reloadDocument": True}, **props
    )
