"""A correct bot program that will not go: it ignores ``bye`` and the end of its input, and
sleeps on. Its pid is noted in the file named by $HOSTILE_PIDS."""

import time

import speak

speak.start()
speak.serve()
time.sleep(3600)
