"""Environments for reinforcement-learning and game-AI frameworks (docs/rl.md).

One action encoding (:mod:`.actions`) and one observation encoding (:mod:`.observations`) serve
every adapter: PettingZoo (:mod:`.pettingzoo`), Gymnasium (:mod:`.gymnasium`) and OpenSpiel
(:mod:`.openspiel`). Each adapter imports its framework only when it is imported itself, and says
which extra to install when the framework is missing; this package imports none of them.
"""
