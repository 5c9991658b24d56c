"""``python -m unoengine``: the command line (:mod:`unoengine.tools.cli`)."""

from .tools.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
