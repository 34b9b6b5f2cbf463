"""``python -m bench.run`` (``make bench``): see ``bench/README.md``."""

import sys

from bench.run.main import main

if __name__ == "__main__":
    sys.exit(main())
