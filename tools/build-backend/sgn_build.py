"""The build backend: setuptools', asking for mypy (whose mypyc compiles the hot modules,
setup.py) only for a wheel that is compiled.

A pure-Python build (`SGN_COMPILE=0`), an editable install (always pure Python) and an
sdist need no mypy: installing it took most of their build environment's setup.
"""

import os

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (every hook of setuptools' backend, as it is)

COMPILER = "mypy>=1.11"


def get_requires_for_build_wheel(config_settings=None):
    compiling = os.environ.get("SGN_COMPILE", "1") != "0"
    return build_meta.get_requires_for_build_wheel(config_settings) + ([COMPILER] if compiling else [])
