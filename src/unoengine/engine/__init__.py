"""The engine: UNO's rules as pure functions over immutable values.

Cards, moves, the :class:`~unoengine.engine.profile.Profile` value, the game state, legal-move
generation and checking, the transition, dealing, scoring, card effects, what each player knows,
views and events. It imports nothing from the other layers and does no file I/O: a profile
reaches it as a value, already read (``unoengine.formats`` reads files and names).
"""
