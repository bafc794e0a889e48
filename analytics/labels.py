"""Readable names of the statistics, defined once: each statistic id's label and what its rate is
out of. The CLI's tables, the JSON (``labels``, beside the ids) and the dashboard read them.

>>> label("categories_showdown[category=full house]"), out_of("categories_showdown[category=full house]")
('Hands at the showdown: full house', 'seats at a showdown')
>>> label("draws_by_street[street=third-draw].stand_pat_rate")
'Stood pat: third-draw'
>>> label("players[player=tag-1].vpip")
'tag-1: put chips in voluntarily (VPIP)'

The plain numbers and table columns shown beside them have words too, and p-values a text:

>>> field_label("pot.p10"), field_label("never_the_best_hand"), p_text(0.0), p_text(0.01234)
('10th percentile', 'never the best hand', '< 0.0001', '0.0123')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# a statistic id, or its family (the id without its [key=value] part), -> label ({} takes the
# value, or the last part of the id) and what its rate counts out of
FAMILIES: dict[str, tuple[str, str]] = {
    "showdown_rate": ("Hands reaching a showdown", "hands"),
    "scoop_rate": ("Scoops: one player took every chip", "showdown hands"),
    "split_rate": ("Split pots", "showdown hands"),
    "category_tie_rate": ("Best category held by two or more", "showdown hands"),
    "categories_showdown": ("Hands at the showdown: {}", "seats at a showdown"),
    "categories_winning": ("Winning hands: {}", "winning seats"),
    "low_points_all": ("Low points at the showdown: {}", "seats at a showdown"),
    "low_points_winning": ("Low points of low-half winners: {}", "low-half winners"),
    "low_points_after_full_board": ("Low points left after the whole Bottom Board: {}", "seats dealt"),
    "remaining_hole_cards": ("Hole cards kept to the showdown: {}", "seats at a showdown"),
    "dead_on_first_street_rate": ("Every hole card lost on the first board street", "seats dealt"),
    "dead_rate": ("Dead hands (every hole card forced out)", "seats dealt"),
    "voided_rate": ("Voided hands", "seats dealt"),
    "high_low_same_player_rate": ("High and low to one player", "showdown hands"),
    "high_low_different_players_rate": ("High and low to different players", "showdown hands"),
    "low_paid_rate": ("A low half paid (a low qualified)", "showdown hands"),
    "tips.forced_out_by_rank": ("Held cards of rank {} forced out", "held cards of the rank"),
    "tips.low_win_rate_by_pairs_held": ("Low half won holding {} pairs", "seats at a showdown holding them"),
    "tips.ace_share_of_winning_lows": ("Winning lows keeping an Ace", "low-half winners"),
    "surviving_boards.one": ("One board survives the river", "showdown hands"),
    "surviving_boards.two": ("Two boards survive the river", "showdown hands"),
    "kills_by_river_rank": ("Boards killed by a river {}", "boards with that river rank"),
    "triple_scoop_rate": ("Triple scoops: alone best on all three boards", "showdown hands"),
    "every_board_scoop_rate": ("Alone best on every board", "showdown hands"),
    "killed_board_best_hand_of_a_loser_rate": ("A killed board held a loser's best hand", "sampled hands"),
    "bring_in_posted_rate": ("Bring-in posted", "hands whose first street was bet"),
    "bring_in_completed_rate": ("Completed after the bring-in", "hands with the bring-in posted"),
    "completed_at_once_rate": ("Opener completed at once", "hands whose first street was bet"),
    "draws_by_street.stand_pat_rate": ("Stood pat: {}", "draws"),
    "draw_improvement": ("Draw improved the hand: {}", "such draws"),
    "first_to_act_won_by_street": ("First to act won chips: {}", "hands bet on the street"),
    "win_rate_by_best_fan_card": ("Won at the showdown with best fan card {}", "such seats"),
    "players.vpip": ("{}: put chips in voluntarily (VPIP)", "hands dealt"),
    "players.pfr": ("{}: raised the first round (PFR)", "hands dealt"),
    "players.three_bet": ("{}: three-bet", "chances to three-bet"),
    "players.wtsd": ("{}: went to the showdown (WTSD)", "hands played"),
    "players.wsd": ("{}: won at the showdown (W$SD)", "showdowns"),
}
# the plain numbers (hands, pots) and the columns of tables shown beside the statistics -> words
FIELDS: dict[str, str] = {
    "hands": "hands",
    "showdown_hands": "hands to a showdown",
    "uncontested_hands": "hands won uncontested",
    "showdown_mode_hands": "showdown-mode hands",
    "pot": "pots",  # (their distribution: pot.mean, pot.p10...)
    "pot.mean": "mean",
    "pot.min": "smallest",
    "pot.p10": "10th percentile",
    "pot.p25": "25th percentile",
    "pot.median": "median",
    "pot.p75": "75th percentile",
    "pot.p90": "90th percentile",
    "pot.max": "largest",
    "category": "category",
    "exact": "exact chance",
    "observed": "seen at the showdown",
    "never_the_best_hand": "never the best hand",
    "more_common_than": "more common than",
    "rate_a": "A",
    "rate_b": "B",
    "n_a": "n A",
    "n_b": "n B",
    "only_a": "only A",
    "only_b": "only B",
    "p_value": "p",
    "p_adjusted": "p adjusted",
}
SMALLEST_P = 1e-4  # a p-value below this is said as "< 0.0001" (a computed 0 is only very small)
_ID = re.compile(r"^(?P<base>[a-z_.]+?)(\[(?P<key>[a-z_]+)=(?P<value>[^\]]*)\])?(\.(?P<sub>[a-z_.]+))?$")


def _entry(statistic: str) -> tuple[tuple[str, str], str] | None:
    """The family entry of an id, and the value its label takes."""
    match = _ID.match(statistic)
    if not match:
        return None
    base, value, sub = match["base"], match["value"], match["sub"]
    for family, filler in ((f"{base}.{sub}", value), (base, value if value is not None else sub)):
        if family in FAMILIES:
            return FAMILIES[family], filler or ""
    return None


def known(statistic: str) -> bool:
    """Whether the id has a label of its own (not the fallback)."""
    return _entry(statistic) is not None


def label(statistic: str) -> str:
    """The readable label of a statistic id (the id in words where none is defined)."""
    found = _entry(statistic)
    if found is None:
        return statistic.replace("_", " ").capitalize()
    (text, _), filler = found
    return text.format(filler) if "{}" in text else text


def out_of(statistic: str) -> str:
    """What a statistic's rate counts out of ("" where none is defined)."""
    found = _entry(statistic)
    return found[0][1] if found else ""


def labels_of(statistics: Iterable[str]) -> dict[str, dict[str, str]]:
    """Each id's label and what it is out of, for the JSON beside the ids."""
    return {s: {"label": label(s), "out_of": out_of(s)} for s in statistics}


def field_label(name: str) -> str:
    """The words of a plain number or a table column (``pot.p10``, ``more_common_than``)."""
    return FIELDS.get(name, name.replace("_", " "))


def p_text(p: float) -> str:
    """A p-value as people read it: three figures, or "< 0.0001" for less (never a bare 0)."""
    return f"< {SMALLEST_P:g}" if p < SMALLEST_P else f"{p:.3g}"
