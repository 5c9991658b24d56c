"""Learning to beat the heuristic bot: a small policy, its trainer and its bot (docs/learning.md).

numpy only (and numba, through the compiled batch engine the trainer plays in); nothing here is
imported by ``import unoengine``. The modules:

- :mod:`.policy`: :class:`~.policy.ResidualPolicy`, a linear correction to the heuristic bot's
  choice, and its weights file (``.npz`` of plain arrays, checked field by field on loading);
- :mod:`.bot`: :class:`~.bot.ResidualPolicyBot`, the policy as a bot of the reference engine (bot kind
  ``policy:PATH`` for ``simulate`` and ``tournament``);
- :mod:`.es`: evolution strategies against the heuristic in the compiled engine, and the
  duplicate-deal evaluation the learning curve is made of;
- :mod:`.plot`: the learning curve as CSV, SVG and PNG, with no plotting library.
"""
