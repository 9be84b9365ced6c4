"""Discord's OpenAPI schemas the fake checks its LAUNCH_ACTIVITY answers against
(`spec/launch_activity.json`: extracted from github.com/discord/discord-api-spec, MIT,
Copyright 2023 Discord), with a validator of the JSON Schema keywords they use
(`$ref`, `type`, `properties`, `required`, `enum`, `const`, `oneOf`, `allOf`,
`pattern`): the project installs no JSON Schema library for this one answer."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

SPEC = Path(__file__).parent / "spec" / "launch_activity.json"
TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


@cache
def schemas() -> dict[str, Any]:
    return dict(json.loads(SPEC.read_text(encoding="utf-8"))["components"]["schemas"])


def problems(value: Any, name: str) -> list[str]:
    """What in `value` the schema `name` refuses (empty: valid)."""
    return _check(value, {"$ref": f"#/components/schemas/{name}"}, name)


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, TYPES[kind])


def _check(value: Any, schema: dict[str, Any], at: str) -> list[str]:
    if "$ref" in schema:
        return _check(value, schemas()[schema["$ref"].rsplit("/", 1)[-1]], at)
    found: list[str] = []
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, kind) for kind in kinds):
            return [f"{at}: {value!r} is not {' or '.join(kinds)}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{at}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{at}: {value!r} is not one of {schema['enum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        found.append(f"{at}: {value!r} does not match {schema['pattern']}")
    for part in schema.get("allOf", []):
        found += _check(value, part, at)
    if "oneOf" in schema:
        fits = [part for part in schema["oneOf"] if not _check(value, part, at)]
        if len(fits) != 1:
            found.append(f"{at}: {value!r} fits {len(fits)} of oneOf, not exactly one")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{at}: {key} is missing")
        for key, part in schema.get("properties", {}).items():
            if key in value:
                found += _check(value[key], part, f"{at}.{key}")
    return found


__all__ = ["problems", "schemas"]
