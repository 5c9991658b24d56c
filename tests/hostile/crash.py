"""At its first request, says what went wrong on stderr's first line, then crashes with a deep
traceback whose last line says it again (exit code 1)."""

import sys

import speak

speak.start()
while (message := speak.read()) is not None and not speak.wants_answer(message):
    pass
sys.stderr.write("hostile crash: the configuration file is missing\n")
sys.stderr.flush()


def fall(depth: int) -> None:
    if depth == 0:
        raise RuntimeError("the configuration file is missing (said last)")
    fall(depth - 1)


fall(60)
