"""What a game's page says, in the reader's language: the words (`GameWords`, also sent
as JSON to an open page when the game moves) and the page's HTML, every name escaped."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from html import escape

from bot.core.wording import words
from i18n import LANGUAGE_NAMES, LANGUAGES, Language, Translator, is_language, translator
from render.replay import turn_states
from rules import Event, Game

from ..core.store import FORGOTTEN_NAME, GameRow

FALLBACK: Language = "en"


def language_of(query: str | None, accept_language: str | None) -> Language:
    """The page's language: `?lang=` if it names one, else the best of `Accept-Language`
    (by its q-values), else English."""
    if query and is_language(query):
        return query
    best: tuple[float, int, Language] | None = None
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().lower().split("-")[0]
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        if is_language(code) and quality > 0:
            candidate = (-quality, index, code)
            if best is None or candidate < best:
                best = candidate
    return best[2] if best is not None else FALLBACK


@dataclass(frozen=True)
class GameWords:
    """The page's text for one mark of a game (the picture is fetched by its address)."""

    mark: str
    """ "<version>-<epoch>": the addresses of this state's pictures carry it."""
    waiting: str
    """Whose turn it is and what they must do (or that the game is over)."""
    standings: list[str]
    log: list[str]
    """One line per turn, oldest first: the turn in words."""
    turns: int
    """The last turn (the replay slider's end)."""

    def to_json(self) -> str:
        # the fields in their order, as `dataclasses.asdict` gives them, without its deep
        # copy of the log (its lines are strings): the same JSON, for a fraction of the CPU
        fields = {field.name: getattr(self, field.name) for field in dataclass_fields(self)}
        return json.dumps(fields, ensure_ascii=False)


def mark_of(row: GameRow) -> str:
    """The game's mark as the page's addresses carry it: "<version>-<epoch>", and "-f"
    once a player of it asked to be forgotten (`/montana me forget` renames them in the
    games that are over, without a new version): the pictures kept for good under the
    old address show the old name, so the new ones get addresses of their own."""
    mark = f"{row.version}-{row.undo_epoch}"
    if any(seat.name == FORGOTTEN_NAME for seat in row.players):
        mark += "-f"
    return mark


def log_line(turn: int, events: Sequence[Event], names: Mapping[str, str], t: Translator) -> str:
    """A turn's line of the page's log ("" if the turn said nothing: no line)."""
    said = words.describe(events, names, t=t)
    if not said:
        return ""
    if turn == 0:
        return t.gettext("Setup: {said}", said=said)
    return t.gettext("Turn {n}: {said}", n=turn, said=said)


def worded(
    row: GameRow, game: Game, names: Mapping[str, str], t: Translator, log: list[str], turns: int
) -> GameWords:
    """The page's words of `game` at `row`'s mark, its log's lines given."""
    standings = [line.replace("**", "") for line in words.results(game, names, t).splitlines()]
    return GameWords(
        mark=mark_of(row),
        waiting=words.waiting_for(game, names, t).replace("**", ""),
        standings=standings,
        log=log,
        turns=turns,
    )


def game_words(row: GameRow, game: Game, t: Translator) -> GameWords:
    """The page's words, the whole log worded from the game's record (the web process
    keeps them per game and words only the moves since: `bot.web.turn_words`)."""
    names = words.names_worded(row.names, t)
    log: list[str] = []
    last = 0
    for state in turn_states(game):
        last = state.frame.turn
        line = log_line(state.frame.turn, state.events, names, t)
        if line:
            log.append(line)
    return worded(row, game, names, t, log, last)


def _language_links(path: str, current: Language) -> str:
    links = []
    for code in LANGUAGES:
        name = escape(LANGUAGE_NAMES[code])
        if code == current:
            links.append(f'<a aria-current="true" lang="{code}">{name}</a>')
        else:
            links.append(f'<a href="{escape(path)}?lang={code}" lang="{code}">{name}</a>')
    return " ".join(links)


def page_head(title: str, language: Language, *, script: bool = False, board: bool = False) -> str:
    """A page's start, to its `<head>`'s end: its language, title, the style and (for a
    game's live page) the script, both served by the site itself (the CSP); `board`:
    the board play's script too."""
    loads = '<script src="/static/web.js" defer></script>\n' if script else ""
    if board:
        loads += '<script src="/static/board.js" defer></script>\n'
    return f"""<!DOCTYPE html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/web.css">
{loads}</head>
"""


def back_to_server(token: str, name: str, language: Language) -> str:
    """The link from a game's or a player's page to their server's page."""
    words = translator(language).gettext("Back to {server}", server=name or "Discord")
    return (
        f'<p class="players"><a id="back" href="/s/{escape(token)}?lang={language}">'
        f"← {escape(words)}</a></p>"
    )


def game_page(
    row: GameRow,
    said: GameWords,
    token: str,
    language: Language,
    server: tuple[str, str] | None = None,
    *,
    board: bool = False,
) -> str:
    """The whole page: the picture now, whose turn, the replay slider and the log;
    `server`: the token and name of its server's page, linked above the title; `board`:
    played on the board (signing in, the touch targets over the picture: `board_parts`)."""
    t = translator(language)
    base = f"/g/{escape(token)}"
    back = "" if server is None else back_to_server(*server, language) + "\n"
    players = ", ".join(escape(name) for name in words.names_worded(row.names, t).values())
    title = t.gettext("Montana: game {id}", id=row.id)
    picture_alt = t.gettext("The board of the game now: {waiting}", waiting=said.waiting)
    step_alt = t.gettext("The board at the end of the chosen turn")
    language_label = t.gettext("Language")
    zoom_hint = t.gettext("Open the picture to zoom in.")
    replay_heading = t.gettext("Replay")
    turn_label = t.gettext("Turn")
    moves_heading = t.gettext("Moves")
    log_items = "".join(f"<li>{escape(line)}</li>" for line in said.log)
    standings = "".join(f"<li>{escape(line)}</li>" for line in said.standings[1:])
    heading = escape(said.standings[0]) if said.standings else ""
    address = f"{base}/picture/{escape(said.mark)}.png?lang={language}"
    shown = (
        board_parts(base, address, language, picture_alt)
        if board
        else f"""<a id="picture-link" href="{address}">
<img id="picture" src="{address}" alt="{escape(picture_alt)}"></a>
<p class="hint">{escape(zoom_hint)}</p>"""
    )
    return (
        page_head(title, language, script=True, board=board)
        + f"""<body data-base="{base}" data-lang="{language}" data-mark="{escape(said.mark)}">
<header>
{back}<h1>{escape(title)}</h1>
<p class="players">{players}</p>
<nav aria-label="{escape(language_label)}">{_language_links(base, language)}</nav>
</header>
<main>
<section class="now">
<p id="waiting" role="status" aria-live="polite">{escape(said.waiting)}</p>
{shown}
</section>
<section class="side">
<h2>{escape(replay_heading)}</h2>
<label for="turn">{escape(turn_label)} <output id="turn-shown">{said.turns}</output></label>
<input id="turn" type="range" min="0" max="{said.turns}" value="{said.turns}" step="1">
<img id="step" src="{base}/picture/{escape(said.mark)}.png?lang={language}"
 alt="{escape(step_alt)}">
<h2>{heading}</h2>
<ul id="standings">{standings}</ul>
<h2>{escape(moves_heading)}</h2>
<ol id="log">{log_items}</ol>
</section>
</main>
</body>
</html>
"""
    )


def board_parts(base: str, address: str, language: Language, picture_alt: str) -> str:
    """The board played on: the account line (sign in with Discord, or who is signed
    in), the picture under its layer of touch targets (laid by `board.js` from
    `targets.json` and `choices.json`), the zoom buttons, the choices the picture does
    not draw, the panel a choice with parts opens, and the script's words (in
    `data-` attributes: the script has none of its own)."""
    t = translator(language)
    board_words = {
        "signed-as": t.gettext("Signed in as {name}", name="{name}"),  # filled by the script
        "your-turn": t.gettext(
            "Your turn: tap a highlighted place on the board, or a choice below it."
        ),
        "watching": t.gettext("You are watching: only the game's players move."),
        "cancel": t.pgettext("button", "Cancel"),
        "board": t.gettext("The board: the places you may choose now"),
    }
    attributes = " ".join(f'data-{key}="{escape(text)}"' for key, text in board_words.items())
    back = f"/signin?back={base}%3Flang%3D{language}"
    sign_in = t.gettext("Sign in with Discord")
    sign_out = t.pgettext("button", "Sign out")
    zoom_in, zoom_out = t.gettext("Zoom in"), t.gettext("Zoom out")
    fit = t.pgettext("button", "Fit the board")
    return f"""<p id="account" class="account">
<a id="signin" class="signin" href="{escape(back)}" hidden>{escape(sign_in)}</a>
<span id="signed-as" hidden></span>
<button id="signout" type="button" hidden>{escape(sign_out)}</button>
</p>
<p id="turn-note" class="turn-note" role="status" aria-live="assertive" hidden></p>
<div id="board" class="board">
<div id="stage" class="stage">
<img id="picture" src="{address}" alt="{escape(picture_alt)}">
<div id="targets" class="targets" role="group"></div>
</div>
</div>
<div class="zoom">
<button id="zoom-out" type="button" aria-label="{escape(zoom_out)}">−</button>
<button id="zoom-fit" type="button">{escape(fit)}</button>
<button id="zoom-in" type="button" aria-label="{escape(zoom_in)}">+</button>
</div>
<div id="beside" class="beside" hidden>
<p id="prompt"></p>
<div id="beside-choices" class="choices"></div>
</div>
<div id="panel" class="panel" role="dialog" aria-labelledby="panel-heading" hidden>
<p id="panel-heading"></p>
<div id="panel-choices" class="choices"></div>
<button id="panel-cancel" type="button"></button>
</div>
<p id="said" class="said" role="alert"></p>
<div id="board-words" hidden {attributes}></div>"""


def not_found_page(language: Language) -> str:
    t = translator(language)
    text = escape(
        t.gettext(
            "There is no page here: the address may be mistyped, or the page "
            "was switched off by the server's administrators."
        )
    )
    return page_head("404", language) + f"<body><main><p>{text}</p></main></body>\n</html>\n"
