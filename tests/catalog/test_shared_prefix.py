"""A table's column prefix ('l_', 'appt_') is set aside when its columns share it, keys that point elsewhere
aside; one column said twice, or a word saying what a column is ('is_'), is no prefix."""

from __future__ import annotations

import pytest

from agent.text.words import shared_prefix


@pytest.mark.parametrize(("names", "prefix"), [
    (["l_orderkey", "l_partkey", "l_shipdate"], "l_"),
    (["appointment_id", "doctor_id", "appt_status", "appt_scheduled_at", "appt_duration_min"], "appt_"),
    (["doctor_id", "clinic_id", "doc_first_name", "doc_specialty"], "doc_"),
    (["star_bakers", "star_bakers", "episode_id"], ""),
    (["id", "is_active", "is_deleted"], ""),
    (["StoreId", "StoreName", "City"], ""),
    (["user_id", "movie_id", "rating", "rated_at"], ""),
])
def test_shared_prefix(names, prefix):
    assert shared_prefix(names) == prefix
