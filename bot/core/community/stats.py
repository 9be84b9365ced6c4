"""Ratings and statistics in words (issue 22): the end-of-game summary, the leaderboard,
a player's record, the server's records, the chart's words — in a reader's language.

Pure functions of what the store read (`bot.core.community.ratings`, `bot.core.store.ratings`) and
a `Translator`; the front end places them (an embed, a message, a picture).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from babel.dates import format_skeleton, format_timedelta

from bot.core.community.ratings import BASE, PROVISIONAL_GAMES, WORK_VERBS, PlayerStats, provisional
from bot.core.store import PlayerRating, Season, ServerRecord
from bot.core.wording import words
from i18n import Translator, translatable_in
from render.charts import ChartWords
from render.vocabulary import ACTIONS


def duration_text(seconds: int, t: Translator) -> str:
    """A length of time in its largest unit, as CLDR words it in `t`'s language (through
    Babel, like the deadlines): "3 days", "5 hours", "12 minutes", "40 seconds"."""
    text = str(
        format_timedelta(
            timedelta(seconds=max(0, int(seconds))),
            threshold=1,
            format="long",
            locale=t.language,
        )
    )
    if t.language == "ja":  # 3日: Japanese writes a count and its unit together
        return text.replace(" ", "").replace("\u00a0", "")
    return text


def change_text(before: int | None, after: int | None) -> str:
    """ "+14", "−6", "±0" (a rating's change)."""
    if before is None or after is None:
        return ""
    delta = after - before
    return f"+{delta}" if delta > 0 else (f"−{-delta}" if delta < 0 else "±0")


AI_LEVELS = {
    "easy": translatable_in("ai level", "easy"),
    "normal": translatable_in("ai level", "normal"),
    "hard": translatable_in("ai level", "hard"),
}
"""The AI's levels as the summary names them (`ratings.ai_level_of`)."""


def level_text(level: str, t: Translator) -> str:
    """An AI level's pseudo-player: "AI (normal)"."""
    named = AI_LEVELS.get(level)
    return t.gettext("AI ({level})", level=t.translate(named) if named else level)


def rating_text(rating: int, is_provisional: bool) -> str:
    """The rating as shown: "1234", or "1034?" while provisional."""
    return f"{rating}?" if is_provisional else str(rating)


# ------------------------------------------------------------------ the summary


def summary_text(body: Mapping[str, Any], game_id: int, t: Translator) -> str:
    """The end-of-game summary posted in the game's thread (`ratings.SUMMARY`)."""
    seats: list[dict[str, Any]] = list(body.get("seats", []))
    names = {s["seat"]: s["name"] for s in seats}
    lines = [
        t.gettext("📊 **Game #{game} — summary**", game=game_id)
        if body.get("finished")
        else t.gettext("📊 **Game #{game} — summary** (ended early by a vote)", game=game_id)
    ]
    for seat in seats:
        # Translators: {n} is the seat's count of settlements; {cows} and {holdings}
        # are its tie-break figures (cows and canteens, holdings).
        line = t.ngettext(
            "{place}. {name} — {n} settlement (cows and canteens {cows}, holdings {holdings})",
            "{place}. {name} — {n} settlements (cows and canteens {cows}, holdings {holdings})",
            int(seat["settlements"]),
            place=seat["place"],
            name=words.forgotten_worded(str(seat["name"]), t),
            cows=seat.get("cows", 0),
            holdings=seat.get("holdings", 0),
        )
        if seat.get("hidden"):
            pass  # their statistics are hidden: no figures of theirs in public
        elif seat.get("after") is not None and seat.get("level"):
            # an AI seat plays for its level's rating (`ratings.ai_level_of`)
            line += " · " + t.gettext(
                "rating of {level} {rating} ({change})",
                level=level_text(str(seat["level"]), t),
                rating=rating_text(seat["after"], bool(seat.get("provisional"))),
                change=change_text(seat.get("before"), seat.get("after")),
            )
        elif seat.get("after") is not None:
            line += " · " + t.gettext(
                "rating {rating} ({change})",
                rating=rating_text(seat["after"], bool(seat.get("provisional"))),
                change=change_text(seat.get("before"), seat.get("after")),
            )
        if seat.get("quit"):
            line += " · " + t.gettext("overdue when the vote ended the game: placed last")
        lines.append(line)
    turns = t.ngettext("{n} turn", "{n} turns", int(body.get("turns", 0)))
    lines.append(
        t.gettext(
            "Length: {duration}, {turns}.",
            duration=duration_text(int(body.get("seconds", 0)), t),
            turns=turns,
        )
    )
    medians = [
        t.gettext("{name} {time}", name=s["name"], time=duration_text(s["median"], t))
        for s in seats
        if s.get("median") is not None and not s.get("hidden")
    ]
    if medians:
        lines.append(t.gettext("Median time to answer: {list}.", list=words.listed(medians, t)))
    fastest, slowest = body.get("fastest"), body.get("slowest")
    hidden = {s["seat"] for s in seats if s.get("hidden")}
    if fastest and slowest and not {fastest[1], slowest[1]} & hidden:
        lines.append(
            t.gettext(
                "Fastest answer: {fast_name}, {fast}. Slowest: {slow_name}, {slow}.",
                fast_name=names.get(fastest[1], "?"),
                fast=duration_text(int(fastest[0]), t),
                slow_name=names.get(slowest[1], "?"),
                slow=duration_text(int(slowest[0]), t),
            )
        )
    return "\n".join(lines)


def summary_line(body: Mapping[str, Any], game_id: int, thread_id: int, t: Translator) -> str:
    """The short line in the parent channel: who won, and where the summary is."""
    seats: list[dict[str, Any]] = list(body.get("seats", []))
    winners = [s["name"] for s in seats if s["place"] == 1]
    return t.gettext(
        "🏁 Montana game #{game} is over: {winners} won. The summary is in <#{thread}>.",
        game=game_id,
        winners=words.listed(winners, t) or "?",
        thread=thread_id,
    )


# ------------------------------------------------------------------ the leaderboard


def leaderboard_line(
    place: int, rating: PlayerRating, month_before: int | None, *, you: bool = False
) -> str:
    """One line of the leaderboard's table (monospace): place, rating, games, wins, the
    change over 30 days, the name."""
    change = change_text(month_before, rating.rating) if month_before is not None else "·"
    name = rating.name[:24] + (" ◀" if you else "")
    return f"{place:>3} {rating.rating:>6} {rating.games:>5} {rating.wins:>5} {change:>7}  {name}"


def leaderboard_header(t: Translator) -> str:
    # Translators: a column of the leaderboard's table (monospace): keep it short.
    place = t.pgettext("leaderboard", "#")
    # Translators: a column of the leaderboard's table (monospace): keep it short.
    rating = t.pgettext("leaderboard", "Rating")
    # Translators: a column of the leaderboard's table (monospace): keep it short.
    games = t.pgettext("leaderboard", "Games")
    # Translators: a column of the leaderboard's table (monospace): keep it short.
    wins = t.pgettext("leaderboard", "Wins")
    # Translators: the leaderboard's column of the change over the last 30 days: short.
    month = t.pgettext("leaderboard", "30 d")
    # Translators: a column of the leaderboard's table (monospace): keep it short.
    player = t.pgettext("leaderboard", "Player")
    return f"{place:>3} {rating:>6} {games:>5} {wins:>5} {month:>7}  {player}"


def leaderboard_footer(page: int, pages: int, t: Translator) -> str:
    return t.gettext(
        "Page {page} of {pages} · players with at least {n} rated games · the rating is "
        "OpenSkill's cautious estimate (μ − 3σ), {base} at the start",
        page=page,
        pages=pages,
        n=PROVISIONAL_GAMES,
        base=BASE,
    )


def not_on_board(rating: PlayerRating | None, hidden: bool, t: Translator) -> str:
    """Why the asker has no line on the leaderboard."""
    if hidden:
        return t.gettext("You hid your statistics ({/me stats}): you are not on the leaderboard.")
    games = rating.games if rating else 0
    return t.ngettext(
        "You are not on the leaderboard yet: {n} more rated game to go.",
        "You are not on the leaderboard yet: {n} more rated games to go.",
        PROVISIONAL_GAMES - games,
    )


# ------------------------------------------------------------------ one player's record


def favourite_name(verb: str | None, t: Translator) -> str | None:
    if verb is None:
        return None
    key = "work" if verb in WORK_VERBS else verb
    term = ACTIONS.get(key)
    return t.translate(term.name) if term is not None else verb


def stats_fields(
    stats: PlayerStats, place: int | None, board_size: int, t: Translator
) -> list[tuple[str, str]]:
    """(label, value) of a player's record, in the order shown."""
    fields: list[tuple[str, str]] = []
    rating = stats.rating
    if rating is not None:
        if provisional(rating):
            value = t.gettext(
                "{rating} (provisional: {n} of {needed} rated games)",
                rating=rating_text(rating.rating, True),
                n=rating.games,
                needed=PROVISIONAL_GAMES,
            )
        elif place is not None:
            value = t.gettext(
                "{rating} (#{place} of {count})",
                rating=rating.rating,
                place=place,
                count=board_size,
            )
        else:
            value = str(rating.rating)
        fields.append((t.gettext("Rating"), value))
    win_rate = round(100 * (stats.win_rate or 0))
    fields.append(
        (
            t.gettext("Games"),
            t.ngettext(
                "{n} game, {wins} won ({rate}%)",
                "{n} games, {wins} won ({rate}%)",
                stats.games,
                wins=stats.wins,
                rate=win_rate,
            ),
        )
    )
    if stats.average_place is not None:
        fields.append((t.gettext("Average place"), f"{stats.average_place:.1f}"))
    answer = (
        duration_text(round(stats.median_answer), t) if stats.median_answer is not None else "—"
    )
    auction = (
        duration_text(round(stats.median_auction_answer), t)
        if stats.median_auction_answer is not None
        else "—"
    )
    fields.append(
        (
            t.gettext("Median time to answer"),
            t.gettext("turn {turn} · city auction {auction}", turn=answer, auction=auction),
        )
    )
    favourite = favourite_name(stats.favourite_action, t)
    if favourite is not None:
        fields.append((t.gettext("Favourite action"), favourite))
    best = stats.best_game
    if best is not None:
        fields.append(
            (
                t.gettext("Best game"),
                t.ngettext(
                    "{n} settlement (game #{game}, place {place})",
                    "{n} settlements (game #{game}, place {place})",
                    best.settlements,
                    game=best.game_id,
                    place=best.place,
                ),
            )
        )
    fields.append(
        (
            t.gettext("Winning streak"),
            t.gettext("now {now}, longest {longest}", now=stats.streak, longest=stats.best_streak),
        )
    )
    return fields


def chart_words(
    name: str, stats: PlayerStats, place: int | None, t: Translator
) -> tuple[ChartWords, list[str]]:
    """The chart's words and each game's date, in the reader's language."""
    rating = stats.rating
    shown = rating_text(rating.rating, provisional(rating)) if rating else "—"
    title = (
        t.gettext("{name} — rating {rating} (#{place})", name=name, rating=shown, place=place)
        if place is not None
        else t.gettext("{name} — rating {rating}", name=name, rating=shown)
    )
    subtitle = t.ngettext(
        "{n} rated game on this server · {wins} won",
        "{n} rated games on this server · {wins} won",
        len(stats.history),
        wins=stats.wins,
    )
    dates = [date_text(moment, t) for moment, _ in stats.history]
    return (
        ChartWords(
            title=title,
            subtitle=subtitle,
            provisional=t.gettext("provisional"),
            start=t.gettext("start {base}", base=BASE),
        ),
        dates,
    )


def date_text(moment: datetime, t: Translator) -> str:
    """A short date in the reader's language ("3 Mar", "3 mars", "3月3日")."""
    return str(format_skeleton("MMMd", moment.date(), locale=t.language))


# ------------------------------------------------------------------ records


def records_lines(records: Mapping[str, ServerRecord], t: Translator) -> list[str]:
    lines = []
    if (r := records.get("settlements")) is not None:
        lines.append(
            t.gettext(
                "Most settlements in a game: {n} — {name} (game #{game})",
                n=r.value,
                name=r.name,
                game=r.game_id,
            )
        )
    if (r := records.get("fastest")) is not None:
        lines.append(
            t.gettext(
                "Fastest finished game: {duration} — won by {name} (game #{game})",
                duration=duration_text(r.value, t),
                name=r.name,
                game=r.game_id,
            )
        )
    if (r := records.get("longest")) is not None:
        lines.append(
            t.gettext(
                "Longest finished game: {duration} — won by {name} (game #{game})",
                duration=duration_text(r.value, t),
                name=r.name,
                game=r.game_id,
            )
        )
    if (r := records.get("games")) is not None:
        lines.append(
            t.ngettext(
                "Most games played: {n} — {name}",
                "Most games played: {n} — {name}",
                r.value,
                name=r.name,
            )
        )
    return lines


# ------------------------------------------------------------------ seasons

CHAMPIONS_SHOWN = 10
"""The past seasons whose champions the leaderboard names (the newest first)."""


def season_text(season: Season, t: Translator) -> str:
    """ "season 2 (Summer 2027)"."""
    return t.gettext("season {number} ({name})", number=season.number, name=season.name)


def leaderboard_title(server: str, season: Season | None, seasons: bool, t: Translator) -> str:
    """The leaderboard's title: of the current `season`, or of all time (`seasons`: the
    server has had seasons, so "all time" is said)."""
    if season is not None:
        return t.gettext(
            "🏆 Montana leaderboard — {server}, {season}",
            server=server,
            season=season_text(season, t),
        )
    if seasons:
        return t.gettext("🏆 Montana leaderboard — {server}, all time", server=server)
    return t.gettext("🏆 Montana leaderboard — {server}", server=server)


def stats_title(name: str, season: Season | None, seasons: bool, t: Translator) -> str:
    """A player's record's title: in the current `season`, or of all time."""
    if season is not None:
        return t.gettext(
            "📈 {name} on this server, {season}", name=name, season=season_text(season, t)
        )
    if seasons:
        return t.gettext("📈 {name} on this server, all time", name=name)
    return t.gettext("📈 {name} on this server", name=name)


def champion_line(season: Season, t: Translator) -> str:
    """A past season and its champion (or that it had none)."""
    if season.champion_name is None:
        return t.gettext(
            "{season}: no champion (nobody had {n} rated games in it)",
            season=season_text(season, t),
            n=PROVISIONAL_GAMES,
        )
    return t.gettext(
        "{season}: {champion}, rating {rating}",
        season=season_text(season, t),
        champion=words.forgotten_worded(season.champion_name, t),
        rating=season.champion_rating,
    )


def champions_lines(past: list[Season], t: Translator) -> list[str]:
    """The past seasons' champions, the newest first (`CHAMPIONS_SHOWN` at most)."""
    return [champion_line(season, t) for season in past[:CHAMPIONS_SHOWN]]


__all__ = [
    "champion_line",
    "champions_lines",
    "chart_words",
    "date_text",
    "duration_text",
    "leaderboard_footer",
    "leaderboard_header",
    "leaderboard_line",
    "leaderboard_title",
    "not_on_board",
    "records_lines",
    "season_text",
    "stats_fields",
    "stats_title",
    "summary_line",
    "summary_text",
]
