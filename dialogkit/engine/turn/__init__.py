"""The turn pipeline: one user message (or the bot-first opening) from input to reply.

Read top to bottom, a turn is (``run.Turn`` is the coordinator; each step is its module):

1. the input gate (``gate``): empty text -> ``no_input``; STT confidence at or below the
   threshold -> ``not_understood`` with intent ``stt_low_confidence``; both skip NLU;
2. understanding (``understand``): NLU, limited to the intents and slots the current node
   can use;
3. the move (``moves.choose_move``, pure): distinctive slot values first, global
   transitions, then open slot values and the node's ``next_nodes`` in order, its turn limit
   (when nothing matched but a stay), and ``default_next``; the slot values it accepts are
   decided by one policy (``slots``) and written only with a move, so nothing is undone;
4. applying it (``enter``): a target node is *entered* (its skill runs, its reply is
   written, and a node with ``wait_for_input: false`` passes straight on), or an action is
   applied (a skill node that keeps the session runs its skill again with this turn's
   input: once per turn);
5. a fallback when the node could not use the input (``replies``), with replies that never
   repeat an earlier assistant sentence (a skill node answers such input itself).

The bot-first opening greets at the entry node and then takes its first-turn transition, as
a turn with no input, unless the entry still waits for input.

The steps pass plain values (``data``: ``TurnInput``, ``Move``, ``TurnOutcome``); the
recent windows and the records are kept by ``record``.
"""

from dialogkit.engine.turn.context import initial_context, now_in
from dialogkit.engine.turn.data import Move, TurnInput, TurnOutcome
from dialogkit.engine.turn.run import Turn

__all__ = ["Move", "Turn", "TurnInput", "TurnOutcome", "initial_context", "now_in"]
