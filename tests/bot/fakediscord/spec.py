"""Requests checked against Discord's official OpenAPI spec (`spec_problems`).

``discord_openapi.json`` holds the request bodies of the routes the bot posts and edits
messages through and every schema they reach, vendored from Discord's
``discord-api-spec`` repository (MIT licensed; its commit inside) by
``scripts/discord_openapi.py``. The validator below knows the part of JSON Schema those
schemas use (``type``, ``properties``, ``required``, ``additionalProperties``, ``items``,
``enum``, ``const``, ``allOf``/``anyOf``/``oneOf``, lengths, bounds, ``pattern``,
``uniqueItems``; ``format`` names what a string or number is and is not checked beyond
that); a keyword it does not know fails loudly rather than passing unchecked. Two
ids may be numbers, as discord.py sends them and Discord takes them: an upload's
attachment ``id`` (its index among the files) and an emoji's ``id`` (`_number_id`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from tests.bot.fakediscord.recording import Request

SPEC_PATH = Path(__file__).with_name("discord_openapi.json")
KNOWN = {
    "$ref",
    "additionalProperties",
    "allOf",
    "anyOf",
    "const",
    "description",
    "enum",
    "format",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minimum",
    "oneOf",
    "pattern",
    "properties",
    "required",
    "title",
    "type",
    "uniqueItems",
    "x-discord-union",
}
TYPES: dict[str, Any] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


@cache
def spec() -> dict[str, Any]:
    with SPEC_PATH.open(encoding="utf-8") as spec_file:
        loaded: dict[str, Any] = json.load(spec_file)
    return loaded


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


NUMBER_IDS = re.compile(r"(\.attachments\[\d+\]\.id|\.emoji\.id)$")


def _number_id(value: Any, where: str) -> bool:
    """An id discord.py sends as a number where the spec types a snowflake string, and
    Discord's API takes: an upload's attachment ``id`` (the number of its file among the
    request's uploads, "attachment id or index" in Discord's reference) and a button's or
    option's ``emoji.id`` (discord.py's `PartialEmoji.to_dict`)."""
    return bool(NUMBER_IDS.search(where)) and type(value) is int and value >= 0


def errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Where `value` breaks `schema` (empty: valid)."""
    unknown = set(schema) - KNOWN
    if unknown:
        raise ValueError(f"{where}: schema keywords the validator does not know: {unknown}")
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name == "SnowflakeType" and _number_id(value, where):
            return []
        found = errors(value, spec()["schemas"][name], where)
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        return found + (errors(value, rest, where) if rest else [])
    problems: list[str] = []
    kinds = schema.get("type")
    if kinds is not None:
        names = kinds if isinstance(kinds, list) else [kinds]
        if not any(_is_type(value, name) for name in names):
            return [f"{where}: {type(value).__name__} {value!r:.60} is not {kinds}"]
    if "const" in schema and value != schema["const"]:
        problems.append(f"{where}: {value!r:.60} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where}: {value!r:.60} is not one of {schema['enum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            problems.append(f"{where}: shorter than {schema['minLength']}")
        if len(value) > schema.get("maxLength", len(value)):
            problems.append(f"{where}: {len(value)} characters, over {schema['maxLength']}")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            problems.append(f"{where}: {value!r:.60} does not match {schema['pattern']}")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            problems.append(f"{where}: {value} under {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            problems.append(f"{where}: {value} over {schema['maximum']}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            problems.append(f"{where}: fewer than {schema['minItems']} items")
        if len(value) > schema.get("maxItems", len(value)):
            problems.append(f"{where}: {len(value)} items, over {schema['maxItems']}")
        if schema.get("uniqueItems"):
            seen = [json.dumps(item, sort_keys=True) for item in value]
            if len(set(seen)) != len(seen):
                problems.append(f"{where}: items repeat")
        if isinstance(schema.get("items"), dict):
            for index, item in enumerate(value):
                problems += errors(item, schema["items"], f"{where}[{index}]")
    if isinstance(value, dict):
        properties = schema.get("properties") or {}
        for key in schema.get("required") or []:
            if key not in value:
                problems.append(f"{where}: {key!r} is required")
        if len(value) > schema.get("maxProperties", len(value)):
            problems.append(f"{where}: over {schema['maxProperties']} properties")
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if key in properties:
                problems += errors(item, properties[key], f"{where}.{key}")
            elif isinstance(extra, dict):
                problems += errors(item, extra, f"{where}.{key}")
            elif extra is False:
                problems.append(f"{where}: {key!r} is not a property the spec knows")
    for sub in schema.get("allOf") or []:
        problems += errors(value, sub, where)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            matching = [sub for sub in schema[key] if not errors(value, sub, where)]
            # Discord's spec marks unions it means as "one of" with x-discord-union;
            # its oneOf branches never overlap for the bodies checked here
            if not matching:
                closest = min(
                    (errors(value, sub, where) for sub in schema[key]), key=len, default=[]
                )
                problems.append(f"{where}: matches none of its {key} ({'; '.join(closest[:3])})")
            elif key == "oneOf" and len(matching) > 1:
                problems.append(f"{where}: matches {len(matching)} branches of a oneOf")
    return problems


def spec_problems(requests: list[Request]) -> list[str]:
    """What Discord's spec says is wrong in the bodies of `requests` (those of the
    message and interaction routes it covers; other routes are not checked)."""
    routes = spec()["routes"]
    problems: list[str] = []
    for request in requests:
        route = request.route.replace("/messages/@original", "/messages/{id}")
        schema = routes.get(route)
        if schema is None or request.json is None:
            continue
        problems += [f"{route}: {p}" for p in errors(request.json, schema)]
    return problems


def checked_routes() -> list[str]:
    return sorted(spec()["routes"])


__all__ = ["SPEC_PATH", "checked_routes", "errors", "spec", "spec_problems"]
