"""What the site-history tests share: fixtures ingested into a new warehouse and read back by hand
id, each player's net in currency, and each hand of a file read by its id."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from ingest.histories.pipeline import ingest
from ingest.histories.sites import site_hands
from ingest.storage.warehouse import Warehouse

SITES = Path(__file__).parent / "fixtures" / "sites"


def stored(tmp_path: Path, *files: Path, name: str = "wh"):
    """Ingest files into a new warehouse: (report, rejects, {hand id: hand row}, {(hand id, player): row});
    a hand's id is its ``hand`` or ``_hand_id`` as text, its row's ``extra`` its ``_`` fields."""
    warehouse = Warehouse(tmp_path / name)
    rejected: list[str] = []
    report = ingest(files, warehouse, on_reject=rejected.append)
    hands = {}
    for row in warehouse.read("hands").to_pylist():
        extra = json.loads(row["extra_fields"] or "{}")
        hands[str(extra.get("hand") or extra.get("_hand_id"))] = row | {"extra": extra}
    by_id = {row["hand_id"]: key for key, row in hands.items()}
    players = {(by_id[p["hand_id"]], p["player"]): p for p in warehouse.read("players").to_pylist()}
    return report, rejected, hands, players


def nets(hands: dict, players: dict, key: str) -> dict[str, Decimal]:
    """Each player's net in a stored hand, in currency (or chips)."""
    decimals = hands[key]["amount_decimals"]
    return {name: Decimal(row["net"]).scaleb(-decimals) for (k, name), row in players.items() if k == key}


def fields_of(path: Path) -> dict[str, dict | str]:
    """Each hand's PHH fields by its id as the file writes it (refused hands: their reason)."""
    out: dict[str, dict | str] = {}
    for _, label, _, fields, error in site_hands(path.read_bytes()):
        out[label.split(" ")[0][1:]] = fields if fields is not None else error
    return out
