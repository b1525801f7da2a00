"""Every setting is listed in .env.example and in the README's configuration table, under
the name the environment uses."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import AliasChoices

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[3]


def _env_names() -> list[str]:
    names = []
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        names.append(str(alias.choices[0]) if isinstance(alias, AliasChoices) else f"STEPWISE_{name.upper()}")
    return names


@pytest.mark.parametrize("name", _env_names())
def test_each_setting_is_in_the_env_example_and_the_readme(name: str) -> None:
    assert f"# {name}=" in (ROOT / ".env.example").read_text()
    assert f"`{name}`" in (ROOT / "README.md").read_text()
