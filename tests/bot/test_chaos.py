"""A seeded chaos run (issue 41.4): games played through `python -m bot` against the
loopback fake Discord while it fails in the ways the seed draws (5xx and 429 bursts, a
thread refusing the bot, failing history reads and edits, threads archived by Discord,
gateway reconnections with the missed events replayed, SIGKILLs and restarts), then
healed and settled; every
invariant of `bot.chaos` must hold over the whole run."""

from __future__ import annotations

import random
from pathlib import Path

from bot import chaos

SEED = 26
MINUTES = 0.25
GAMES = 3


def test_the_schedule_of_faults_is_the_seed_s() -> None:
    def drawn(seed: int) -> list[tuple[float, str]]:
        run = chaos.Chaos.__new__(chaos.Chaos)
        run.rng, run.kinds = random.Random(seed), chaos.FAULT_KINDS
        return run.schedule(60)

    assert drawn(SEED) == drawn(SEED) != drawn(SEED + 1)
    assert {kind for _, kind in drawn(SEED)} <= set(chaos.FAULT_KINDS)


async def test_a_short_seeded_chaos_run_keeps_every_invariant(tmp_path: Path) -> None:
    report = await chaos.run(SEED, MINUTES, GAMES, folder=str(tmp_path))
    assert report.applied and report.moves > 0
    failed = {name: problems for name, problems in report.verdicts.items() if problems}
    assert not failed, failed
