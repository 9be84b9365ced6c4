"""deploy/prometheus.yml, deploy/alerts.yml and the operators' guide's metrics section name only
metrics the bot exports (a renamed metric would leave an alert that never fires)."""

from __future__ import annotations

import re
from pathlib import Path

from prometheus_client import REGISTRY

import bot.core.runtime.metrics  # noqa: F401 - defines the metrics

ROOT = Path(__file__).resolve().parents[2]
SUFFIXES = ("", "_total", "_bucket", "_count", "_sum")


def exported() -> set[str]:
    families = [f.name for f in REGISTRY.collect() if f.name.startswith("montana_")]
    return {family + suffix for family in families for suffix in SUFFIXES}


def test_the_alerts_and_the_operators_guide_name_metrics_the_bot_exports() -> None:
    names = exported()
    for path in (ROOT / "deploy" / "alerts.yml", ROOT / "docs" / "operators.md"):
        named = set(re.findall(r"\bmontana_[a-z_]+", path.read_text(encoding="utf-8")))
        named -= {"montana_bot", "montana_discord"}  # the package and the unit, not metrics
        assert named, f"{path.name} names no metric"
        assert named <= names, f"{path.name} names metrics the bot does not export: {named - names}"


def test_the_scrape_config_loads_the_alerts_and_scrapes_the_metrics_path() -> None:
    config = (ROOT / "deploy" / "prometheus.yml").read_text(encoding="utf-8")
    assert "- alerts.yml" in config
    assert "metrics_path: /metrics" in config
    alerts = (ROOT / "deploy" / "alerts.yml").read_text(encoding="utf-8")
    # the two alerts the operators' guide promises
    assert "montana_outbox_oldest_age_seconds) > 600" in alerts
    assert "montana_healthy == 0" in alerts
