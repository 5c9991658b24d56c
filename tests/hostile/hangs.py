"""A correct program of either protocol that answers its first N requests (``hangs.py N``,
default 0) and then hangs: it starts a child of its own that sleeps (unless ``alone`` is given),
notes its pid in the file named by $HOSTILE_HUNG (and the child's in $HOSTILE_CHILDREN), and
answers nothing more. The runner is then stuck waiting for it, for as long as its timeout,
until something stops the runner: the signal tests (tests/test_signals.py) send it one there.
It will not go when told: it reads its input to the end (noting ``eof`` in that file then) and
sleeps on, until its process group is killed."""

import os
import sys
import time

import speak

answers = int(sys.argv[1]) if len(sys.argv) > 1 else 0
speak.start()
while (message := speak.read()) is not None and message["type"] != "bye":
    reply = speak.answer(message)
    if reply is None:
        continue
    if answers == 0:
        break
    answers -= 1
    speak.send(reply)
else:
    sys.exit(0)
if "alone" not in sys.argv[2:]:
    child = os.fork()
    if child == 0:  # the child: sleeps with the pipes open, in the program's process group
        time.sleep(3600)
        os._exit(0)
    with open(os.environ["HOSTILE_CHILDREN"], "a", encoding="ascii") as out:
        out.write(f"{child}\n")
with open(os.environ["HOSTILE_HUNG"], "a", encoding="ascii") as out:
    out.write(f"{os.getpid()}\n")
for _line in sys.stdin.buffer:
    pass
with open(os.environ["HOSTILE_HUNG"], "a", encoding="ascii") as out:
    out.write("eof\n")
time.sleep(3600)
