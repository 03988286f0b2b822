"""`python -m sgn.harness`: sgn itself under the conformance harness (written in
`sgn.conformance.harness`; this is the name the command is run by)."""
import sys

from .conformance.harness import main

if __name__ == "__main__":
    sys.exit(main())
