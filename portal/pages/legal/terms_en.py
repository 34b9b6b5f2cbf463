"""The terms of use in English (spec 2 and 9: effective 1 November 2021)."""

from portal.pages.legal.document import Document, Section

TERMS_OF_USE_EN = Document(
    "Effective date: 1 November 2021",
    (
        Section(
            "1. Purpose and scope",
            (
                "These terms of use govern access to and use of the customer portal (the "
                "“Portal”) that {company} SAS (“{company}”) makes available to its business "
                "customers. Through the Portal, the users designated by a customer follow the "
                "customer’s services and their documents, invoices and credit notes, support "
                "tickets, maintenance windows, contacts and monitoring sensors.",
                "They apply to every user, in addition to the contract between {company} and the "
                "customer (the “Contract”). The Contract alone governs the services themselves; "
                "where these terms and the Contract conflict, the Contract prevails.",
                "Each user must read and accept these terms before first using the Portal, and "
                "again after any change to them.",
            ),
        ),
        Section(
            "2. Access and credentials",
            (
                "The Portal is reserved for customers that have signed a Contract with "
                "{company}. {company} sends credentials to the client administrator designated "
                "by the customer. The client administrator decides which members of the "
                "customer’s staff may access the Portal, creates their accounts, gives them the "
                "roles they need (for example access to invoices or to monitoring) and closes "
                "the account of anyone who leaves or no longer needs access.",
                "Credentials are personal. Users must not share them, must keep their password "
                "secret and must choose a password of at least 10 characters, including a digit "
                "and an upper-case letter, that they use nowhere else.",
                "The customer is responsible for the accounts it has requested and for "
                "everything done with them, unless it shows that {company} was at fault. Any "
                "loss, theft or suspected misuse of credentials must be reported to the Helpdesk "
                "at once, and the password changed without delay.",
            ),
        ),
        Section(
            "3. Users’ obligations",
            (
                "Users undertake to:",
                (
                    "use the Portal only for the customer’s business relations with {company};",
                    "provide accurate information and keep their profile up to date;",
                    "not attempt to access data, accounts or systems they are not authorised to "
                    "use, in particular those of other customers;",
                    "not disrupt the Portal, probe its security or extract its content by "
                    "automated means beyond normal use;",
                    "comply with the laws and regulations in force.",
                ),
                "{company} may suspend an account at once in the event of a breach of these terms "
                "or of a threat to the security of the Portal; it then informs the client "
                "administrator.",
            ),
        ),
        Section(
            "4. Confidentiality",
            (
                "The information shown in the Portal — in particular network architecture, "
                "endpoints, service references, prices, invoices, maintenance schedules, tickets "
                "and monitoring data — is confidential. Users may use it only for the "
                "performance of the Contract and must not disclose it to third parties, except "
                "to the customer’s own advisers and contractors bound by an equivalent duty of "
                "confidentiality.",
                "This obligation continues after the end of the Contract for as long as the "
                "information remains confidential.",
            ),
        ),
        Section(
            "5. Security",
            (
                "{company} protects the Portal with measures suited to the sensitivity of the "
                "information it holds: encrypted connections, passwords stored only as salted "
                "hashes, sessions that end after 30 minutes of inactivity and after 12 hours at "
                "most, limits on repeated login attempts and logging of connections.",
                "To assist a customer, authorised {company} staff may view the Portal as a given "
                "user sees it. Only the staff who need this may do it, and each such access is "
                "recorded with the persons concerned and the time.",
                "Users contribute to security: they log out on shared devices, keep their "
                "browser up to date and report any vulnerability or incident to the Helpdesk.",
            ),
        ),
        Section(
            "6. Availability",
            (
                "The Portal is normally available 24 hours a day, 7 days a week. {company} "
                "provides it with all reasonable care but without a guarantee of result: it may "
                "be interrupted for maintenance, announced in advance where possible, or in the "
                "event of an incident or of force majeure.",
                "The availability of the Portal does not affect that of the services, whose "
                "commitments (service levels, repair times) are set out in the Contract alone. "
                "While the Portal is unavailable, incidents can still be reported to the "
                "Helpdesk by telephone.",
            ),
        ),
        Section(
            "7. Personal data",
            (
                "{company} SAS, 12 rue des Répartiteurs, 75011 Paris, France, is the controller "
                "of the personal data processed in the Portal, under the General Data "
                "Protection Regulation (EU) 2016/679 and the French Data Protection Act of "
                "6 January 1978. It processes:",
                (
                    "registration data: first and last name, business e-mail address, telephone "
                    "number, job, company and roles;",
                    "connection logs: date and time, IP address, pages visited and actions, "
                    "login attempts;",
                    "display preferences, kept in the user’s browser (see section 9).",
                ),
                "These data are used to manage user accounts, secure access and detect abuse, "
                "provide support and perform the Contract. The legal bases are the performance "
                "of the Contract, {company}’s legitimate interest in securing its systems and, "
                "for connection logs, its legal obligations as an electronic communications "
                "operator and host.",
                "They are processed by the {company} staff who need them, on {company}’s own "
                "servers in France. They are not sold, not used for advertising and not "
                "transferred outside the European Union.",
                "Retention periods: registration data are kept for 5 years after the end of the "
                "Contract, the limitation period for commercial claims; connection logs are kept "
                "for 1 year. The data are then deleted or anonymised.",
                "Users have the right to access, rectify and erase their data, to restrict or "
                "object to their processing and to data portability, and may give instructions "
                "on what becomes of their data after their death. They exercise these rights by "
                "writing to legal@patchbay.test and may lodge a complaint with the CNIL, the "
                "French data protection authority (www.cnil.fr).",
            ),
        ),
        Section(
            "8. Access after the end of the Contract",
            (
                "When the Contract ends, the customer’s users keep access to the Portal for "
                "12 months after the end of the Contract, so that they can consult and download "
                "invoices, credit notes and documents. Their accounts are then closed, and "
                "their registration data kept as set out in section 7.",
                "The client administrator may ask for the accounts to be closed earlier.",
            ),
        ),
        Section(
            "9. Cookies and browser storage",
            (
                "The Portal sets a single cookie, strictly necessary to keep the user logged "
                "in. It holds only a random identifier, cannot be read by scripts and travels "
                "only over secure connections. It no longer grants access once the user logs "
                "out, after 30 minutes of inactivity or after 12 hours.",
                "The browser’s local storage keeps the display preferences: language, light or "
                "dark mode and the chosen view of lists. The Portal uses no tracking, "
                "advertising or audience-measurement cookie and loads no third-party content, "
                "so no consent is required.",
            ),
        ),
        Section(
            "10. Intellectual property",
            (
                "The Portal, its software, its content and its documentation belong to "
                "{company} or to its licensors. {company} grants each user a personal, "
                "non-exclusive and non-transferable right to use the Portal for the duration of "
                "their access and for the sole purposes of these terms. Any other use, "
                "reproduction or adaptation is prohibited.",
                "The data that the customer enters in the Portal, such as its own service "
                "references, remain its property; {company} uses them only to provide its "
                "services.",
            ),
        ),
        Section(
            "11. Liability",
            (
                "The information shown in the Portal is provided for convenience, as held in "
                "{company}’s systems when it is displayed. Invoices and documents issued under "
                "the Contract prevail over their display in the Portal; monitoring data are "
                "indicative.",
                "{company} is liable only for direct damage proven by the customer and caused "
                "by a fault in the provision of the Portal, within the limits set by the "
                "Contract. It is not liable for damage caused by misuse of the Portal, by the "
                "disclosure of credentials by a user or by a failure of the user’s own internet "
                "access.",
            ),
        ),
        Section(
            "12. Changes to these terms",
            (
                "{company} may change these terms, in particular to follow changes in the Portal "
                "or in the law. A new version comes into force on its effective date, shown at "
                "the top of this page. Each user is asked to accept it at their next login and "
                "cannot use the Portal until they have done so.",
            ),
        ),
        Section(
            "13. Applicable law and jurisdiction",
            (
                "These terms are governed by French law. They are written in French and in "
                "English; in the event of a discrepancy, the French version prevails.",
                "The parties will first seek an amicable settlement of any dispute about their "
                "interpretation or performance. Failing agreement within 30 days, the dispute "
                "will be brought before the competent courts of Paris, notwithstanding multiple "
                "defendants or third-party proceedings.",
            ),
        ),
    ),
)
