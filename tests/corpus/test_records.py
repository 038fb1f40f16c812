"""Record ids carry their document and edition (``treachery@4.0/702.187c``); a bare number is not one."""

from __future__ import annotations

from rulesjudge.corpus.records import RecordId, make_id


def test_record_ids_round_trip_and_reject_garbage():
    text = make_id("treachery", "4.0", "702.187c")
    assert str(RecordId.parse(text)) == text
    try:
        RecordId.parse("722.4")
    except ValueError as error:
        assert "document@edition/local" in str(error)
    else:  # pragma: no cover - the assertion is the point
        raise AssertionError("a bare number is not a record id")
