"""Plain-data pieces of the game state, each with an exact dict round trip."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import data


def zero_goods() -> dict[str, int]:
    return {good: 0 for good in data.GOODS}


def zero_workers() -> dict[str, int]:
    return {colour: 0 for colour in data.COLOURS}


@dataclass
class Player:
    id: str
    coins: int
    cows: int
    canteens: int
    settlements_left: int
    goods: dict[str, int] = field(default_factory=zero_goods)
    workers: dict[str, int] = field(default_factory=zero_workers)

    @property
    def worker_count(self) -> int:
        return sum(self.workers.values())

    def copy(self) -> Player:
        return Player(
            self.id,
            self.coins,
            self.cows,
            self.canteens,
            self.settlements_left,
            dict(self.goods),
            dict(self.workers),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "coins": self.coins,
            "cows": self.cows,
            "canteens": self.canteens,
            "settlements_left": self.settlements_left,
            "goods": dict(self.goods),
            "workers": dict(self.workers),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        return cls(
            id=d["id"],
            coins=d["coins"],
            cows=d["cows"],
            canteens=d["canteens"],
            settlements_left=d["settlements_left"],
            goods=dict(d["goods"]),
            workers=dict(d["workers"]),
        )


@dataclass
class Supply:
    goods: dict[str, int] = field(default_factory=zero_goods)
    workers: dict[str, int] = field(default_factory=zero_workers)
    cows: int = 0

    def copy(self) -> Supply:
        return Supply(dict(self.goods), dict(self.workers), self.cows)

    def to_dict(self) -> dict[str, Any]:
        return {"goods": dict(self.goods), "workers": dict(self.workers), "cows": self.cows}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Supply:
        return cls(goods=dict(d["goods"]), workers=dict(d["workers"]), cows=d["cows"])


@dataclass
class HarvestPlace:
    """One place of a harvest area: worker colours on its large and small box."""

    large: list[str] = field(default_factory=list)
    small: list[str] = field(default_factory=list)

    def copy(self) -> HarvestPlace:
        return HarvestPlace(list(self.large), list(self.small))

    def to_dict(self) -> dict[str, Any]:
        return {"large": list(self.large), "small": list(self.small)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> HarvestPlace:
        return cls(large=list(d["large"]), small=list(d["small"]))


@dataclass(frozen=True)
class Pending:
    """The decision the game waits for (never changed: a new one replaces it).

    kinds: "spin" (chance), "take" (wild colours), "advance", "return", "main",
    "extra", "bid" (city answer), "reward", "build" (build more or stop), "end"
    (canteen or end), "over".
    """

    kind: str
    seat: int | None
    context: str = ""
    """For spin/take: "setup", "recruit" (first spin) or "advance"."""
    area: str = ""
    place: int = 0
    """For extra: the harvest place (1-based) just taken."""
    row: int = 0
    """For reward: the city row being rewarded."""
    resume: Pending | None = None
    """For return: the decision to go back to afterwards (None: the action ends)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "context": self.context,
            "area": self.area,
            "place": self.place,
            "row": self.row,
            "resume": self.resume.to_dict() if self.resume else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Pending:
        return cls(
            kind=d["kind"],
            seat=d["seat"],
            context=d["context"],
            area=d["area"],
            place=d["place"],
            row=d["row"],
            resume=cls.from_dict(d["resume"]) if d["resume"] else None,
        )


@dataclass
class Auction:
    """A city auction in progress (RULES.md 6.3)."""

    active: int
    queue: list[int]
    """Seats that still have their one answer, in clockwise order."""
    displaced: int | None = None
    """The seat overtaken and not yet moved."""
    payers: list[int] = field(default_factory=list)
    """At resolution: seats still to pay and be rewarded, in order."""

    def copy(self) -> Auction:
        return Auction(self.active, list(self.queue), self.displaced, list(self.payers))

    def to_dict(self) -> dict[str, Any]:
        return {
            "active": self.active,
            "queue": list(self.queue),
            "displaced": self.displaced,
            "payers": list(self.payers),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Auction:
        return cls(
            active=d["active"],
            queue=list(d["queue"]),
            displaced=d["displaced"],
            payers=list(d["payers"]),
        )


@dataclass(frozen=True)
class Event:
    """Something that happened, for the bot's sentences and the picture."""

    kind: str
    player: str | None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BuildGains:
    """What a build would give besides its own settlement."""

    bonuses: list[str]
    """"double" and/or one "line" per axis: each places one more settlement."""
    cow: bool
    canteen_lakes: list[str]
    """Labels of the touching lakes whose canteens the builder takes."""


@dataclass(frozen=True)
class Standing:
    player: str
    place: int
    """1 = first; tied players share a place."""
    settlements: int
    cows_and_canteens: int
    holdings: int
    """Goods + coins + workers on the player board."""


@dataclass(frozen=True)
class Result:
    finished: bool
    ranking: list[Standing]

    @property
    def winners(self) -> list[str]:
        return [s.player for s in self.ranking if s.place == 1]
