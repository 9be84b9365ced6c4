"""What a server's page and a player's page say (issue 28), in the reader's language:
the words (worded from the store's rows by the same functions as Discord's answers) and
the pages' HTML, every name escaped. `bot.web.servers` serves them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape

from bot.core.clock.pace import pace_label
from bot.core.community import stats
from bot.core.community.ratings import BASE, PROVISIONAL_GAMES, placings
from bot.core.community.standings import LeaderboardPage, PlayerRecord
from bot.core.wording import words
from i18n import Language, Translator, translator
from render.vocabulary import PIECES
from rules import Game

from ..core.store import ACTIVE, ENDED, GameRow, moment_of
from .pages import _language_links, back_to_server, page_head


@dataclass(frozen=True)
class BoardLine:
    place: int
    user_id: str
    name: str
    rating: int
    games: int
    wins: int
    change: str
    """Over the last 30 days: "+14", "−6", "±0"."""


@dataclass(frozen=True)
class GameLine:
    game_id: int
    token: str | None
    """The game page's token (None: the bot has not linked that game yet)."""
    players: str
    said: str
    """Under way: whose turn and what they must do. Over: the final standings."""
    detail: str
    """Under way: the pace. Over: the day it ended (and how)."""


def board_lines(read: LeaderboardPage) -> list[BoardLine]:
    return [
        BoardLine(
            read.offset + index + 1,
            r.player,
            r.name,
            r.rating,
            r.games,
            r.wins,
            read.month_change(r),
        )
        for index, r in enumerate(read.board)
    ]


def _players(row: GameRow, t: Translator) -> str:
    return ", ".join(words.forgotten_worded(seat.name, t) for seat in row.players)


def game_line(row: GameRow, token: str | None, t: Translator) -> GameLine | None:
    """A game under way: whose turn it is and what they must do, and its pace. A game
    that ended: its final standings as the ratings counted them (a game ended by a vote
    places its overdue player last) and the day it ended. None: a game not started."""
    if row.state_json is None:
        return None
    game = Game.from_dict(json.loads(row.state_json))
    if row.status == ACTIVE:
        pace = pace_label(row.turn_seconds, row.auction_seconds, t)
        return GameLine(
            row.id,
            token,
            _players(row, t),
            words.waiting_for(game, row.names, t),
            t.gettext("Pace: {pace}.", pace=pace),
        )
    quitter = json.loads(row.result_json).get("awaited") if row.result_json else None
    standings = [
        t.gettext(
            "{place}. {who} — {settlements}",
            place=placing.place,
            who=words.forgotten_worded(placing.seat.name, t),
            settlements=PIECES["settlement"].count_in(t, placing.settlements),
        )
        for placing in placings(row, game, quitter if row.status == ENDED else None)
    ]
    day = stats.date_text(moment_of(row.updated_at), t)
    detail = (
        t.gettext("Ended early by a vote on {day}", day=day)
        if row.status == ENDED
        else t.gettext("Ended on {day}", day=day)
    )
    return GameLine(row.id, token, _players(row, t), " · ".join(standings), detail)


def _game_items(lines: list[GameLine], language: Language, t: Translator) -> str:
    items = []
    for line in lines:
        name = escape(t.gettext("Game #{game}", game=line.game_id))
        heading = (
            f'<a href="/g/{escape(line.token)}?lang={language}">{name}</a>'
            if line.token is not None
            else name
        )
        items.append(
            f"<li><h3>{heading}</h3>"
            f'<p class="players">{escape(line.players)}</p>'
            f"<p>{escape(line.said)}</p>"
            f'<p class="hint">{escape(line.detail)}</p></li>'
        )
    return "".join(items)


def _champions(champions: list[str], t: Translator) -> str:
    """The past seasons' champions (`stats.champions_lines`), the newest first."""
    if not champions:
        return ""
    heading = t.gettext("Past seasons' champions")
    items = "".join(f"<li>{escape(line)}</li>" for line in champions)
    return f'<h2>{escape(heading)}</h2><ul id="champions">{items}</ul>'


def _leaderboard(
    token: str,
    lines: list[BoardLine] | None,
    more: int,
    language: Language,
    t: Translator,
    season: str | None = None,
) -> str:
    leaderboard = t.gettext("Leaderboard")
    if season is not None:
        leaderboard = t.gettext("Leaderboard, {season}", season=season)
    heading = f"<h2>{escape(leaderboard)}</h2>"
    if lines is None:
        said = t.gettext(
            "This server switched its statistics and ratings off: there is no leaderboard."
        )
        return f'{heading}<p id="leaderboard-off">{escape(said)}</p>'
    if not lines:
        said = t.gettext(
            "Nobody has {n} rated games on this server yet: finish games to be rated.",
            n=PROVISIONAL_GAMES,
        )
        return f"{heading}<p>{escape(said)}</p>"
    columns = (
        ("place", t.pgettext("leaderboard", "#")),
        ("name", t.pgettext("leaderboard", "Player")),
        ("number", t.pgettext("leaderboard", "Rating")),
        ("number", t.pgettext("leaderboard", "Games")),
        ("number", t.pgettext("leaderboard", "Wins")),
        ("number", t.pgettext("leaderboard", "30 d")),
    )
    head = "".join(
        f'<th scope="col" class="{kind}">{escape(label)}</th>' for kind, label in columns
    )
    rows = []
    for line in lines:
        link = f"/s/{escape(token)}/p/{escape(line.user_id)}?lang={language}"
        rows.append(
            f'<tr><td class="place">{line.place}</td>'
            f'<th scope="row" class="name"><a href="{link}">{escape(line.name)}</a></th>'
            f'<td class="number">{line.rating}</td><td class="number">{line.games}</td>'
            f'<td class="number">{line.wins}</td><td class="number">{escape(line.change)}</td></tr>'
        )
    footer = t.gettext(
        "Players with at least {n} rated games. The rating is OpenSkill's cautious "
        "estimate (μ − 3σ), {base} at the start; the last column is its change over 30 days.",
        n=PROVISIONAL_GAMES,
        base=BASE,
    )
    if more > 0:
        footer += " " + t.ngettext(
            "{n} more player is on the leaderboard in Discord.",
            "{n} more players are on the leaderboard in Discord.",
            more,
        )
    return (
        f'{heading}<table id="leaderboard"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        f'<p class="hint">{escape(footer)}</p>'
    )


def server_page(
    token: str,
    server_name: str,
    board: list[BoardLine] | None,
    more: int,
    under_way: list[GameLine],
    over: list[GameLine],
    language: Language,
    *,
    tournaments: str = "",
    season: str | None = None,
    champions: list[str] | None = None,
) -> str:
    """The server's page: its leaderboard (`board` None: statistics off; of the current
    `season` when there is one, worded), the past seasons' champions, its games under
    way and its latest results, each game linked to its page when it has one;
    `tournaments`: the list of its tournaments (`tournament_pages.tournament_list`)."""
    t = translator(language)
    base = f"/s/{escape(token)}"
    title = t.gettext("Montana on {server}", server=server_name or "Discord")
    none_under_way = t.gettext("No game is under way on this server.")
    none_over = t.gettext("No game has ended on this server yet.")
    under_way_items = _game_items(under_way, language, t) or f"<li>{escape(none_under_way)}</li>"
    over_items = _game_items(over, language, t) or f"<li>{escape(none_over)}</li>"
    language_label = t.gettext("Language")
    under_way_heading = t.gettext("Games under way")
    results_heading = t.gettext("Recent results")
    return (
        page_head(title, language)
        + f"""<body class="community">
<header>
<h1>{escape(title)}</h1>
<nav aria-label="{escape(language_label)}">{_language_links(base, language)}</nav>
</header>
<main>
<section class="board">
{_leaderboard(token, board, more, language, t, season)}
{_champions(champions or [], t)}
</section>
<section class="side">
<h2>{escape(under_way_heading)}</h2>
<ul id="under-way" class="games">{under_way_items}</ul>
<h2>{escape(results_heading)}</h2>
<ul id="results" class="games">{over_items}</ul>
{tournaments}
</section>
</main>
</body>
</html>
"""
    )


def player_page(
    token: str, server_name: str, user_id: str, record: PlayerRecord, language: Language
) -> str:
    """A player's page: their record as `/montana stats` words it, and their rating's
    chart (when they have rated games)."""
    t = translator(language)
    assert record.stats is not None and record.name is not None
    base = f"/s/{escape(token)}/p/{escape(user_id)}"
    title = t.gettext("{name} on this server", name=record.name)
    fields = "".join(
        f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>"
        for label, value in stats.stats_fields(record.stats, record.place, record.board_size, t)
    )
    chart = ""
    if record.stats.history:
        alt = t.gettext(
            "The rating of {name} after each rated game on this server, now {rating}.",
            name=record.name,
            rating=record.rating.rating if record.rating is not None else "—",
        )
        chart = (
            f'<a href="{base}/rating.png?lang={language}">'
            f'<img id="chart" src="{base}/rating.png?lang={language}" alt="{escape(alt)}"'
            ' width="840" height="440"></a>'
        )
    language_label = t.gettext("Language")
    return (
        page_head(title, language)
        + f"""<body class="community">
<header>
{back_to_server(token, server_name, language)}
<h1>{escape(title)}</h1>
<nav aria-label="{escape(language_label)}">{_language_links(base, language)}</nav>
</header>
<main class="player">
<section class="record">
<dl id="record">{fields}</dl>
</section>
<section class="side">
{chart}
</section>
</main>
</body>
</html>
"""
    )


__all__ = [
    "BoardLine",
    "GameLine",
    "board_lines",
    "game_line",
    "player_page",
    "server_page",
]
