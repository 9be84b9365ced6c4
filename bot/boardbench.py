"""Benchmark of board play's foundations (issue 38.1, 38.4):

    python -m bot.boardbench [--games 12] [--moves 30] [--seed 5]

Prints, as median (and 90th percentile) wall and CPU milliseconds:

- the regions of a picture (`render.targets.snapshot_targets`) beside the picture itself
  (`render.render_game`), over random games of 2, 3 and 4 players at random points:
  what `GET /g/<token>/targets.json` adds once per version and language;
- a move tapped through the Discord buttons (real discord.py, the fake Discord of
  `tests/bot/`, so this needs the repository checkout) beside the same kind of move
  posted to `POST /g/<token>/move` through the web app (aiohttp, in-process, signed in
  through the fake Discord's OAuth2), taking turns in one game: both end when the move
  is saved and its post has reached the (fake) thread. The pictures are blank (a
  `BlankRenderer`): the figures are the paths' own costs, not the drawing's.

The machine is shared: CPU time is the steadier figure; the run's totals close it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from render import render_game
from render.targets import snapshot_targets
from rules import Game
from rules.simulate import choose_action


def _spread(label: str, walls: list[float], cpus: list[float]) -> str:
    def p90(values: list[float]) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]

    return (
        f"{label}: wall median {statistics.median(walls):.2f} ms (p90 {p90(walls):.2f}), "
        f"CPU median {statistics.median(cpus):.2f} ms (p90 {p90(cpus):.2f}), n={len(walls)}"
    )


def _timed(work: Callable[[], object]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def bench_targets(games: int, seed: int) -> None:
    rng = random.Random(seed)
    target_walls, target_cpus, picture_walls, picture_cpus, sizes = [], [], [], [], []
    for index in range(games):
        players = 2 + index % 3
        game = Game.new(["ana", "ben", "cleo", "dan"][:players], seed=seed + index)
        for _ in range(rng.randrange(0, 400)):
            if game.is_over:
                break
            game.apply(*choose_action(game, rng))
        render_game(game)  # the shared art drawn once, as in the bot
        wall, cpu = _timed(partial(snapshot_targets, game))
        target_walls.append(wall)
        target_cpus.append(cpu)
        sizes.append(len(json.dumps([r.to_json() for r in snapshot_targets(game)])))
        wall, cpu = _timed(partial(render_game, game))
        picture_walls.append(wall)
        picture_cpus.append(cpu)
    print(_spread("regions of a picture (snapshot_targets)", target_walls, target_cpus))
    print(_spread("the picture itself (render_game)", picture_walls, picture_cpus))
    print(f"targets.json: median {statistics.median(sizes) / 1024:.1f} KiB per version")


async def bench_moves(moves: int, seed: int) -> None:
    from tests.bot.test_web_board import board_for

    with tempfile.TemporaryDirectory() as folder:
        async with board_for(Path(folder), seed=seed) as board:
            pressed: tuple[list[float], list[float]] = ([], [])
            web: tuple[list[float], list[float]] = ([], [])
            signed = {pid: await board.sign_in(board.table.user(pid)) for pid in board.table.users}
            rng, timed = random.Random(seed), 0
            while timed < moves:
                await board.table.bot.ai.idle()
                mark, game = await board.now()
                pid = game.awaiting
                if game.is_over or pid is None:
                    break
                action = next(
                    (a for a in game.legal_actions(pid) if a.verb in ("bank", "harvest")), None
                )
                if game.pending.kind != "main" or action is None:
                    # a step between the timed moves: tapped, or typed where no button leads
                    _, other = choose_action(game, rng)
                    row, _ = await board.table.game(board.game_id)
                    channel = board.table.fake.channel_by_id(row.play_channel_id)
                    await board.table.tap_move(board.game_id, other) or await board.table.type_move(
                        channel, pid, other
                    )
                    continue
                wall, cpu = time.perf_counter(), time.process_time()
                if timed % 2:
                    status, said = await board.move(
                        signed[pid], {"version": mark, "code": f"a:{action}"}
                    )
                    assert status == 200, said
                    kept = web
                else:
                    await board.table.tap_move(board.game_id, action)
                    kept = pressed
                kept[0].append((time.perf_counter() - wall) * 1000)
                kept[1].append((time.process_time() - cpu) * 1000)
                timed += 1
            print(_spread("a move pressed in Discord (fake)", *pressed))
            print(_spread("a move posted from the page", *web))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.boardbench", description=__doc__)
    parser.add_argument("--games", type=int, default=12, help="pictures whose regions are timed")
    parser.add_argument("--moves", type=int, default=30, help="moves, pressed and posted in turn")
    parser.add_argument("--seed", type=int, default=5)
    options = parser.parse_args(argv)
    wall, cpu = time.perf_counter(), time.process_time()
    bench_targets(options.games, options.seed)
    asyncio.run(bench_moves(options.moves, options.seed))
    print(f"run: {time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
