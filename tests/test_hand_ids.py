"""``HandIds`` (ingest/histories/hand_ids.py) answers as a set of the same ids would, whatever the
order ids come in, one by one or many at once, as strings or as keys."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ingest.histories import hand_ids
from ingest.histories.hand_ids import HandIds, ids_of, keys_of

CONTENT_IDS = st.text("0123456789abcdef", min_size=20, max_size=20)
OTHER_IDS = st.text("xyz-0123", min_size=1, max_size=8)


@given(
    batches=st.lists(st.lists(st.one_of(CONTENT_IDS, OTHER_IDS), max_size=12), max_size=12),
    probes=st.lists(st.one_of(CONTENT_IDS, OTHER_IDS), max_size=20),
)
def test_hand_ids_answer_as_a_set(batches, probes):
    saved = hand_ids.NEWEST
    hand_ids.NEWEST = 3  # sorted arrays and merges after a few ids
    try:
        ids, truth = HandIds(), set()
        for batch in batches:
            fresh = [i for i in dict.fromkeys(batch) if i not in truth]
            if len(fresh) % 2:
                ids.update(fresh)
            else:
                for identity in fresh:
                    ids.add(identity)
            truth.update(fresh)
        assert len(ids) == len(truth)
        for probe in [*probes, *truth]:
            assert (probe in ids) == (probe in truth)
        content = [p for p in [*probes, *truth] if len(p) == 20 and set(p) <= set("0123456789abcdef")]
        assert ids.contains_many(content).tolist() == [c in truth for c in content]
        assert ids.contains_keys(keys_of(content)).tolist() == [c in truth for c in content]
        assert ids_of(keys_of(content)) == content
    finally:
        hand_ids.NEWEST = saved
