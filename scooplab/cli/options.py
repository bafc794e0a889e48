"""The options more than one command takes, each declared once (name, short flag, help, type):
a command says ``data: DataFolder = DEFAULT_DATA`` and every command's ``--data`` reads the same.
An option only one command has is declared in that command's module."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

DEFAULT_DATA = "data/warehouse"


class OutputFormat(StrEnum):
    table = "table"
    json = "json"


class TableFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


DataFolder = Annotated[
    str,
    typer.Option(
        "--data", "-d", help="The warehouse: a folder or an fsspec URL (s3://...).", envvar="SCOOPLAB_DATA"
    ),
]

Variant = Annotated[
    str,
    typer.Option(
        "--variant", "-v", help="A game: a built-in name (`scooplab variants`) or a description file (.toml)."
    ),
]

GameName = Annotated[
    str,
    typer.Option("--game", "-g", help="A game: a built-in name (`scooplab variants`) or a description file."),
]

RuleFlag = Annotated[
    list[str] | None, typer.Option("--rule", help="A rule option KEY=VALUE (repeatable; see `variants`).")
]

Tiebreak = Annotated[str | None, typer.Option(help="The tie rule, for games that have one.")]

Runs = Annotated[list[str] | None, typer.Option("--run", help="Only these runs (repeatable).")]

Format = Annotated[OutputFormat, typer.Option("--format", help="Output format.")]  # table or json

RowsFormat = Annotated[TableFormat, typer.Option("--format", help="Output format.")]  # table, json or csv
