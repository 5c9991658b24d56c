"""``python -m unoengine.testing.mutants [--all]``: the mutation table of the shipped corpus."""

import sys

from .report import main

sys.exit(main())
