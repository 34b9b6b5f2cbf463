"""The two layouts of spec 2: the default one (navbar, breadcrumbs, messages, headband alert,
footer) and the Login layout for the pages of signed-out visitors."""

import reflex as rx
from reflex.vars import Var, VarData

from portal import routes
from portal.components.breadcrumbs import Crumb, breadcrumbs
from portal.components.i18n import _
from portal.components.messages import message_stack
from portal.components.navbar import BAR_COLOUR, brand, language_selector, navbar
from portal.components.pdf_dialog import documentation_dialog
from portal.settings import get_settings
from portal.state.impersonation import ImpersonationState
from portal.state.preferences import LanguageState


def _headband() -> rx.Component:
    settings = get_settings()
    if not (settings.headband_alert_en or settings.headband_alert_fr):
        return rx.fragment()
    text = rx.cond(
        LanguageState.shown == "fr",
        settings.headband_alert_fr or settings.headband_alert_en,
        settings.headband_alert_en or settings.headband_alert_fr,
    )
    return rx.callout(
        text, icon="triangle-alert", color_scheme="amber", role="alert", radius="none", size="1"
    )


def _impersonation_banner() -> rx.Component:
    """Spec 2, Layout: while staff act as a customer, who they act as and the way back."""
    return rx.cond(
        ImpersonationState.is_impersonating,
        rx.callout.root(
            rx.flex(
                rx.hstack(
                    rx.callout.icon(rx.icon("venetian-mask")),
                    rx.callout.text(
                        _(
                            "You are impersonating {name} ({email}).",
                            name=ImpersonationState.full_name,
                            email=ImpersonationState.email,
                        ),
                        weight="medium",
                    ),
                    align="center",
                    spacing="2",
                ),
                rx.spacer(),
                rx.button(
                    rx.icon("log-out", size=16),
                    _("Leave impersonation"),
                    on_click=ImpersonationState.leave,
                    loading=ImpersonationState.switching,
                    color_scheme="orange",
                    # White on orange-9 is 3:1; the high-contrast fill passes in both themes.
                    high_contrast=True,
                    size="2",
                ),
                align=rx.breakpoints(initial="start", sm="center"),
                direction=rx.breakpoints(initial="column", sm="row"),
                spacing="3",
                width="100%",
            ),
            color_scheme="orange",
            role="alert",
            radius="none",
            size="1",
            data_testid="impersonation-banner",
        ),
    )


# The current year of spec 1's footer, read from the browser's clock once the page has mounted:
# a page built (and prerendered) in December must not show that year in January, and reading
# the clock during the first render would make the prerendered and the hydrated HTML differ.
CURRENT_YEAR: Var[str] = Var(
    _js_expr="footerYear",
    _var_type=str,
    _var_data=VarData(
        imports={"react": ["useEffect", "useState"]},
        hooks=[
            'const [footerYear, setFooterYear] = useState("");',
            "useEffect(() => setFooterYear(String(new Date().getFullYear())), []);",
        ],
    ),
)


def footer() -> rx.Component:
    return rx.el.footer(
        rx.flex(
            rx.text(
                "© ",
                CURRENT_YEAR,
                " ",
                get_settings().company_name,
                size="2",
                data_testid="copyright",
            ),
            rx.spacer(),
            rx.hstack(
                rx.link(_(routes.HOME.label), href=routes.HOME.path, size="2"),
                rx.link(_(routes.TERMS_OF_USE.label), href=routes.TERMS_OF_USE.path, size="2"),
                rx.link(_(routes.LEGAL_NOTICES.label), href=routes.LEGAL_NOTICES.path, size="2"),
                rx.link(_(routes.ACCESSIBILITY.label), href=routes.ACCESSIBILITY.path, size="2"),
                spacing="4",
                wrap="wrap",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            gap="2",
            align=rx.breakpoints(initial="start", sm="center"),
            padding_x=["16px", "24px"],
            padding_y="16px",
        ),
        border_top=f"1px solid {rx.color('gray', 5)}",
        color=rx.color("gray", 11),
    )


MAIN_ID = "main-content"


def _skip_link() -> rx.Component:
    """The first stop of the Tab key (WCAG 2.4.1): past the navigation, to the page's content.
    Out of sight until it has the focus (assets/styles.css)."""
    return rx.el.a(_("Skip to main content"), href=f"#{MAIN_ID}", class_name="skip-link")


def default_layout(
    content: rx.Component,
    title: rx.Var | str,
    crumbs: tuple[Crumb, ...],
    crumbs_shown: rx.Var[bool] | None = None,
) -> rx.Component:
    trail = breadcrumbs(*crumbs) if crumbs else rx.fragment()
    return rx.flex(
        _skip_link(),
        navbar(),
        _impersonation_banner(),
        _headband(),
        rx.el.main(
            rx.vstack(
                rx.cond(crumbs_shown, trail) if crumbs_shown is not None else trail,
                rx.heading(title, size="7", as_="h1"),
                content,
                spacing="4",
                width="100%",
                max_width="1400px",
                margin_x="auto",
                padding=["16px", "20px", "24px"],
            ),
            flex="1",
            width="100%",
            id=MAIN_ID,
            # The skip link's target takes the focus, so that Tab goes on from there.
            tab_index=-1,
            outline="none",
        ),
        footer(),
        message_stack(),
        documentation_dialog(),
        direction="column",
        min_height="100vh",
        background_color=rx.color("gray", 2),
    )


def login_layout(content: rx.Component) -> rx.Component:
    return rx.flex(
        _skip_link(),
        rx.el.header(
            rx.hstack(
                rx.box(
                    brand(),
                    background_color=BAR_COLOUR,
                    padding="8px 12px",
                    border_radius="var(--radius-3)",
                ),
                rx.spacer(),
                rx.box(
                    language_selector(),
                    background_color=BAR_COLOUR,
                    border_radius="var(--radius-5)",
                    padding_x="4px",
                ),
                width="100%",
                padding=["12px", "20px"],
            ),
        ),
        rx.el.main(
            rx.center(
                rx.card(content, width="100%", max_width="440px", size="4"),
                width="100%",
                padding="16px",
            ),
            flex="1",
            width="100%",
            id=MAIN_ID,
            tab_index=-1,
            outline="none",
        ),
        footer(),
        message_stack(),
        direction="column",
        min_height="100vh",
        background=(
            f"linear-gradient(160deg, {rx.color('purple', 3)} 0%, {rx.color('grass', 3)} 100%)"
        ),
    )
