"""At its first request, starts a child that keeps the pipes open and sleeps, and exits (code 7)
without answering; with ``stay``, answers and goes on correctly instead. The child's pid is
noted in the file named by $HOSTILE_CHILDREN."""

import os
import sys
import time

import speak

speak.start()
while (message := speak.read()) is not None and not speak.wants_answer(message):
    pass
child = os.fork()
if child == 0:  # the child: holds stdin, stdout and stderr open, and sleeps
    time.sleep(3600)
    os._exit(0)
with open(os.environ["HOSTILE_CHILDREN"], "a", encoding="ascii") as out:
    out.write(f"{child}\n")
if "stay" not in sys.argv[1:]:
    os._exit(7)
assert message is not None
reply = speak.answer(message)
assert reply is not None
speak.send(reply)
speak.serve()
