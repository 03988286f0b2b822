"""`python -m sgn` is the `sgn` command."""

import sys

from .cli import main

sys.exit(main())
