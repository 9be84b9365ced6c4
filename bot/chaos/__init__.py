"""A seeded chaos run: games played through `python -m bot` while Discord misbehaves.

    python -m bot.chaos --seed N --minutes M [--games G] [--players P] [--faults 5xx,kill,...]
                        [--log FILE]

The bot runs as its own process (drawing tiny pictures, `tests/bot/test_crash.py`'s
`bot_main_with_small_pictures`) against the loopback fake Discord
(`tests/bot/fakegateway.py`). `G` games are opened in channels of their own and played
at once by their players pressing the prompt's buttons (a legal move drawn at random,
typed with `/montana play` only when no button leads there). Meanwhile a schedule of
faults drawn from `random.Random(seed)` is applied for `M` minutes:

* ``5xx``: a burst of 500/502/503 answers to a game's posts, some performed anyway
  (Discord made the message, its answer was lost), with or without a ``Via`` header;
* ``429``: a burst of rate limits, with a ``Via`` header (discord.py waits and retries)
  or without (discord.py takes it for a Cloudflare ban and raises at once);
* ``403``: the game's thread starts refusing the bot's posts (Missing Permissions);
* ``history``: reads of a game's recent messages fail (the look for an earlier attempt);
* ``clear``: edits of a game's messages fail (clearing the old prompt's buttons);
* ``reconnect``: the gateway loses the events of a moment, asks the bot to reconnect,
  and replays them on its RESUME;
* ``kill``: SIGKILL of the bot process, restarted a moment later;
* ``archived``: Discord archives one of a game's threads (where it plays, or one it
  left): editing a message there answers 400/50083 until a post (which the thread
  accepts, and which takes it out of the archive) or the bot takes it out of the
  archive to clear an old prompt.

Then the run heals (no new faults, the pending ones withdrawn), settles (nothing owed
in the outbox, no request for a while), lets every game make a few more moves (no game
stalled), settles again and checks its invariants over the whole run:

* ``posted-once-in-order``: every owed post of every game is a message exactly once, in
  its game's channel or threads, in the order of the outbox, the last for the saved
  version (the invisible identity each message ends with names the owed message);
* ``one-live-prompt``: each game has one message with buttons, of its saved version;
* ``nothing-owed``: the outbox is empty;
* ``state-is-replay``: each saved state is its move log replayed from the setup;
* ``one-ping-per-decision``: no player pinged twice for the same state;
* ``no-error-press``: every press answered, and never with an error;
* ``no-stall``: every game moved after healing.

Printed: one line per fault applied (seconds since the run began), notes (what the
players met that is no verdict, the bot's warnings and tracebacks counted, where each game
plays at the end), one line per verdict (``ok`` or the violations); exit status 1 if any
invariant failed. `--log FILE` keeps the bot processes' logs (each restart's in turn).
The seed fixes the schedule of faults and every choice; how they
interleave with the bot's work still depends on timing, so one seed may break an
invariant in one run and not in the next.
"""

from bot.chaos.model import FAULT_KINDS, INVARIANTS
from bot.chaos.run import Chaos, Report, main, run

__all__ = ["FAULT_KINDS", "INVARIANTS", "Chaos", "Report", "main", "run"]
