"""A server's tournaments on its web page (issue 40): the list on the server's page, and
each tournament's page at `/s/<token>/t/<id>` with its standings at this moment (the
same as `/montana-tournament standings`), its rounds' tables linked to their games'
pages, and its champion once over. Read-only, from the store; 404 for a tournament of
another server, or when the server's web pages are off."""

from __future__ import annotations

from html import escape

from aiohttp import web

from bot.core.community import tournaments as core
from bot.core.server.server_settings import server_settings
from bot.core.store import Store
from bot.core.store.tournaments import DONE, RUNNING, SIGNUP, TournamentRecord, TournamentRow
from i18n import Language, translator

from .pages import _language_links, back_to_server, language_of, page_head


def tournament_list(token: str, rows: list[TournamentRow], language: Language) -> str:
    """The server page's list of its tournaments (empty: none)."""
    if not rows:
        return ""
    t = translator(language)
    items = []
    for row in rows:
        link = f"/s/{escape(token)}/t/{row.id}?lang={language}"
        items.append(
            f'<li><h3><a href="{link}">{escape(row.name)}</a></h3>'
            f'<p class="hint">{escape(core.format_words(row, t))}</p></li>'
        )
    heading = t.gettext("Tournaments")
    return f'<h2>{escape(heading)}</h2><ul id="tournaments" class="games">{"".join(items)}</ul>'


def tournament_page(
    token: str,
    server_name: str,
    record: TournamentRecord,
    game_tokens: dict[int, str],
    language: Language,
) -> str:
    t = translator(language)
    row = record.tournament
    title = t.gettext("🏆 {name} — standings", name=row.name)
    names = {e.user_id: e.name for e in record.entrants}
    parts = [f"<p>{escape(core.format_words(row, t))}</p>"]
    if row.status == SIGNUP:
        said = t.gettext("Sign-up is open: no round has been played yet.")
        parts.append(f"<p>{escape(said)}</p>")
    else:
        lines = core.standings_of(record)
        head = escape(core.standings_header(t))
        body = "\n".join(
            escape(core.standing_line(s, names.get(s.user_id, s.user_id))) for s in lines
        )
        parts.append(f'<pre id="standings">{head}\n{body}</pre>')
        parts.append(f'<p class="hint">{escape(core.tie_breaks_words(t))}</p>')
        if row.status == DONE and row.champion_id is not None:
            champion = t.gettext("Champion: {name}.", name=names.get(row.champion_id, ""))
            parts.append(f'<p id="champion">{escape(champion)}</p>')
        elif row.status == RUNNING:
            parts.append(f"<p>{escape(t.gettext('Round {n} under way.', n=record.last_round))}</p>")
        else:
            parts.append(f"<p>{escape(t.gettext('This tournament was cancelled.'))}</p>")
        for number in sorted(record.tables, reverse=True):
            items = []
            for table in record.tables[number]:
                players = ", ".join(names.get(p, p) for p in table.players)
                game = table.game_id
                text = escape(players)
                if game is not None and game in game_tokens:
                    text = f'<a href="/g/{escape(game_tokens[game])}?lang={language}">{text}</a>'
                items.append(f"<li>{table.number}. {text}</li>")
            heading = escape(t.gettext("Round {n}", n=number))
            parts.append(f'<h3>{heading}</h3><ol class="tables">{"".join(items)}</ol>')
    base = f"/s/{escape(token)}/t/{row.id}"
    return (
        page_head(title, language)
        + f"""<body class="community">
<header>
<h1>{escape(title)}</h1>
{back_to_server(token, server_name, language)}
<nav aria-label="{escape(t.gettext("Language"))}">{_language_links(base, language)}</nav>
</header>
<main>
<section class="board">
{"".join(parts)}
</section>
</main>
</body>
</html>
"""
    )


class TournamentPages:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def page(self, request: web.Request) -> web.Response:
        found = await self.store.server_by_web_token(request.match_info["token"])
        if found is None or not (await server_settings(self.store, found[0])).web:
            raise web.HTTPNotFound()
        guild_id, server_name = found
        number = request.match_info["id"]
        if not number.isdigit() or len(number) > 18:
            raise web.HTTPNotFound()
        record = await self.store.tournament_record(int(number))
        if record is None or record.tournament.guild_id != guild_id:
            raise web.HTTPNotFound()
        games = [t.game_id for ts in record.tables.values() for t in ts if t.game_id is not None]
        tokens = await self.store.web_tokens_of(games)
        language = language_of(request.query.get("lang"), request.headers.get("Accept-Language"))
        text = tournament_page(request.match_info["token"], server_name, record, tokens, language)
        return web.Response(
            text=text,
            content_type="text/html",
            headers={"Cache-Control": "no-store", "Vary": "Accept-Language"},
        )


def add_tournament_routes(app: web.Application, store: Store) -> None:
    app.router.add_get("/s/{token}/t/{id}", TournamentPages(store).page)


__all__ = ["add_tournament_routes", "tournament_list", "tournament_page"]
