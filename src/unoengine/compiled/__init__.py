"""The compiled engine: the rules over flat integer arrays, compiled with numba (issue 34).

The pure engine (``unoengine.engine``) is the reference and the oracle; this package is a second
implementation of the same rules, fast enough for search and large-scale training, and trusted
only as far as its differential tests (tests/test_compiled_*.py) prove it move for move against
the reference. It needs the ``fast`` extra (``pip install "unoengine[fast]"``: numba and numpy);
``import unoengine`` never imports it.

This ``__init__`` imports nothing, so that reading the package's layout does not compile anything.
"""
