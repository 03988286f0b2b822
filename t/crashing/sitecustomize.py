"""Put on PYTHONPATH by the tests of one fault, one file: every Python process started with
it (the command, its `-j` workers, Dask's workers) fails inside the check of any line that
holds CRASH, as a bug of sgn's would, so that the tests can see what such a bug costs."""

import os

CRASH = "sgn-test-crash"

if os.environ.get("SGN_TEST_CRASH") == "1":
    from sgn.layers import schema

    _check = schema.MessageSchema.check

    def check(self, message, *args, **kwargs):
        if CRASH in repr(message):
            raise RuntimeError("a failure planted by the test")
        return _check(self, message, *args, **kwargs)

    schema.MessageSchema.check = check
