"""A page task survives the trip through flat string fields."""

from __future__ import annotations

import pytest

from jobs.queue import MalformedTask, PageTask


def test_fields_round_trip_as_text_and_bytes():
    task = PageTask(
        run_id="r1", url="http://a.test/x?q=1", url_key="http://a.test/x?q=1", depth=2, attempt=1
    )
    fields = task.to_fields()
    assert all(isinstance(value, str) for value in fields.values())
    assert PageTask.from_fields(fields) == task
    encoded = {key.encode(): value.encode() for key, value in fields.items()}
    assert PageTask.from_fields(encoded) == task


@pytest.mark.parametrize(
    "fields", [{"url": "http://a.test/"}, {"run_id": "r", "url": "u", "url_key": "u", "depth": "x"}]
)
def test_fields_that_are_not_a_task_are_refused(fields):
    with pytest.raises(MalformedTask):
        PageTask.from_fields(fields)
