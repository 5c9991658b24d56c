"""At its first request, closes its stdout and keeps running without answering."""

import os
import time

import speak

speak.start()
while (message := speak.read()) is not None and not speak.wants_answer(message):
    pass
os.close(1)
time.sleep(3600)
