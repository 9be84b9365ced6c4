"""Vendor the part of Discord's official OpenAPI spec the fake Discord checks requests
against: the request bodies of the routes the bot posts and edits messages through
(channel messages, interaction callbacks, followups and their edits), and every schema
they reach, into ``tests/bot/fakediscord/discord_openapi.json`` with the spec's licence
and commit.

The spec is Discord's ``discord-api-spec`` repository (MIT licensed). Usage::

    git -C SPEC_REPO show HEAD:specs/openapi.json > /tmp/openapi.json
    python scripts/discord_openapi.py /tmp/openapi.json COMMIT \\
        > tests/bot/fakediscord/discord_openapi.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

ROUTES = {
    "POST /channels/{id}/messages": ("/channels/{channel_id}/messages", "post"),
    "PATCH /channels/{id}/messages/{id}": ("/channels/{channel_id}/messages/{message_id}", "patch"),
    "POST /interactions/{id}/{token}/callback": (
        "/interactions/{interaction_id}/{interaction_token}/callback",
        "post",
    ),
    "POST /webhooks/{id}/{token}": ("/webhooks/{webhook_id}/{webhook_token}", "post"),
    "PATCH /webhooks/{id}/{token}/messages/{id}": (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
        "patch",
    ),
}
"""The fake's route names (`Request.route`; an interaction's followups and its
``@original`` answer use the webhook routes) and the spec's path and method."""
LICENCE = "MIT License, Copyright 2023 Discord (https://github.com/discord/discord-api-spec)"


def reachable(spec: dict[str, Any], roots: list[Any]) -> dict[str, Any]:
    """Every schema of the spec's components that `roots` reach by ``$ref``."""
    schemas = spec["components"]["schemas"]
    found: dict[str, Any] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[-1]
                if name not in found:
                    found[name] = schemas[name]
                    walk(schemas[name])
            for key, value in node.items():
                if key != "$ref":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(roots)
    return dict(sorted(found.items()))


def extract(spec: dict[str, Any], commit: str) -> dict[str, Any]:
    routes = {}
    for name, (path, method) in ROUTES.items():
        body = spec["paths"][path][method]["requestBody"]["content"]
        routes[name] = body["application/json"]["schema"]
    return {
        "licence": LICENCE,
        "source": f"https://github.com/discord/discord-api-spec/blob/{commit}/specs/openapi.json",
        "commit": commit,
        "version": spec.get("info", {}).get("version"),
        "routes": routes,
        "schemas": reachable(spec, list(routes.values())),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as spec_file:
        spec = json.load(spec_file)
    json.dump(extract(spec, argv[2]), sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
