"""Cards and decks: ids, parsing, formatting, and every error message."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hands.cards import (
    NO_CARD,
    STANDARD,
    UNKNOWN_CARD,
    CardError,
    format_cards,
    parse_card_rows,
    parse_cards,
    split_cards,
)
from engine.rules.games import get_game

SKOEJARTH = get_game("skoejarth").deck  # made by its description (engine/variants/skoejarth.toml)


def test_standard_ids_follow_rank_times_four_plus_suit():
    assert STANDARD.card_id("2c") == 0
    assert STANDARD.card_id("2d") == 1
    assert STANDARD.card_id("3c") == 4
    assert STANDARD.card_id("As") == 51
    for rank_index, rank in enumerate("23456789TJQKA"):
        for suit_index, suit in enumerate("cdhs"):
            assert STANDARD.card_id(rank + suit) == rank_index * 4 + suit_index


def test_skoejarth_ids_follow_rank_times_four_plus_suit():
    assert SKOEJARTH.size == 28
    assert SKOEJARTH.card_id("1b") == 0
    assert SKOEJARTH.card_id("Kb") == 24
    assert SKOEJARTH.card_id("Ks") == 27
    for rank_index, rank in enumerate("123456K"):
        for suit_index, suit in enumerate("bcos"):
            assert SKOEJARTH.card_id(rank + suit) == rank_index * 4 + suit_index


@pytest.mark.parametrize("deck", [STANDARD, SKOEJARTH])
def test_every_card_round_trips(deck):
    ids = np.arange(deck.size, dtype=np.int8)
    text = format_cards(ids, deck)
    assert len(text) == 2 * deck.size
    assert (parse_cards(text, deck) == ids).all()


@pytest.mark.parametrize("deck", [STANDARD, SKOEJARTH])
@given(data=st.data())
def test_random_card_lists_round_trip(deck, data):
    ids = data.draw(st.lists(st.integers(0, deck.size - 1), unique=True, max_size=deck.size))
    array = np.array(ids, dtype=np.int8)
    assert parse_cards(format_cards(array, deck), deck).tolist() == ids


def test_unknown_cards_parse_and_may_repeat():
    assert parse_cards("????Ah").tolist() == [UNKNOWN_CARD, UNKNOWN_CARD, 50]
    assert format_cards([UNKNOWN_CARD, 50]) == "??Ah"


def test_padding_is_skipped_when_formatting():
    assert format_cards([NO_CARD, 0, NO_CARD]) == "2c"


def test_white_space_and_commas_are_ignored():
    assert split_cards(" Ah Kd,\t7c ") == ["Ah", "Kd", "7c"]


@pytest.mark.parametrize(
    ("text", "deck", "message"),
    [
        ("1x", STANDARD, "'1x' is not a card of the standard deck"),
        ("Ah1c", STANDARD, "'1c' is not a card of the standard deck"),
        ("Ah", SKOEJARTH, "'Ah' is not a card of the Skœjarth deck"),
        ("AH", STANDARD, "'AH' is not a card of the standard deck"),
        (
            "AhK",
            STANDARD,
            "'AhK' is not a list of cards of the standard deck: 3 characters, not pairs",
        ),
        ("AhAh", STANDARD, "'Ah' appears twice in 'AhAh'"),
        ("KbKcKb", SKOEJARTH, "'Kb' appears twice in 'KbKcKb'"),
    ],
)
def test_bad_text_gets_a_clear_error(text, deck, message):
    with pytest.raises(CardError) as error:
        parse_cards(text, deck)
    assert str(error.value) == message


def test_duplicates_allowed_on_request():
    assert parse_cards("AhAh", allow_duplicates=True).tolist() == [50, 50]


def test_card_text_rejects_ids_outside_the_deck():
    with pytest.raises(CardError, match="28 is not a card id of the Skœjarth deck"):
        SKOEJARTH.card_text(28)


def test_rows_are_padded_and_checked_for_width():
    rows = parse_card_rows(["AhKd", "2c"], width=3)
    assert rows.tolist() == [[50, 45, NO_CARD], [0, NO_CARD, NO_CARD]]
    with pytest.raises(CardError, match="has 2 cards, more than 1"):
        parse_card_rows(["AhKd"], width=1)
