"""A correct bot program, except between games: after each ``game_over`` a thread of it writes
``stdout`` or ``stderr`` (argv[1]) without a newline, forever. After the first chunk is written
it creates the file $HOSTILE_FLOODING, so a test can wait for the flood to be under way."""

import os
import sys
import threading

import speak


def flood(stream: str) -> None:
    out = sys.stdout.buffer if stream == "stdout" else sys.stderr.buffer
    chunk = b"z" * (1 << 16)
    out.write(chunk)
    out.flush()
    flag = os.environ.get("HOSTILE_FLOODING")
    if flag:
        with open(flag, "w", encoding="ascii"):
            pass
    while True:
        out.write(chunk)
        out.flush()


speak.start()
while (message := speak.read()) is not None and message["type"] != "bye":
    if message["type"] == "game_over":
        threading.Thread(target=flood, args=(sys.argv[1],), daemon=True).start()
    reply = speak.answer(message)
    if reply is not None:
        speak.send(reply)
