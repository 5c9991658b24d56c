"""Answers its first request with an endless line: stdout without a newline, forever."""

import sys

import speak

speak.start()
while (message := speak.read()) is not None and not speak.wants_answer(message):
    pass
chunk = b"{" * (1 << 16)
while True:
    sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
