"""``python -m portal.provider …``: the embedded provider's command line (see ``--help``)."""

import sys

from portal.provider.cli import main

if __name__ == "__main__":
    sys.exit(main())
