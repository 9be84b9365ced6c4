"""Issue 36.4: the sentences built from parts, rendered as a reader sees them and compared
with the right text, for each language: lists of players ("Ana, Ben et Cleo"), counted
pieces and goods for 1, 2, 5, 22 and 25 (the counts where Polish changes its form), ranks
(ordinals), and places shared by a tie. Each goes through the code that builds it
(`bot.core.wording.phrasing`, `render.words`, `bot.core.wording.states`,
`bot.core.community.stats`), not through the catalogue alone.

A case found wrong (the French « 1ᵉ » and « Ana et Ben l’emporte » of the 2026-11-28
review) is kept here with the text its fix decided."""

from __future__ import annotations

from typing import cast

import pytest

from bot.core.community import stats
from bot.core.community.ratings import PlayerStats
from bot.core.store import PlayerRating
from bot.core.wording import phrasing, states
from i18n import LANGUAGES, Language, translator
from render import words as render_words
from render.vocabulary import GOODS, PIECES
from rules.game import Game
from rules.state import Result, Standing

COUNTS = (1, 2, 5, 22, 25)
NAMES = ("Ana", "Ben", "Cleo")
NBSP = "\u202f"  # French: a narrow no-break space before « : »

# ------------------------------------------------------------------ lists

LISTED = {
    # phrasing.listed: the lists inside the bot's sentences ("took a cow, a canteen and …")
    "en": ("Ana", "Ana and Ben", "Ana, Ben, and Cleo"),
    "fr": ("Ana", "Ana et Ben", "Ana, Ben et Cleo"),
    "pl": ("Ana", "Ana i Ben", "Ana, Ben i Cleo"),
    "ja": ("Ana", "Ana、Ben", "Ana、Ben、Cleo"),
}
JOINED = {
    # render.words.joined: the pictures' lists ("a copper worker and a grain worker")
    "en": ("Ana", "Ana and Ben", "Ana, Ben and Cleo"),
    "fr": ("Ana", "Ana et Ben", "Ana, Ben et Cleo"),
    "pl": ("Ana", "Ana i Ben", "Ana, Ben i Cleo"),
    "ja": ("Ana", "AnaとBen", "Ana、BenとCleo"),
}
EITHER = {
    "en": "Ana, Ben, or Cleo",
    "fr": "Ana, Ben ou Cleo",
    "pl": "Ana, Ben lub Cleo",
    "ja": "Ana、Ben、またはCleo",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_lists_of_one_two_and_three(language: Language) -> None:
    t = translator(language)
    assert tuple(phrasing.listed(NAMES[:k], t) for k in (1, 2, 3)) == LISTED[language]
    assert tuple(render_words.joined(NAMES[:k], t) for k in (1, 2, 3)) == JOINED[language]
    assert phrasing.either(NAMES, t) == EITHER[language]


# ------------------------------------------------------------------ counted nouns


def polish(one: str, few: str, many: str) -> tuple[str, ...]:
    """1 krowa, 2 krowy, 5 krów, 22 krowy, 25 krów."""
    return tuple(f"{n} {one if n == 1 else few if n % 10 in (2, 3, 4) else many}" for n in COUNTS)


def french(one: str, more: str) -> tuple[str, ...]:
    return tuple(f"{n} {one if n == 1 else more}" for n in COUNTS)


def english(one: str, more: str) -> tuple[str, ...]:
    return french(one, more)


def japanese(pattern: str) -> tuple[str, ...]:
    """The rulebook's counters: 牛1個, 開拓地1枚, 2コイン."""
    return tuple(pattern.format(n=n) for n in COUNTS)


COUNTED: dict[str, dict[Language, tuple[str, ...]]] = {
    "cow": {
        "en": english("cow", "cows"),
        "fr": french("vache", "vaches"),
        "pl": polish("krowa", "krowy", "krów"),
        "ja": japanese("牛{n}個"),
    },
    "coin": {
        "en": english("coin", "coins"),
        "fr": french("pièce", "pièces"),
        "pl": polish("moneta", "monety", "monet"),
        "ja": japanese("{n}コイン"),
    },
    "settlement": {
        "en": english("settlement", "settlements"),
        "fr": french("campement", "campements"),
        "pl": polish("osada", "osady", "osad"),
        "ja": japanese("開拓地{n}枚"),
    },
    "canteen": {
        "en": english("canteen", "canteens"),
        "fr": french("gourde", "gourdes"),
        "pl": polish("manierka", "manierki", "manierek"),
        "ja": japanese("水筒{n}個"),
    },
    "worker": {
        "en": english("worker", "workers"),
        "fr": french("ouvrier", "ouvriers"),
        # masculine personal: "2 robotników" (dwóch robotników), as for 5
        "pl": polish("robotnik", "robotników", "robotników"),
        "ja": japanese("ワーカー{n}個"),
    },
    "grain": {
        "en": english("grain", "grain"),
        "fr": french("blé", "blés"),  # « 24 blés »
        "pl": polish("zboże", "zboża", "zbóż"),
        "ja": japanese("小麦{n}個"),
    },
    "pumpkin": {
        "en": english("pumpkin", "pumpkins"),
        "fr": french("courge", "courges"),
        "pl": polish("dynia", "dynie", "dyń"),
        "ja": japanese("カボチャ{n}個"),
    },
    "copper": {
        "en": english("small copper", "small copper"),
        "fr": french("petit cuivre", "petits cuivres"),
        "pl": polish("mała miedź", "małe miedzie", "małych miedzi"),
        "ja": japanese("小さい銅{n}個"),
    },
    "bigstone": {
        "en": english("large stone", "large stone"),
        "fr": french("grande pierre", "grandes pierres"),
        "pl": polish("duży kamień", "duże kamienie", "dużych kamieni"),
        "ja": japanese("大きい石{n}個"),
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("thing", sorted(COUNTED))
def test_counted_pieces_and_goods(language: Language, thing: str) -> None:
    t = translator(language)
    term = GOODS[thing] if thing in GOODS else PIECES[thing]
    assert tuple(term.count_in(t, n) for n in COUNTS) == COUNTED[thing][language]


WORKERS_OF_A_COLOUR = {
    # render.words.workers_phrase: one is "a copper worker", more are counted
    "en": ("a copper worker", *(f"{n} copper workers" for n in COUNTS[1:])),
    "fr": ("un ouvrier cuivre", *(f"{n} ouvriers cuivre" for n in COUNTS[1:])),
    "pl": ("robotnik miedzi", *(f"{n} robotników miedzi" for n in COUNTS[1:])),
    "ja": japanese("銅のワーカー{n}個"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_workers_of_one_colour(language: Language) -> None:
    t = translator(language)
    rendered = tuple(render_words.workers_phrase(["copper"] * n, t) for n in COUNTS)
    assert rendered == WORKERS_OF_A_COLOUR[language]


# ------------------------------------------------------------------ ranks (ordinals)


def rated(games: int = 30) -> PlayerStats:
    rating = PlayerRating("p", "Ana", 30.0, 2.0, 1500, games, 10, 1, 3, "2026-11-01T00:00:00+00:00")
    return PlayerStats(
        rating=rating,
        games=games,
        wins=10,
        average_place=None,
        median_answer=None,
        median_auction_answer=None,
        favourite_action=None,
        best_game=None,
        streak=1,
        best_streak=3,
        history=[],
        ai_moves=0,
    )


def rank_of_30(language: Language, n: int) -> set[str]:
    """The right texts of "1500 (#n of 30)": French writes 1ᵉʳ (1er), then 2ᵉ, 22ᵉ; or
    « rang n » as the review of 2026-11-28 proposes (C2)."""
    if language == "fr":
        ordinals = ("1ᵉʳ", "1er") if n == 1 else (f"{n}ᵉ", f"{n}e")
        return {f"1500 ({o} sur 30)" for o in ordinals} | {f"1500 (rang {n} sur 30)"}
    return {
        "en": {f"1500 (#{n} of 30)"},
        "pl": {f"1500 (miejsce {n} z 30)"},
        "ja": {f"1500（30人中 {n}位）", f"1500（30人中{n}位）"},
    }[language]


def rank_in_title(language: Language, n: int) -> set[str]:
    if language == "fr":
        ordinals = ("1ᵉʳ", "1er") if n == 1 else (f"{n}ᵉ", f"{n}e")
        return {f"Ana — classement 1500 ({o})" for o in ordinals} | {
            f"Ana — classement 1500 (rang {n})"
        }
    return {
        "en": {f"Ana — rating 1500 (#{n})"},
        "pl": {f"Ana — ranking 1500 (miejsce {n})"},
        "ja": {f"Ana — レーティング 1500（{n}位）"},
    }[language]


RANKS = [(language, n) for language in LANGUAGES for n in COUNTS]


@pytest.mark.parametrize(("language", "n"), RANKS)
def test_a_rank_on_the_leaderboard(language: Language, n: int) -> None:
    t = translator(language)
    label, value = stats.stats_fields(rated(), n, 30, t)[0]
    assert label == t.gettext("Rating")
    assert value in rank_of_30(language, n)
    title = stats.chart_words("Ana", rated(), n, t)[0].title
    assert title in rank_in_title(language, n)


# ------------------------------------------------------------------ shared places


class _Finished:
    """What `states.results` reads of a game: its result and each player's seat."""

    def __init__(self, result: Result) -> None:
        self._result = result

    def result(self) -> Result:
        return self._result

    def seat_of(self, player: str) -> int:
        return "abc".index(player)


def ranking_lines(language: Language, n: int) -> list[str]:
    """The final ranking when Ana and Ben tie for first (each with n settlements, n cows
    and canteens, n goods, coins and workers) and Cleo, with nothing, is third."""
    tie = Result(True, [Standing("a", 1, n, n, n), Standing("b", 1, n, n, n)])
    tie.ranking.append(Standing("c", 3, 0, 0, 0))
    names = {"a": "Ana", "b": "Ben", "c": "Cleo"}
    text = states.results(cast(Game, _Finished(tie)), names, translator(language))
    return text.splitlines()


def expected_ranking(language: Language, n: int) -> list[str]:
    one = n == 1
    if language == "en":
        line = (
            "1 settlement, 1 cow or canteen, 1 good, coin or worker"
            if one
            else f"{n} settlements, {n} cows and canteens, {n} goods, coins and workers"
        )
        last = "0 settlements, 0 cows and canteens, 0 goods, coins and workers"
        return [
            "**Final ranking**",
            *(
                f"1. {who} ({colour}) — {line}"
                for who, colour in (("Ana", "blue"), ("Ben", "yellow"))
            ),
            f"3. Cleo (green) — {last}",
        ]
    if language == "fr":
        line = (
            "1 campement, 1 vache ou gourde, 1 ressource, pièce ou ouvrier"
            if one
            else f"{n} campements, {n} vaches et gourdes, {n} ressources, pièces et ouvriers"
        )
        last = "0 campement, 0 vache ou gourde, 0 ressource, pièce ou ouvrier"  # 0 is singular
        return [
            "**Classement final**",
            f"1. Ana (bleu) — {line}",
            f"1. Ben (jaune) — {line}",
            f"3. Cleo (vert) — {last}",
        ]
    if language == "pl":
        settlements, cows = polish("osada", "osady", "osad"), polish("krowa", "krowy", "krów")
        index = COUNTS.index(n)
        cows_and = (
            cows[index]
            .replace("krowa", "krowa lub manierka")
            .replace("krowy", "krowy i manierki")
            .replace("krów", "krów i manierek")
        )
        holdings = {
            "one": f"{n} dobro, moneta lub robotnik",
            "few": f"{n} dobra, monety i robotnicy",
            "many": f"{n} dóbr, monet i robotników",
        }["one" if one else "few" if n % 10 in (2, 3, 4) else "many"]
        line = f"{settlements[index]}, {cows_and}, {holdings}"
        last = "0 osad, 0 krów i manierek, 0 dóbr, monet i robotników"
        return [
            "**Klasyfikacja końcowa**",
            f"1. Ana (niebieski) — {line}",
            f"1. Ben (żółty) — {line}",
            f"3. Cleo (zielony) — {last}",
        ]
    line = f"開拓地{n}枚、牛と水筒{n}個、商品・コイン・ワーカー{n}"
    return [
        "**最終順位**",
        f"1. Ana（青）— {line}",
        f"1. Ben（黄）— {line}",
        "3. Cleo（緑）— 開拓地0枚、牛と水筒0個、商品・コイン・ワーカー0",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("n", COUNTS)
def test_a_shared_first_place_in_the_final_ranking(language: Language, n: int) -> None:
    """Tied players share a place (1, 1, then 3), each line's counts agreeing."""
    assert ranking_lines(language, n) == expected_ranking(language, n)


def winners_line(language: Language, k: int) -> str:
    seats = [{"name": name, "place": 1} for name in NAMES[:k]]
    return stats.summary_line({"seats": seats}, 3, 9, translator(language))


def right_winners(language: Language, k: int) -> set[str]:
    """The line in the parent channel when k players share the win."""
    who = LISTED[language][k - 1]
    if language == "fr":
        # the verb after its subject agrees with one winner or several alike
        return {
            f"🏁 La partie de Montana n°\xa03 est terminée, remportée par {who}. "
            "Le bilan est dans <#9>."
        }
    return {
        "en": {f"🏁 Montana game #3 is over: {who} won. The summary is in <#9>."},
        # the verb before its subjects agrees with the nearest: „wygrywa Ana i Ben”
        "pl": {
            f"🏁 Gra w Montanę nr 3 zakończona: wygrywa {who}. Podsumowanie jest w <#9>.",
            f"🏁 Gra w Montanę nr 3 zakończona: wygrywają {who}. Podsumowanie jest w <#9>.",
        },
        "ja": {
            f"🏁 モンタナのゲーム #3 が終わりました：{who} の勝ちです。まとめは <#9> にあります。"
        },
    }[language]


WINS = [(language, k) for language in LANGUAGES for k in (1, 2, 3)]


@pytest.mark.parametrize(("language", "k"), WINS)
def test_a_shared_win(language: Language, k: int) -> None:
    assert winners_line(language, k) in right_winners(language, k)
