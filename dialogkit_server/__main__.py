"""``python -m dialogkit_server``: run the service in this process."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from dialogkit_server.app import serve


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m dialogkit_server", description="Run the dialogkit HTTP service."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
    parser.add_argument(
        "--with-skill-runtime",
        action="store_true",
        help="also run the reference skill runtime in this process "
        "(unless SKILL_RUNTIME_BASE_URL is set)",
    )
    args = parser.parse_args(argv)
    serve(args.host, args.port, with_skill_runtime=args.with_skill_runtime)


if __name__ == "__main__":
    main()
