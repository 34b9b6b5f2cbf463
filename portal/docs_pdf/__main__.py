"""``python -m portal.docs_pdf OUTPUT_DIR``: write both user guides into OUTPUT_DIR."""

import argparse
import logging
import sys
from pathlib import Path

from portal.docs_pdf import build_all


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m portal.docs_pdf",
        description="Build the French and English user documentation PDFs.",
    )
    parser.add_argument("output_dir", type=Path, help="folder that receives the two PDFs")
    arguments = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    for path in build_all(arguments.output_dir):
        sys.stdout.write(f"{path}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
