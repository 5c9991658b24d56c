"""Writes stderr without a newline before its first answer: BYTES of it (then answers, and goes
on correctly), or ``forever`` (never answers)."""

import sys

import speak

speak.start()
size = sys.argv[1]
while (message := speak.read()) is not None and not speak.wants_answer(message):
    pass
chunk = b"x" * (1 << 20)
left = float("inf") if size == "forever" else int(size)
while left > 0:
    piece = chunk[: int(min(left, len(chunk)))]
    sys.stderr.buffer.write(piece)
    sys.stderr.buffer.flush()
    left -= len(piece)
assert message is not None
reply = speak.answer(message)
assert reply is not None
speak.send(reply)
speak.serve()
