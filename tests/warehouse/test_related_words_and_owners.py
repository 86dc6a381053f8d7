"""A word only related to a column (one word of its name) is no measure of the things the question names as its
owner when their rows neither hold that column nor lead to it: 'average gift size' is no party size of event
attendees. Left unread, it is asked about."""

from __future__ import annotations

from agent.semantic.nlq.extract import extract_intent
from tests.support.small_warehouse import bootstrapped

SCHEMA = """
CREATE TABLE donors (donor_id INTEGER PRIMARY KEY, donor_name VARCHAR NOT NULL);
CREATE TABLE gifts (gift_id INTEGER PRIMARY KEY, donor_id INTEGER NOT NULL REFERENCES donors (donor_id),
                    gift_amount DECIMAL(10, 2) NOT NULL, gift_date DATE NOT NULL);
CREATE TABLE event_attendees (attendee_id INTEGER PRIMARY KEY, donor_id INTEGER NOT NULL REFERENCES donors (donor_id),
                              party_size INTEGER NOT NULL);
INSERT INTO donors VALUES (1, 'Ada'), (2, 'Alan');
INSERT INTO gifts VALUES (10, 1, 50, '2024-01-05'), (11, 2, 75, '2024-02-01');
INSERT INTO event_attendees VALUES (20, 1, 2), (21, 2, 3);
"""


def test_a_word_of_another_things_column_is_asked_not_measured(tmp_path):
    with bootstrapped(tmp_path, "gifts", SCHEMA) as work:
        said = extract_intent("average gift size", work.semantic, work.values)
        assert said.intent is None and "size" in said.ignored_words, said
        # the same word of the owner's own column is its measure
        own = extract_intent("average party size of event attendees", work.semantic, work.values)
        assert own.intent is not None and own.intent.metrics and "party_size" in own.intent.metrics[0]


CARDS = """
CREATE TABLE members (member_id INTEGER PRIMARY KEY, card_number VARCHAR NOT NULL, member_type_code VARCHAR NOT NULL,
                      priority VARCHAR NOT NULL);
INSERT INTO members VALUES (1, 'C-001', 'A', 'high'), (2, 'C-002', 'J', 'low'), (3, 'C-003', 'A', 'low');
"""


def test_a_label_word_after_a_word_of_another_columns_name_is_no_restatement(tmp_path):
    with bootstrapped(tmp_path, "cards", CARDS) as work:
        # 'card' is only the first word of 'card number': 'card type' is no card number, and is asked about
        said = extract_intent("breakdown of our patrons by card type pls", work.semantic, work.values)
        assert said.intent is None and "type" in said.ignored_words, said
        # 'priority level': the column's own name, then a word that restates it
        level = extract_intent("how many members at each priority level", work.semantic, work.values)
        assert level.intent is not None and level.intent.dimensions == ["priority"], level


FINES = """
CREATE TABLE fines (fine_id INTEGER PRIMARY KEY, amount DECIMAL(8, 2) NOT NULL, assessed_on DATE NOT NULL);
INSERT INTO fines VALUES (1, 2.50, '2024-01-05'), (2, 10.00, '2024-03-01'), (3, 4.00, '2023-12-30');
"""


def test_how_much_of_things_with_one_amount_is_that_amount_added_up(tmp_path):
    with bootstrapped(tmp_path, "fines", FINES) as work:
        said = extract_intent("how much $ did we get in fines in 2024", work.semantic, work.values)
        assert said.intent is not None and said.intent.metrics == ["fines_amount_total"], said
