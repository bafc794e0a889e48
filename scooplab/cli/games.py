"""Commands about games themselves: ``variants`` (list, copy, check a description), ``eval``, ``rankings``.

Every one reads a game's description (``engine/variants/*.toml`` or a user's file); none
names a game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from scooplab.cli.common import fail, game_named, rule_options
from scooplab.cli.options import DEFAULT_DATA, DataFolder, Format, GameName, OutputFormat, RuleFlag, Tiebreak
from scooplab.cli.output import console

variants_app = typer.Typer(
    help="The games scooplab plays, their rule options, and a check of a description file.",
    invoke_without_command=True,
    no_args_is_help=False,
)


def _option_text(option) -> str:
    choices = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in option.choices)
    default = str(option.default).lower() if isinstance(option.default, bool) else option.default
    return f"{option.name} = {default} ({choices}): {option.help}"


def _facts(game) -> list[str]:
    """What a game has, in the words of the description format (``docs/variants.md``)."""
    from engine.rules.games.description import budget_line, most_players, other_hole_card_choices

    boards = ", ".join(f"{b.name} ({b.role.value})" for b in game.boards)
    shares = "; ".join(
        s.kind.value + (" on each surviving board" if s.per_surviving_board else "")
        + (" on any surviving board" if s.across_surviving_boards else "")
        + (f" ({s.qualifier} or better)" if s.qualifier else "")
        + (f" ({s.least[0]}, {s.least[1]} or better, to qualify)" if s.least else "")
        + (f" on {game.boards[s.board].name}" if s.board is not None else "")
        + (f" (with {', '.join(f'{k} = {v}' for k, v in s.when)})" if s.when else "")
        for s in game.shares
    )  # fmt: skip
    qualified = any(s.least for s in game.shares)
    facts = [
        f"{game.deck.size}-card deck, ranking {game.ranking}, {game.min_players}-{game.max_players} players",
        f"streets: {', '.join(s.name for s in game.streets)}; boards: {boards}",
        f"shares of every pot: {shares}" + (f"; kill: {game.kill.kind.value}" if game.kill else "")
        + (f"; a pot nobody qualifies for: {UNQUALIFIED[game.unqualified]}" if qualified else ""),
        f"PHH codes: {', '.join(f'{c} ({s.value})' for c, s in game.variant_codes.items())}; "
        f"played {game.structure.value} unless asked",
        budget_line(game),
        *(f"with {k} = {v}: at most {most_players(game, choice)} players: "
          f"{budget_line(game, choice, most_players(game, choice) or game.min_players)}"
          for choice in other_hole_card_choices(game) for k, v in choice.items()),
    ]  # fmt: skip
    return (facts + _forced_facts(game) + _stud_facts(game) + _order_facts(game)
            + [f"option {_option_text(o)}" for o in game.options])  # fmt: skip


UNQUALIFIED = {"split": "split among the players holding hands", "best-high": "to the best high hand"}


def _forced_facts(game) -> list[str]:
    """Who posts what in betting mode, and a first betting round after the first street, said."""
    from engine.rules.betting import seat_forced_bets

    antes, blinds = seat_forced_bets(game, 3, 50, 100)  # (a big blind of 100 chips shows the ratio)
    posts = {"small-big": "a small and a big blind", "button": "the button alone posts the big blind",
             "none": "no blinds"}[game.blinds.value]  # fmt: skip
    if game.bring_in or game.starting_bet:
        posts = "a bring-in" if game.bring_in else "a starting bet"
    ante = f", every seat antes {antes[0] / 100:g} big blinds" if antes[0] else ""
    usual = game.ante is None and blinds[1] == 100
    facts = [] if usual else [f"forced bets in betting mode: {posts}{ante}"]
    first = game.forced_street
    if first:
        names = ", ".join(s.name for s in game.streets[:first])
        facts.append(f"no betting on {names}: the forced bets belong to the {game.streets[first].name}"
                     if first < len(game.streets) else "no street has betting")  # fmt: skip
    return facts


def _stud_facts(game) -> list[str]:
    """Up cards, openers and the bring-in; and what the compiled core does not play yet."""
    facts = []
    if any(s.up_cards for s in game.streets):
        facts.append("up cards: " + ", ".join(f"{s.name} {s.up_cards} of {s.hole_cards}" for s in game.streets
                                               if s.hole_cards))  # fmt: skip
    openers = [f"{s.name} {s.opener.value}" for s in game.streets if s.opener.value != "position"]
    if openers:
        facts.append(
            "first to act: " + ", ".join(openers) + ("; the first brings in" if game.bring_in else "")
        )
    for where, gaps in (("", game.compiled_gaps), (" in betting mode", game.betting_gaps)):
        if gaps:
            facts.append(f"not simulated{where} yet (the compiled core does not play {'; '.join(gaps)}); "
                         "its hand histories replay through the rules' state machine")  # fmt: skip
    return facts


def _order_facts(game) -> list[str]:
    """The game's own category order, weakest first (per value of the option it is bound to)."""
    from engine.hands.rankings import RANKINGS, categories_in_order

    names = RANKINGS[game.ranking].categories
    bound = game.category_order
    if bound.option is None and bound.fixed is None:
        return []
    choices = [({}, "")] if bound.option is None else [({bound.option: v}, f" with {bound.option} = {v}")
                                                       for v in bound.values]  # fmt: skip
    return [
        f"categories{label}, weakest first: "
        + " < ".join(names[c] for c in categories_in_order(game.category_places(options), len(names)))
        for options, label in choices
    ]


@variants_app.callback()
def variants_command(
    ctx: typer.Context,
    output: Format = OutputFormat.table,
    data: DataFolder = DEFAULT_DATA,
) -> None:
    """List the games (built-in, and those saved in the warehouse with their version): what each
    has, its PHH codes and its rule options with defaults.

    Examples:

    * `scooplab variants`
    * `scooplab variants check my-game.toml`
    """
    if ctx.invoked_subcommand is not None:
        return
    from engine.rules.games import GAMES
    from scooplab.lab import Lab

    if Path(data).is_dir():
        Lab(data).saved_games()  # known by name, at their newest version
    if output is OutputFormat.json:
        rows = [
            {"name": g.name, "title": g.title, "file": g.source, "players": [g.min_players, g.max_players],
             "phh_codes": {c: s.value for c, s in g.variant_codes.items()}, "structure": g.structure.value,
             "options": {o.name: {"default": o.default, "choices": list(o.choices), "help": o.help}
                         for o in g.options}}
            for g in GAMES.values()
        ]  # fmt: skip
        typer.echo(json.dumps(rows))
        return
    for game in GAMES.values():
        console.print(
            f"[bold]{game.name}[/]  {game.title}  [dim]{Path(game.source).name}[/]", highlight=False
        )
        for fact in _facts(game):
            console.print(f"  {fact}", highlight=False, soft_wrap=True)


@variants_app.command("check")
def check_command(file: Annotated[Path, typer.Argument(help="A game description (.toml).")]) -> None:
    """Check a description file: every problem at once, one line each (an unknown key with the
    nearest known one, a name or PHH code another game has), or what the game is and that it fits
    its deck.

    Exit code 0 when the game is playable, 2 when it is not.
    """
    from engine.rules.games import clashes
    from engine.rules.games.description import DescriptionError, load_description

    try:
        game = load_description(file)
        problems = clashes(game)  # what every command that names the file refuses
    except DescriptionError as error:
        problems = error.problems + _raw_clashes(file, error.problems)
    for problem in problems:
        typer.echo(f"{file}: {problem}", err=True)
    if problems:
        raise typer.Exit(code=2)
    console.print(f"{file}: [green]ok[/], {game.name} ({game.title})", highlight=False)
    for fact in _facts(game):
        console.print(f"  {fact}", highlight=False, soft_wrap=True)


def _raw_clashes(file: Path, problems: list[str]) -> list[str]:
    """The name and code clashes of a description whose other parts have problems (said at once)."""
    import tomllib

    from engine.rules.games import name_clashes

    if any(p.startswith(("not valid TOML", "cannot read")) for p in problems):
        return []
    data = tomllib.loads(file.read_text(encoding="utf-8"))
    codes = data.get("phh_codes")
    return name_clashes(str(data.get("name", "")), list(codes) if isinstance(codes, dict) else [], str(file))


@variants_app.command("new")
def new_command(
    name: Annotated[str, typer.Argument(help="The new game's name (my-game).")],
    base: Annotated[str, typer.Option("--from", help="The game (or .toml) to copy.")] = "holdem",
    folder: Annotated[Path, typer.Option("--to", help="Where to write NAME.toml.")] = Path("."),
    data: DataFolder = DEFAULT_DATA,
) -> None:
    """Write NAME.toml: a copy of a game under a fresh name, title and PHH codes, ready to change.

    `derived_from` names the game it came from (its page offers to compare the two).

    Examples:

    * `scooplab variants new my-holdem --from holdem`
    * `scooplab variants check my-holdem.toml`
    """
    from scooplab.designs import check, derive
    from scooplab.lab import Lab

    if Path(data).is_dir():
        Lab(data).saved_games()  # saved games are known by name, and their codes are taken
    path = folder / f"{name}.toml"
    if path.exists():
        fail(f"{path} already exists: choose another name or folder")
    try:
        text = derive(base, None, new_name=name)
    except (ValueError, OSError) as error:
        fail(str(error))
    result = check(text)
    problems = [line for _, line in result.problems]
    if problems:
        fail(f"{name}: " + "; ".join(problems))
    try:
        _write_new(path, text)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    codes = ", ".join(result.spec.variant_codes)
    console.print(f"wrote {path}: {result.spec.title}, from {base}, PHH codes {codes}", highlight=False)


def _write_new(path: Path, text: str) -> None:
    """Write a new file whole or not at all: a temporary file beside it, linked to its name (never
    over a file that appeared meanwhile), then removed."""
    import os

    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    try:
        os.link(temporary, path)
    finally:
        temporary.unlink()


def _rule_flags(game, tiebreak: str | None, must_use_hole_card: bool) -> dict:
    """The options ``--tiebreak`` and ``--must-use-hole-card`` set, for games that have them."""
    from engine.rules.games import GAMES

    options: dict = {}
    flags = (  # flag, the rule it sets, the concept value it asks for
        ("--tiebreak", "tiebreak", tiebreak),
        ("--must-use-hole-card", "hole_use", "at-least-1" if must_use_hole_card else None),
    )
    for flag, rule, wanted in flags:
        if wanted is None:
            continue
        bound = getattr(game, rule)
        if bound.option is None:
            owners = [g.title for g in GAMES.values() if getattr(g, rule).option]
            fail(f"{flag} is a {' or '.join(sorted(owners))} option")
        options[bound.option] = next((v for v, concept in bound.values.items() if concept == wanted), wanted)
    return options


def eval_command(
    cards: Annotated[list[str], typer.Argument(help="Cards, e.g. `AhKh QhJhTh2c3d`; or HOLE BOARD.")],
    game: GameName = "holdem",
    tiebreak: Tiebreak = None,
    must_use_hole_card: Annotated[
        bool, typer.Option("--must-use-hole-card", help="The high hand uses a hole card (games with it).")
    ] = False,
    rule: RuleFlag = None,
    output: Format = OutputFormat.table,
) -> None:
    """Evaluate one hand: its category, deciding ranks and strength (and low points where a game has them).

    Games whose hole cards play apart from the board (a low share, a hole-card rule) take two
    card lists: the hole cards, then the board; the others take the cards in one list.

    Examples:

    * `scooplab eval --game holdem AhKh QhJhTh2c3d`
    * `scooplab eval --game scarney 2c3d4h5s6c7d AhKhQhJhTh` (hole cards, then the Top Board)
    * `scooplab eval --game skoejarth --tiebreak kickers Kb1c2o 3s4b5c6o`
    * `scooplab eval --game short-deck --rule trips_beat_straight=off 6c6d6h 7s8c9dTh`
    """
    from scooplab.lab import Lab

    spec = game_named(game)
    asked = rule_options(spec, rule) | _rule_flags(spec, tiebreak, must_use_hole_card)
    options = spec.resolve_options(asked)
    try:
        result = Lab().evaluate(spec, cards, options)
    except ValueError as error:  # a card that is not one (CardError), or the wrong number of them
        fail(str(error))
    if output is OutputFormat.json:
        typer.echo(json.dumps(result))
        return
    table = Table(show_header=False, box=None)
    for key, value in result.items():
        table.add_row(key, str(value))
    console.print(table)


def rankings_command(
    game: GameName = "holdem",
    cards: Annotated[int, typer.Option("--cards", "-k", min=5, max=7, help="Cards per set, 5 to 7.")] = 7,
    tiebreak: Tiebreak = None,
    rule: RuleFlag = None,
    output: Format = OutputFormat.table,
) -> None:
    """Exact category frequencies over every card set of a game's deck, and whether rank follows rarity.

    Counts every k-card set of the deck (all 133,784,560 seven-card sets of 52 cards take
    about three seconds) by the category of its best five-card hand under the game's ranking and
    category order, and flags each category that is more common than one it outranks.
    Categories are listed weakest first, in the game's order (`rank`: the place in it).

    Examples:

    * `scooplab rankings --game skoejarth --cards 7`
    * `scooplab rankings --game holdem --cards 5 --format json`
    * `scooplab rankings --game short-deck --rule trips_beat_straight=off`
    """
    from scooplab.lab import Lab

    spec = game_named(game)
    options = spec.resolve_options(rule_options(spec, rule) | _rule_flags(spec, tiebreak, False))
    try:
        result = Lab().rankings(spec, cards, options)
    except RuntimeError as error:  # the sets counted are not every set of the deck
        fail(str(error))
    if output is OutputFormat.json:
        typer.echo(json.dumps(result))
        return
    _print_rankings(spec.name, cards, result["total"], result["categories"])


def _print_rankings(name: str, cards: int, total: int, rows: list[dict]) -> None:
    table = Table(title=f"{name}: best five of every {cards}-card set ({total:,} sets)")
    for column in ("category (weak to strong)", "count", "probability", "1 in", "note"):
        table.add_column(
            column, justify="left" if column in ("note",) or column.startswith("cat") else "right"
        )
    for row in rows:
        count, probability = row["count"], row["probability"]
        if count == 0:
            note = "[yellow]never the best hand[/]"
        elif row["more_common_than"]:
            note = "[red]more common than " + ", ".join(row["more_common_than"]) + "[/]"
        else:
            note = ""
        one_in = f"{1 / probability:,.1f}" if probability else "-"
        table.add_row(row["category"], f"{count:,}", f"{probability:.6f}", one_in, note)
    console.print(table)
