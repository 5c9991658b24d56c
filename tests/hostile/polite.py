"""A correct program of either protocol (the baseline of the memory and leak tests)."""

import speak

speak.start()
speak.serve()
