"""`python -m i18n extract | update | check | fix-french | stats | review` — see i18n/README.md."""

from __future__ import annotations

import argparse
import gettext
import statistics
import sys
import time
from pathlib import Path

from . import build, review
from .languages import TRANSLATED_LANGUAGES, is_language
from .translator import TEMPLATE_PATH, Translator, po_path
from .typography import fix_french_po


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n", description=__doc__)
    steps = parser.add_subparsers(dest="step", required=True)
    steps.add_parser("extract", help="write the English strings of the code to messages.pot")
    steps.add_parser("update", help="extract, then bring every language's .po in line")
    steps.add_parser("check", help="list what keeps a language from being complete")
    steps.add_parser(
        "fix-french",
        help="put French typography right in fr.po (narrow no-break spaces, ’, « »)",
    )
    stats = steps.add_parser("stats", help="entries per language and the time to load one")
    stats.add_argument("--repeat", type=int, default=20)
    reviewing = steps.add_parser(
        "review",
        help="list each message added or changed since a git revision, for a reader",
    )
    reviewing.add_argument("--since", required=True, help="a git revision: main, HEAD~3...")
    reviewing.add_argument("--lang", required=True, choices=TRANSLATED_LANGUAGES)
    reviewing.add_argument("--catalogue", type=Path, help="the .po file (default: the lang's)")
    reviewing.add_argument("--glossary", type=Path, help="default: i18n/glossary/<lang>.md")
    reviewing.add_argument("--rulebook", type=Path, help="default: shared/seeds/ beside the repo")
    args = parser.parse_args(argv)

    if args.step == "review":
        assert is_language(args.lang)
        catalogue = args.catalogue or po_path(args.lang)
        text = review.run(args.lang, args.since, catalogue, args.glossary, args.rulebook)
        sys.stdout.write(text)
        return 0

    if args.step in ("extract", "update"):
        template = build.extract()
        changed = build.write_catalog(template, TEMPLATE_PATH)
        print(f"{TEMPLATE_PATH.name}: {len(build.keys(template))} strings", end="")
        print(" (changed)" if changed else " (unchanged)")
        if args.step == "update":
            for language in TRANSLATED_LANGUAGES:
                changed = build.update(template, language)
                print(f"{po_path(language).name}: {'updated' if changed else 'unchanged'}")
        return 0
    if args.step == "fix-french":
        path = po_path("fr")
        text = path.read_text(encoding="utf-8")
        fixed = fix_french_po(text)
        path.write_text(fixed, encoding="utf-8")
        print(f"{path.name}: {'fixed' if fixed != text else 'unchanged'}")
        return 0
    if args.step == "check":
        found = build.check()
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    return _stats(args.repeat)


def _stats(repeat: int) -> int:
    """How many strings each language has translated, and how long loading one takes
    (the median of `repeat` loads from the .po file, wall and CPU time)."""
    template = build.read_catalog(TEMPLATE_PATH)
    total = len(build.keys(template))
    print(f"en (source): {total} strings")
    for language in TRANSLATED_LANGUAGES:
        catalog = build.read_catalog(po_path(language), language)
        done = sum(1 for entry in catalog if entry.id and build.is_translated(entry))
        walls, cpus = [], []
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            with po_path(language).open("rb") as po_file:
                loaded = Translator.from_po(language, po_file)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            assert isinstance(loaded._translations, gettext.GNUTranslations)
        print(
            f"{language}: {done}/{total} translated; load median "
            f"{statistics.median(walls) * 1000:.1f} ms wall, "
            f"{statistics.median(cpus) * 1000:.1f} ms CPU ({repeat} loads)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
