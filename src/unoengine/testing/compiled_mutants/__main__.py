"""``python -m unoengine.testing.compiled_mutants [--jit] [--moves N] [NAME ...]``: the table."""

import sys

from .report import main

sys.exit(main())
