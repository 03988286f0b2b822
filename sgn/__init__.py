"""sgn: validate, test and convert SGN (Settlers Game Notation) game logs.

The public API:

- `iter_diagnostics(source, level=..., profile=...)`: every problem in a log, streamed.
- `validate_message(value, level=..., profile=...)`: the problems of one parsed message.
- `Diagnostic`: the record both return.
"""
from .diagnostic import Diagnostic
from .validate import LEVELS, iter_diagnostics, validate_message

__version__ = "0.1.0"
__all__ = ["Diagnostic", "LEVELS", "iter_diagnostics", "validate_message", "__version__"]
