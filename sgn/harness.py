"""`python -m sgn.harness`: sgn itself under the conformance harness (written in
`sgn.conformance.harness`; this is the name the command is run by, with the names it had)."""

import sys

from .conformance.harness import PROTOCOL_VERSION, check, cmd_run, cmd_start, main, serve, simple

__all__ = ["PROTOCOL_VERSION", "check", "cmd_run", "cmd_start", "main", "serve", "simple"]

if __name__ == "__main__":
    sys.exit(main())
